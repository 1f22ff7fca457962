import ArgumentParser
import Foundation
import LoadGenerator

/// The side-by-side report of scripts/bench: the runs' JSON reports (tagged `feed` and `layer`) as Markdown
/// tables per feed (each layer at each connection count), a feed-size table, and SVG plots of req/s and p99
/// against connections.
struct LoadSummaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load-summary", abstract: "Tables and plots of many `load --json` reports (scripts/bench).")

    @Option(help: "folder for report.md and the plots") var out: String
    @Argument(help: "the runs' JSON reports") var reports: [String]

    func run() throws {
        let decoder = JSONDecoder()
        var runs: [LoadReport] = []
        for path in reports {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ValidationError("cannot read \(path)")
            }
            runs.append(try decoder.decode(LoadReport.self, from: data))
        }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let feeds = ordered(runs.map { $0.tags["feed"] ?? "-" })
        // Bottom of the stack first: the floors, then each layer above.
        let order = ["line-echo", "nng-echo", "static", "gateway", "gateway-departures"]
        let layers = ordered(runs.map { $0.tags["layer"] ?? $0.target }).enumerated().sorted {
            (order.firstIndex(of: $0.element) ?? order.count + $0.offset)
                < (order.firstIndex(of: $1.element) ?? order.count + $1.offset)
        }.map(\.element)
        var md = "# Load: each layer at 1–256 connections\n\n"
        md += "Latencies in ms (successful answers); CPU per answer summed over the metered services.\n"
        for feed in feeds {
            md += "\n## \(feed)\n\n"
            md +=
                "| layer | connections | req/s | p50 | p95 | p99 | p99.9 | max | errors | CPU µs/answer | generator CPU |\n"
            md += "|---|---|---|---|---|---|---|---|---|---|---|\n"
            var throughput: [SVGPlot.Series] = []
            var p99: [SVGPlot.Series] = []
            for (i, layer) in layers.enumerated() {
                let rows = runs.filter { ($0.tags["feed"] ?? "-") == feed && ($0.tags["layer"] ?? $0.target) == layer }
                    .sorted { $0.connections < $1.connections }
                guard !rows.isEmpty else { continue }
                for r in rows {
                    let o = r.overall
                    md +=
                        "| \(layer) | \(r.connections) | \(f(o.requestsPerSecond, 0)) | \(ms(o.p50)) | \(ms(o.p95)) | "
                    md += "\(ms(o.p99)) | \(ms(o.p999)) | \(ms(o.max)) | \(o.errors) | "
                    md +=
                        "\(r.servicesMicrosPerAnswer.map { f($0, 1) } ?? "-") | \(f(r.generatorCoreShare * 100, 0)) % |\n"
                }
                let color = Self.colors[i % Self.colors.count]
                let xs = rows.map { Double($0.connections) }
                throughput.append(.init(name: layer, color: color, xs: xs, ys: rows.map(\.overall.requestsPerSecond)))
                p99.append(.init(name: layer, color: color, xs: xs, ys: rows.map(\.overall.p99)))
            }
            let file = "plot-\(feed.replacingOccurrences(of: "/", with: "_")).svg"
            let svg = SVGPlot.render(
                title: "feed \(feed): throughput and p99 by connections",
                panels: [
                    SVGPlot.Panel(yLabel: "req/s", series: throughput, logX: true),
                    SVGPlot.Panel(yLabel: "p99 ms", series: p99, logX: true),
                ], xLabel: "connections")
            try svg.write(toFile: "\(out)/\(file)", atomically: true, encoding: .utf8)
            md += "\n![\(feed)](\(file))\n"
        }
        if feeds.count > 1 {
            md += "\n## By feed size (64 connections)\n\n| layer | " + feeds.joined(separator: " | ") + " |\n"
            md += "|---|" + String(repeating: "---|", count: feeds.count) + "\n"
            for layer in layers {
                md += "| \(layer) | "
                md += feeds.map { feed in
                    guard
                        let r = runs.first(where: {
                            ($0.tags["feed"] ?? "-") == feed && ($0.tags["layer"] ?? $0.target) == layer
                                && $0.connections == 64
                        })
                    else { return "-" }
                    return "\(f(r.overall.requestsPerSecond, 0)) req/s, p99 \(ms(r.overall.p99))"
                        + (r.servicesMicrosPerAnswer.map { ", \(f($0, 0)) µs CPU" } ?? "")
                }.joined(separator: " | ")
                md += " |\n"
            }
        }
        try md.write(toFile: "\(out)/report.md", atomically: true, encoding: .utf8)
        print(md)
    }

    static let colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]

    private func ordered(_ names: [String]) -> [String] {
        var seen: [String] = []
        for n in names where !seen.contains(n) { seen.append(n) }
        return seen
    }
    private func f(_ v: Double, _ d: Int) -> String { String(format: "%.\(d)f", v) }
    private func ms(_ v: Double) -> String { String(format: v < 10 ? "%.3f" : "%.1f", v) }
}
