// A run's report: per op and overall counts, errors by code, req/s and latency percentiles; CPU per answer of
// the services and the generator's own share; the targets' verdicts. As a Markdown table, as JSON
// (`--json`), the per-second timeline as CSV (`--timeline`) and as an SVG plot (`--svg`).
import Foundation

/// One op's line of the report (latencies in milliseconds, of the successes).
public struct OpReport: Codable, Sendable, Equatable {
    public var op: String
    public var count: Int
    public var errors: Int
    public var errorsByCode: [String: Int]
    public var requestsPerSecond: Double
    public var p50: Double
    public var p90: Double
    public var p95: Double
    public var p99: Double
    public var p999: Double
    public var max: Double

    init(op: String, results: OpResults, seconds: Double) {
        self.op = op
        count = Int(results.latency.count)
        errors = results.errorCount
        errorsByCode = results.errors
        requestsPerSecond = seconds > 0 ? Double(count) / seconds : 0
        let h = results.latency
        p50 = h.millis(atPercentile: 50)
        p90 = h.millis(atPercentile: 90)
        p95 = h.millis(atPercentile: 95)
        p99 = h.millis(atPercentile: 99)
        p999 = h.millis(atPercentile: 99.9)
        max = h.maxMillis
    }
}

/// A service's CPU over the measured window.
public struct ServiceCPUReport: Codable, Sendable, Equatable {
    public var name: String
    public var pid: Int32
    public var cpuSeconds: Double
    /// Microseconds of CPU per answer (successes and errors) of the run.
    public var microsPerAnswer: Double
    /// Share of one core.
    public var coreShare: Double
}

/// A target's verdict.
public struct TargetReport: Codable, Sendable, Equatable {
    public var target: String
    public var limitMillis: Double
    public var measuredMillis: Double?
    public var met: Bool
}

/// One second of the timeline.
public struct TimelineRow: Codable, Sendable, Equatable {
    public var second: Int
    public var answers: Int
    public var errors: Int
    public var p50: Double
    public var p90: Double
    public var p99: Double
    public var max: Double
}

/// Open loop: how late the generator sent requests after their due time, in milliseconds.
public struct SendLagReport: Codable, Sendable {
    public var p50: Double
    public var p99: Double
    public var p999: Double
    public var max: Double
}

public struct LoadReport: Codable, Sendable {
    public var target: String
    public var mode: String
    public var connections: Int
    public var depth: Int?
    public var offeredRate: Double?
    public var warmupSeconds: Double
    public var durationSeconds: Double
    public var seed: UInt64
    public var workload: String
    public var ops: [OpReport]
    public var overall: OpReport
    public var services: [ServiceCPUReport]
    /// CPU per answer summed over the services (µs), nil without `--pids`.
    public var servicesMicrosPerAnswer: Double?
    public var generatorCPUSeconds: Double
    /// The generator's CPU as a share of one core over the window.
    public var generatorCoreShare: Double
    public var targets: [TargetReport]
    /// Open loop: how late requests left the generator after their due time (ms; nil in a closed loop).
    public var sendLag: SendLagReport?
    public var timeline: [TimelineRow]
    /// When the measured window started (unix seconds; nil when not metered): the timeline's second 0.
    public var windowStartUnix: Double?
    /// Free labels of the run (`--tag feed=nsw`), for summaries of many runs.
    public var tags: [String: String] = [:]

    public init(
        target: String, mode: String, plan: LoadPlan, workload: String, recorder: LoadRecorder, cpu: CPUMeter?,
        targets: [LatencyTarget]
    ) {
        self.target = target
        self.mode = mode
        connections = plan.connections
        switch plan.pacing {
        case .closed(let d): depth = d
        case .open(let r): offeredRate = r
        }
        warmupSeconds = Double(plan.warmup.nanos) / 1e9
        durationSeconds = Double(plan.duration.nanos) / 1e9
        seed = plan.seed
        self.workload = workload
        let seconds = durationSeconds
        ops = recorder.ops.keys.sorted().map { OpReport(op: $0.name, results: recorder.ops[$0]!, seconds: seconds) }
        overall = OpReport(op: "all", results: recorder.overall, seconds: seconds)
        let answers = Double(overall.count + overall.errors)
        services = []
        generatorCPUSeconds = 0
        generatorCoreShare = 0
        if let cpu {
            for s in cpu.serviceSeconds {
                guard let secs = s.seconds else { continue }
                services.append(
                    ServiceCPUReport(
                        name: s.name, pid: s.pid, cpuSeconds: secs,
                        microsPerAnswer: answers > 0 ? secs * 1e6 / answers : 0,
                        coreShare: cpu.wallSeconds > 0 ? secs / cpu.wallSeconds : 0))
            }
            if !services.isEmpty { servicesMicrosPerAnswer = services.reduce(0) { $0 + $1.microsPerAnswer } }
            generatorCPUSeconds = cpu.generatorSeconds
            generatorCoreShare = cpu.wallSeconds > 0 ? cpu.generatorSeconds / cpu.wallSeconds : 0
            windowStartUnix = cpu.windowStartUnix
        }
        if case .open = plan.pacing {
            let lag = recorder.sendLag
            sendLag = SendLagReport(
                p50: lag.millis(atPercentile: 50), p99: lag.millis(atPercentile: 99),
                p999: lag.millis(atPercentile: 99.9), max: lag.maxMillis)
        }
        self.targets = targets.map { t in
            let m = t.measured(in: recorder)
            return TargetReport(
                target: t.description, limitMillis: t.limitMillis, measuredMillis: m,
                met: m.map { $0 <= t.limitMillis } ?? false)
        }
        // Answers that completed after the window's end (to requests sent inside it) count in its last second,
        // so that the timeline adds up to the totals.
        let kept = max(1, Int(seconds.rounded(.up)))
        var perSecond = Array(recorder.timeline.prefix(kept))
        for late in recorder.timeline.dropFirst(kept) {
            if perSecond.isEmpty { perSecond.append(late) } else { perSecond[perSecond.count - 1].merge(late) }
        }
        timeline = perSecond.enumerated().map { i, s in
            TimelineRow(
                second: i, answers: Int(s.latency.count), errors: s.errors, p50: s.latency.millis(atPercentile: 50),
                p90: s.latency.millis(atPercentile: 90), p99: s.latency.millis(atPercentile: 99),
                max: s.latency.maxMillis)
        }
    }

