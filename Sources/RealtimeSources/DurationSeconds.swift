// Conversions between Duration and seconds as Double (config files and Date arithmetic speak seconds).
import Foundation

extension Duration {
    /// The duration in seconds, with its fraction.
    var seconds: Double {
        let (whole, atto) = components
        return Double(whole) + Double(atto) * 1e-18
    }

    /// A duration from seconds; negative and non-finite values become zero.
    static func fromSeconds(_ seconds: Double) -> Duration {
        guard seconds.isFinite, seconds > 0 else { return .zero }
        return .nanoseconds(Int64(min(seconds, 9e9) * 1e9))
    }
}

/// "30 s", "0.05 s", "2.5 min": for messages.
func formatSeconds(_ seconds: Double) -> String {
    func trimmed(_ v: Double) -> String {
        if v == v.rounded() { return String(Int64(v)) }
        var text = String(format: "%.3f", v)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
    if seconds >= 120, (seconds / 60) == (seconds / 60).rounded() { return "\(trimmed(seconds / 60)) min" }
    return "\(trimmed(seconds)) s"
}

/// 43200 -> "43,200": for budget messages.
func groupedThousands(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return value < 0 ? "-" + out : out
}
