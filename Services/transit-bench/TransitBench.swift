// transit-bench: the benchmarks behind BENCHMARKS.md (release builds only).
//   transit-bench static --connect <url> --db <file>   query latency over nng, 1 and 16 clients, beside an
//                                                       nng echo round trip measured in the same run
//   transit-bench gateway --connect <host:port> --db <file> [--static <url>]
//                                                       line-protocol latency from one TCP client (departures,
//                                                       trip, alerts, stop, search) beside the static service's
//   transit-bench import --db <file> -- <feed>...      import throughput (stop_times rows/s) and peak RSS
//   transit-bench echo-server --listen <url>           the echo peer (started by `static` as a child process)
//   transit-bench load --connect <host:port|url> …     the load generator: many connections, closed or open loop,
//                                                       answers checked, percentiles, CPU per answer, targets
//   transit-bench line-echo-server --listen <host:port> a TCP line echo (the line protocol's floor)
//   transit-bench load-summary --out <dir> <run.json>… the report of scripts/bench: tables and plots of many runs
//   transit-bench plan --db <file> [--now <unix>] [--gateway <host:port>]
//                                                       journey planning: timetable build and memory, a full live
//                                                       update, plans in the planner and end to end (issue 27)
import ArgumentParser
import Foundation

@main
struct TransitBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transit-bench",
        abstract: "Benchmarks of the transit services (run release builds).",
        subcommands: [
            StaticBench.self, GatewayBench.self, ImportBench.self, EchoServer.self, LoadCommand.self,
            LineEchoCommand.self,
            LoadSummaryCommand.self, PlanBench.self,
        ]
    )
}