    public var targetsMet: Bool { targets.allSatisfy(\.met) }

    // MARK: renderings

    /// The Markdown table and the lines under it.
    public func text() -> String {
        var out = "\(mode) against \(target): \(connections) connection(s)"
        if let depth { out += ", depth \(depth)" }
        if let offeredRate { out += ", offered \(Self.fmt(offeredRate, 0)) req/s" }
        out += ", \(Self.fmt(durationSeconds, 1)) s after \(Self.fmt(warmupSeconds, 1)) s warm-up, seed \(seed)\n"
        out += "workload: \(workload)\n\n"
        out += "| op | count | errors | req/s | p50 ms | p90 ms | p95 ms | p99 ms | p99.9 ms | max ms |\n"
        out += "|---|---|---|---|---|---|---|---|---|---|\n"
        for r in ops + [overall] {
            out += "| \(r.op) | \(r.count) | \(r.errors) | \(Self.fmt(r.requestsPerSecond, 0)) | "
            out += [r.p50, r.p90, r.p95, r.p99, r.p999, r.max].map { Self.ms($0) }.joined(separator: " | ")
            out += " |\n"
        }
        if !overall.errorsByCode.isEmpty {
            out += "\nerrors by code: "
            out += overall.errorsByCode.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
                separator: ", ")
            out += "\n"
        }
        if !services.isEmpty {
            out += "\nCPU per answer: "
            out += services.map {
                "\($0.name) \(Self.fmt($0.microsPerAnswer, 1)) µs (\(Self.fmt($0.coreShare * 100, 0)) % of a core)"
            }
            .joined(separator: ", ")
            if let sum = servicesMicrosPerAnswer { out += "; summed \(Self.fmt(sum, 1)) µs" }
            out += "\n"
        }
        out +=
            "generator CPU: \(Self.fmt(generatorCoreShare * 100, 1)) % of a core (\(Self.fmt(generatorCPUSeconds, 2)) s)\n"
        if let lag = sendLag {
            out +=
                "generator send lag (part of the latencies above): p50 \(Self.ms(lag.p50)) ms, p99 \(Self.ms(lag.p99)) ms, "
            out += "p99.9 \(Self.ms(lag.p999)) ms, max \(Self.ms(lag.max)) ms\n"
        }
        for t in targets {
            out += "target \(t.target): \(t.measuredMillis.map { Self.ms($0) + " ms" } ?? "not measured") "
            out += t.met ? "met\n" : "MISSED\n"
        }
        return out
    }

    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    public func timelineCSV() -> String {
        var out = "second,answers,errors,p50_ms,p90_ms,p99_ms,max_ms\n"
        for r in timeline {
            out +=
                "\(r.second),\(r.answers),\(r.errors),\(Self.ms(r.p50)),\(Self.ms(r.p90)),\(Self.ms(r.p99)),\(Self.ms(r.max))\n"
        }
        return out
    }

    /// Latency percentiles per second (top) and answers per second (bottom).
    public func timelineSVG() -> String {
        let title =
            "\(mode) \(target), \(connections) conn" + (offeredRate.map { ", \(Self.fmt($0, 0)) req/s offered" } ?? "")
        let xs = timeline.map { Double($0.second) }
        let latency = SVGPlot.Series.self
        return SVGPlot.render(
            title: title,
            panels: [
                SVGPlot.Panel(
                    yLabel: "latency ms",
                    series: [
                        latency.init(name: "p50", color: "#1f77b4", xs: xs, ys: timeline.map(\.p50)),
                        latency.init(name: "p90", color: "#2ca02c", xs: xs, ys: timeline.map(\.p90)),
                        latency.init(name: "p99", color: "#ff7f0e", xs: xs, ys: timeline.map(\.p99)),
                        latency.init(name: "max", color: "#d62728", xs: xs, ys: timeline.map(\.max)),
                    ]),
                SVGPlot.Panel(
                    yLabel: "answers/s",
                    series: [
                        latency.init(
                            name: "answers", color: "#444444", xs: xs, ys: timeline.map { Double($0.answers) }),
                        latency.init(name: "errors", color: "#d62728", xs: xs, ys: timeline.map { Double($0.errors) }),
                    ]),
            ], xLabel: "second")
    }

    static func fmt(_ v: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", v) }
    static func ms(_ v: Double) -> String { String(format: v < 10 ? "%.3f" : v < 100 ? "%.2f" : "%.1f", v) }
}
