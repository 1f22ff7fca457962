// transit-bench: the benchmarks behind BENCHMARKS.md (release builds only).
//   transit-bench static --connect <url> --db <file>   query latency over nng, 1 and 16 clients, beside an
//                                                       nng echo round trip measured in the same run
//   transit-bench gateway --connect <host:port> --db <file> [--static <url>]
//                                                       line-protocol latency from one TCP client (departures,
//                                                       trip, alerts, stop, search) beside the static service's
//   transit-bench import --db <file> -- <feed>...      import throughput (stop_times rows/s) and peak RSS
//   transit-bench echo-server --listen <url>           the echo peer (started by `static` as a child process)
import ArgumentParser
import Foundation

@main
struct TransitBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transit-bench",
        abstract: "Benchmarks of the transit services (run release builds).",
        subcommands: [StaticBench.self, GatewayBench.self, ImportBench.self, EchoServer.self]
    )
}
