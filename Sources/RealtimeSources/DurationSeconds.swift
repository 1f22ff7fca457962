// Seconds in messages (Duration's conversions to and from seconds are HTTPFetching's).
import Foundation
import HTTPFetching

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
