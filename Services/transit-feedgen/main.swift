import ArgumentParser
import FeedGenerator

/// transit-feedgen: writes a deterministic Sydney-shaped GTFS feed for benchmarks.
struct TransitFeedgen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transit-feedgen",
        abstract: "Write a deterministic NSW-scale synthetic GTFS feed (a folder of .txt files).",
        discussion: """
            The same --scale and --seed always give byte-identical files. \
            --scale nsw: at least 100,000 stops, 1,000 routes, 200,000 trips and 10 million stop times; \
            small: a few thousand stop times; a number multiplies the nsw counts (0.1 = a tenth).
            """)

    @Option(name: .long, help: "Output folder (created when missing; the feed's files in it are replaced).")
    var out: String

    @Option(name: .long, help: "nsw, small, or a factor of nsw (e.g. 0.1).")
    var scale: String = "nsw"

    @Option(name: .long, help: "Seed of the generator.")
    var seed: UInt64 = 1

    func validate() throws {
        guard FeedScale(argument: scale) != nil else {
            throw ValidationError("--scale must be nsw, small or a number in (0, 100], not '\(scale)'")
        }
    }

    func run() throws {
        let feedScale = FeedScale(argument: scale)!
        print("transit-feedgen: \(feedScale), seed \(seed) -> \(out)")
        // FeedGeneratorError describes itself (path and reason); ArgumentParser prints it and exits 1
        let summary = try FeedGenerator(scale: feedScale, seed: seed).write(to: out)
        print(summary)
    }
}

TransitFeedgen.main()
