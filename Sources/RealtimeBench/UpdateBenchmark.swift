import Foundation
import GTFSRealtime
import Logging
import RealtimeCore
import RealtimeFixtures
import RealtimeService
import Synchronization
import TransitModel
import TransitStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Times full feed updates through the engine on a buses-sized TripUpdates feed made against a static
/// database (`BenchFeed`), with schedules from that database in this process (BENCHMARKS.md, "Realtime
/// service"). Run from a release build (`transit-realtime bench`).
///
/// Every measured update is a FULL_DATASET feed whose every trip changed (two bodies alternate): the worst
/// case for resolving, diffing and publishing. In the same run: protobuf-c's unpack alone, the whole decode
/// alone, and each phase of an update on a second live state (decode; screen, resolve and apply; encode and
/// publish to a sink that drops the bytes).
public enum UpdateBenchmark {
    public struct Options: Sendable {
        public var databasePath: String
        public var at: Int64
        public var trips: Int
        public var stops: Int
        public var runs: Int

        public init(databasePath: String, at: Int64, trips: Int = 3000, stops: Int = 40, runs: Int = 30) {
            self.databasePath = databasePath
            self.at = at
            self.trips = trips
            self.stops = stops
            self.runs = runs
        }
    }

    public struct Result: Sendable {
        public var feed: BenchFeed
        public var feedBytes: Int
        /// Trip instances in the live state after an update, and what the source dropped (by reason).
        public var tripsHeld: Int
        public var drops: [String: UInt64]
        /// The first update: schedules of every trip fetched from the store, patterns cached.
        public var coldUpdateMs: Double
        public var unpackMs: [Double] = []
        public var decodeMs: [Double] = []
        public var updateMs: [Double] = []
        /// Phases of the same updates, on a second live state.
        public var phaseDecodeMs: [Double] = []
        public var phaseApplyMs: [Double] = []
        public var phasePublishMs: [Double] = []
        /// Bytes one update publishes (all topics).
        public var publishedBytes: Int
        /// Resident memory before the first update, and the process's peak after the timed updates (MiB).
        public var rssBeforeMiB: Int
        public var peakRSSMiB: Int
    }

    public static func run(_ o: Options, logger: Logger, log: (String) -> Void = { _ in }) async throws -> Result {
        let store = try StaticStore(path: o.databasePath, connections: 2)
        log("picking \(o.trips) bus trips × \(o.stops) stops running at \(o.at) …")
        let feed = try BenchFeed.pick(
            store: store, databasePath: o.databasePath, at: o.at, trips: o.trips, stops: o.stops)
        guard !feed.instances.isEmpty else {
            throw FixtureError("no bus trip with \(o.stops)+ stops runs at \(o.at) in \(o.databasePath)")
        }
        let timestamp = UInt64(o.at)
        // Two bodies with the same header timestamp: each update is applied (another body) and changes every trip.
        let bodies = [feed.body(variant: 0, timestamp: timestamp), feed.body(variant: 1, timestamp: timestamp)]
        let rssBefore = residentMiB()

        let sink = CountingSink()
        let hub = RealtimeHub(sink: sink)
        let settings = SourceSettings(name: "buses", kind: .tripUpdates, timeZone: feed.timeZone)
        let schedules = StoreScheduleSource(store: store)
        let now = o.at
        let engine = try RealtimeEngine(
            sources: [settings], hub: hub, schedules: schedules,
            timeZone: feed.timeZone, logger: logger, clock: { now })
        let clock = ContinuousClock()
        log("first update (schedules fetched) …")
        let cold = await clock.measure { await engine.handle(.fetched(source: "buses", bytes: bodies[1], at: now)) }
        let status = await engine.statuses()[0]

        var result = Result(
            feed: feed, feedBytes: bodies[0].count, tripsHeld: Int(status.entities), drops: status.drops,
            coldUpdateMs: cold.ms, publishedBytes: 0, rssBeforeMiB: rssBefore, peakRSSMiB: 0)
        log("\(o.runs) updates …")
        for run in 0..<o.runs {
            let body = bodies[run % 2]
            result.unpackMs.append(clock.measure { _ = body.withUnsafeBytes { GTFSRealtimeCodec.unpackOnly($0) } }.ms)
            result.decodeMs.append(clock.measure { _ = try? GTFSRealtimeCodec.decode(body) }.ms)
            sink.reset()
            let update = await clock.measure { await engine.handle(.fetched(source: "buses", bytes: body, at: now)) }
            result.updateMs.append(update.ms)
            result.publishedBytes = sink.bytes
        }
        result.peakRSSMiB = peakRSSMiB()

        log("phases …")
        try await phases(bodies, settings: settings, store: store, runs: o.runs, now: now, into: &result)
        return result
    }

    /// The steps of `RealtimeEngine.ingest` one by one, on their own state and hub.
    private static func phases(
        _ bodies: [[UInt8]], settings: SourceSettings, store: StaticStore, runs: Int, now: Int64,
        into result: inout Result
    ) async throws {
        var state = try LiveState(sources: [settings])
        let hub = RealtimeHub(sink: CountingSink())
        var cache = ScheduleCache()
        guard let window = TripUpdateResolver.serviceDates(around: now, timeZone: settings.timeZone) else { return }
        cache.use(dates: window)
        let first = try GTFSRealtimeCodec.decode(bodies[1])
        cache.add(
            try store.tripSchedules(
                tripIds: state.tripIds(of: first, source: 0), from: window.lowerBound, through: window.upperBound))
        hub.publish(
            state.apply(
                first, bodyHash: RealtimeEngine.hash(bodies[1]), source: 0, fetchedAt: now, schedules: cache, now: now),
            sources: state.statuses(now: now))
        let clock = ContinuousClock()
        for run in 0..<runs {
            let body = bodies[run % 2]
            var feed: FeedMessage?
            result.phaseDecodeMs.append(clock.measure { feed = try? GTFSRealtimeCodec.decode(body) }.ms)
            guard let feed else { continue }
            var changes = LiveChanges()
            result.phaseApplyMs.append(
                clock.measure {
                    let hash = RealtimeEngine.hash(body)
                    guard state.screen(feed, bodyHash: hash, source: 0, fetchedAt: now) else { return }
                    changes = state.apply(feed, bodyHash: hash, source: 0, fetchedAt: now, schedules: cache, now: now)
                }.ms)
            result.phasePublishMs.append(clock.measure { hub.publish(changes, sources: state.statuses(now: now)) }.ms)
        }
    }

    static func residentMiB() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return (pages * Int(sysconf(Int32(_SC_PAGESIZE)))) >> 20
    }

    static func peakRSSMiB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss / 1024
    }
}

/// Counts what would have been published.
final class CountingSink: FrameSink {
    private let total = Mutex(0)
    var bytes: Int { total.withLock { $0 } }
    func reset() { total.withLock { $0 = 0 } }
    func send(_ frame: [UInt8]) throws { total.withLock { $0 += frame.count } }
}

extension Duration {
    var ms: Double {
        let (s, atto) = components
        return Double(s) * 1000 + Double(atto) / 1e15
    }
}
