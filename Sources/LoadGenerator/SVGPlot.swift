// Small hand-written SVG line plots: stacked panels sharing the x axis, each with its own y scale (0 to the
// panel's largest value), a legend and a few ticks. Enough to look at a run; no dependency.
import Foundation

public enum SVGPlot {
    public struct Series: Sendable {
        public var name: String
        public var color: String
        public var xs: [Double]
        public var ys: [Double]
        public init(name: String, color: String, xs: [Double], ys: [Double]) {
            self.name = name
            self.color = color
            self.xs = xs
            self.ys = ys
        }
    }

    public struct Panel: Sendable {
        public var yLabel: String
        public var series: [Series]
        /// Log-scaled x axis (connections 1, 8, 64, 256).
        public var logX = false
        public init(yLabel: String, series: [Series], logX: Bool = false) {
            self.yLabel = yLabel
            self.series = series
            self.logX = logX
        }
    }

    public static func render(title: String, panels: [Panel], xLabel: String) -> String {
        let width = 760.0
        let panelHeight = 220.0
        let left = 70.0
        let right = 130.0
        let top = 34.0
        let gap = 46.0
        let height = top + Double(panels.count) * (panelHeight + gap)
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            font-family="sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="20" font-size="13">\(escape(title))</text>

            """
        for (p, panel) in panels.enumerated() {
            let y0 = top + Double(p) * (panelHeight + gap)
            let plotWidth = width - left - right
            let allX = panel.series.flatMap(\.xs)
            let tx: (Double) -> Double = panel.logX ? { log2(max($0, 1)) } : { $0 }
            let minX = allX.map(tx).min() ?? 0
            let maxX = max(allX.map(tx).max() ?? 1, minX + 1)
            let maxY = niceCeiling(panel.series.flatMap(\.ys).filter(\.isFinite).max() ?? 1)
            func px(_ x: Double) -> Double { left + (tx(x) - minX) / (maxX - minX) * plotWidth }
            func py(_ y: Double) -> Double { y0 + panelHeight - y / maxY * panelHeight }
            out +=
                "<rect x=\"\(left)\" y=\"\(y0)\" width=\"\(plotWidth)\" height=\"\(panelHeight)\" fill=\"none\" stroke=\"#999\"/>\n"
            for k in 0...4 {
                let v = maxY * Double(k) / 4
                let y = py(v)
                out +=
                    "<line x1=\"\(left)\" y1=\"\(f(y))\" x2=\"\(left + plotWidth)\" y2=\"\(f(y))\" stroke=\"#eee\"/>\n"
                out += "<text x=\"\(left - 6)\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(label(v))</text>\n"
            }
            let ticks = Array(Set(allX)).sorted()
            let step = max(1, ticks.count / 10)
            for (i, x) in ticks.enumerated() where i % step == 0 {
                out +=
                    "<text x=\"\(f(px(x)))\" y=\"\(f(y0 + panelHeight + 14))\" text-anchor=\"middle\">\(label(x))</text>\n"
            }
            out +=
                "<text x=\"14\" y=\"\(f(y0 + panelHeight / 2))\" transform=\"rotate(-90 14 \(f(y0 + panelHeight / 2)))\" "
            out += "text-anchor=\"middle\">\(escape(panel.yLabel))</text>\n"
            if p == panels.count - 1 {
                out +=
                    "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(y0 + panelHeight + 30))\" text-anchor=\"middle\">"
                out += "\(escape(xLabel))</text>\n"
            }
            for (s, series) in panel.series.enumerated() {
                let points = zip(series.xs, series.ys).filter { $0.1.isFinite }.map { "\(f(px($0.0))),\(f(py($0.1)))" }
                if !points.isEmpty {
                    out +=
                        "<polyline fill=\"none\" stroke=\"\(series.color)\" stroke-width=\"1.5\" points=\"\(points.joined(separator: " "))\"/>\n"
                }
                let ly = y0 + 12 + Double(s) * 16
                out +=
                    "<line x1=\"\(left + plotWidth + 10)\" y1=\"\(f(ly - 4))\" x2=\"\(left + plotWidth + 28)\" y2=\"\(f(ly - 4))\" "
                out += "stroke=\"\(series.color)\" stroke-width=\"2\"/>\n"
                out += "<text x=\"\(left + plotWidth + 32)\" y=\"\(f(ly))\">\(escape(series.name))</text>\n"
            }
        }
        return out + "</svg>\n"
    }

    static func niceCeiling(_ v: Double) -> Double {
        guard v > 0 else { return 1 }
        let magnitude = pow(10, floor(log10(v)))
        for m in [1.0, 2, 2.5, 5, 10] where m * magnitude >= v { return m * magnitude }
        return 10 * magnitude
    }

    static func f(_ v: Double) -> String { String(format: "%.1f", v) }

    static func label(_ v: Double) -> String {
        if v == v.rounded() && abs(v) < 1e7 { return String(Int(v)) }
        return String(format: v < 1 ? "%.3g" : "%.1f", v)
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
