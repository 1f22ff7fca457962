// transit-realtime: the realtime service's executable.
//   transit-realtime serve --config <file> --static <nng url> --listen <nng url> --publish <nng url>
//   transit-realtime query --connect <nng url> '<json>'... | -
//   transit-realtime fixtures --db <static db> --out <dir> [--at <unix>] [--replay <n>]
//   transit-realtime bench --db <static db> [--at <unix>] (release build; scripts/bench-realtime)
//   transit-realtime feed-time <file|folder>...   (when a recorded capture was made)
import ArgumentParser
import TransitModel

@main
struct TransitRealtime: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transit-realtime",
        abstract: "GTFS-Realtime: poll feeds, resolve them against the static service, publish and answer over nng.",
        version: TransitVersion.current,
        subcommands: [
            ServeCommand.self, QueryCommand.self, FixturesCommand.self, BenchCommand.self, BenchSubscriberCommand.self,
            FeedTimeCommand.self,
        ]
    )
}
