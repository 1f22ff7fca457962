import ArgumentParser
import Foundation
import Logging
import ProcessSupport
import RealtimeBench
import ServiceSupport

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract:
            "Time full feed updates of a buses-sized TripUpdates feed made against a static database, and publish → subscriber latency.",
        discussion: """
            Use a release build (scripts/bench-realtime runs it on the NSW-scale synthetic database). Picks --trips \
            bus trips with at least --stops stops running at --at and writes a FULL_DATASET feed of them (every \
            trip changes at every update); the schedules come from the database in this process. Prints p50/p95/p99 \
            of protobuf-c's unpack alone, the whole decode, the full update (decode, resolve, diff, encode, publish) \
            and its phases, the peak RSS, then PUB → SUB latency to a subscriber process for 1 KiB messages and \
            for full updates. Markdown tables on standard output, progress on standard error.
            """
    )

    @Option(help: ArgumentHelp("The static database (e.g. bench-data/nsw.db).", valueName: "file"))
    var db: String

    @Option(help: ArgumentHelp("The moment, unix seconds (default: now).", valueName: "unix"))
    var at: Int64?

    @Option(help: "Trip updates in the feed.") var trips = 3000
    @Option(help: "Stop time updates per trip.") var stops = 40
    @Option(help: "Measured updates.") var runs = 30
    @Option(help: "Measured 1 KiB messages (0: no latency part).") var latencyMessages = 2000
    @Option(help: "Measured full updates through PUB → SUB.") var latencyUpdates = 30
    @Option(
        help: ArgumentHelp("nng URL of the PUB socket for the latency part (default: ipc in /tmp).", valueName: "url"))
    var url: String?
    @Option(
        help: ArgumentHelp(
            "Write the feed as a replay folder instead of timing (snapshots 0001, 0002, … of TripUpdates.pb, "
                + "alternating bodies so every snapshot changes every trip; for a `replay` source with loop).",
            valueName: "folder"))
    var writeReplay: String?
    @Option(help: "Snapshots --write-replay writes.") var replaySnapshots = 2

    func validate() throws {
        guard trips >= 1, stops >= 1, runs >= 1 else {
            throw ValidationError("--trips, --stops and --runs must be at least 1")
        }
        guard replaySnapshots >= 1 else { throw ValidationError("--replay-snapshots must be at least 1") }
        guard latencyMessages >= 0, latencyUpdates >= 0 else {
            throw ValidationError("latency counts must be 0 or more")
        }
    }

    func run() async throws {
        ProcessMemory.keepFreedMemory()
        let moment = at ?? Int64(Date().timeIntervalSince1970)
        let log: (String) -> Void = { printError("bench: \($0)") }
        bootstrapLogging(level: .info)  // standard output holds the tables
        let logger = Logger(label: "transit-realtime")
        if let writeReplay {
            try writeReplayFolder(writeReplay, moment: moment, log: log)
            return
        }
        let r = try await UpdateBenchmark.run(
            .init(databasePath: db, at: moment, trips: trips, stops: stops, runs: runs), logger: logger, log: log)
        let feed = r.feed
        print("## realtime update (\(db), at \(moment))")
        print()
        print(
            "feed: \(feed.instances.count) bus trips running × \(feed.stopsPerTrip) stop updates (of \(feed.candidateTrips) bus trips "
                + "with \(feed.stopsPerTrip)+ stops), \(r.feedBytes) bytes; held after an update: \(r.tripsHeld) trips, "
                + "drops: \(r.drops.isEmpty ? "none" : r.drops.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))"
        )
        print(
            "published per update: \(r.publishedBytes) bytes; first update (schedules fetched from the database): "
                + "\(format(r.coldUpdateMs)) ms; RSS before the first update \(r.rssBeforeMiB) MiB, peak after the updates \(r.peakRSSMiB) MiB"
        )
        print()
        print("| what | runs | p50 ms | p95 ms | p99 ms | max ms |")
        print("|---|---|---|---|---|---|")
        row("protobuf-c unpack alone", r.unpackMs)
        row("decode alone (unpack + Swift values)", r.decodeMs)
        row("**full update** (decode, resolve, diff, encode, publish)", r.updateMs)
        row("phase: decode", r.phaseDecodeMs)
        row("phase: screen, resolve, apply, diff", r.phaseApplyMs)
        row("phase: encode and publish", r.phasePublishMs)

        guard latencyMessages > 0 || latencyUpdates > 0 else { return }
        let socketURL = url ?? "ipc:///tmp/transit-realtime-bench-\(getpid()).sock"
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let l = try await LatencyBenchmark.run(
            url: socketURL,
            spawn: { try SubscriberProcess(executable: executable, arguments: ["bench-subscriber", "--connect", $0]) },
            feed: feed, databasePath: db, smallMessages: latencyMessages, fullUpdates: latencyUpdates, logger: logger,
            log: log)
        print()
        print("## publish → subscriber (\(socketURL), subscriber in another process)")
        print()
        print("| what | messages | p50 | p95 | p99 | max |")
        print("|---|---|---|---|---|---|")
        row("\(l.smallBytes) B message, send → received (µs)", l.smallMicros)
        row("full update \(l.fullFrameBytes) B, send → received (ms)", l.fullSendToReceiveMs)
        row("full update, feed bytes in → received (ms)", l.fullFeedToReceiveMs)
        row("full update, subscriber's decode (ms)", l.fullSubscriberDecodeMs)
    }

    /// The bench feed as a replay folder: the service under load applies a full update at every snapshot.
    private func writeReplayFolder(_ folder: String, moment: Int64, log: (String) -> Void) throws {
        log("picking \(trips) bus trips × \(stops) stops running at \(moment) …")
        let feed = try BenchFeed.pick(databasePath: db, at: moment, trips: trips, stops: stops)
        guard !feed.instances.isEmpty else {
            throw ValidationError("no bus trip with \(stops)+ stops runs at \(moment) in \(db)")
        }
        try feed.writeReplay(folder: folder, snapshots: replaySnapshots)
        print(
            "\(replaySnapshots) snapshots of \(feed.instances.count) trips × \(feed.stopsPerTrip) stop updates in \(folder)"
        )
    }

    private func row(_ name: String, _ values: [Double]) {
        guard !values.isEmpty else { return }
        let sorted = values.sorted()
        func q(_ p: Double) -> String {
            format(sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)])
        }
        print("| \(name) | \(values.count) | \(q(0.5)) | \(q(0.95)) | \(q(0.99)) | \(format(sorted.last!)) |")
    }

    private func format(_ value: Double) -> String { String(format: value >= 100 ? "%.0f" : "%.1f", value) }
}

/// The subscriber process of `bench`'s latency part (started by it).
struct BenchSubscriberCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-subscriber", abstract: "The subscriber side of `bench` (started by it).",
        shouldDisplay: false)

    @Option(help: ArgumentHelp("nng URL of the PUB socket.", valueName: "url"))
    var connect: String

    func run() throws {
        try LatencySubscriber.run(url: connect)
    }
}
