import Foundation
import GTFSRealtime
import Synchronization
import TransitModel

/// Times one full feed update through the engine (decode, screen, resolve, diff, encode and publish to a
/// sink that drops the bytes) on a synthetic trip-updates feed shaped like Transport for NSW's buses
/// (issue 3 §6: ≈ 3,000 trips × 40 stop updates), with schedules in memory. Run from a release build
/// (`transit-realtime bench`).
public enum UpdateBenchmark {
    public struct Result: Sendable {
        public var feedBytes: Int
        public var decodeMs: [Double]
        public var updateMs: [Double]
        public var publishedBytes: Int
    }

    public static func run(trips: Int, stops: Int, runs: Int) async throws -> Result {
        let day: ServiceDate = 20250314
        let dayUnix: Int64 = 1_741_910_400  // 2025-03-14T00:00:00Z
        let now = dayUnix + 12 * 3600
        let patternCount = max(1, trips / 10)
        var patterns: [Pattern] = []
        for p in 0..<patternCount {
            var list: [PatternStop] = []
            for k in 0..<stops {
                list.append(PatternStop(stopId: "2\(String(format: "%05d", p))\(String(format: "%02d", k))", stopSequence: UInt32(k + 1),
                                        arrivalOffset: Int32(k * 90), departureOffset: Int32(k * 90 + 20)))
            }
            patterns.append(Pattern(patternId: UInt32(p + 1), stops: list))
        }
        var schedules: [TripSchedule] = []
        for t in 0..<trips {
            schedules.append(TripSchedule(
                tripId: "bench.\(t)", routeId: "R\(t % 400)", routeType: 700, directionId: t % 2,
                patternId: UInt32(t % patternCount + 1), startSecs: Int32(10 * 3600 + (t % 240) * 60),
                serviceDates: [day], timezone: "UTC"))
        }
        let source = MemorySchedules(TripSchedules(databaseVersion: "bench", patterns: patterns, trips: schedules, unknownTripIds: []))

        func feed(_ variant: Int, timestamp: UInt64) -> [UInt8] {
            var entities: [FeedEntity] = []
            entities.reserveCapacity(trips)
            for t in 0..<trips {
                var updates: [StopTimeUpdate] = []
                updates.reserveCapacity(stops)
                for k in 0..<stops {
                    let delay = Int32((t + k + variant) % 11) * 30 - 60
                    updates.append(StopTimeUpdate(stopSequence: UInt32(k + 1), arrival: StopTimeEvent(delay: delay),
                                                  departure: StopTimeEvent(delay: delay)))
                }
                entities.append(FeedEntity(id: "e\(t)", tripUpdate: TripUpdate(
                    trip: TripDescriptor(tripId: "bench.\(t)", startDate: "20250314", scheduleRelationship: .scheduled),
                    vehicle: VehicleDescriptor(id: "bus\(t)"), stopTimeUpdates: updates, timestamp: timestamp)))
            }
            return GTFSRealtimeCodec.encode(FeedMessage(
                header: FeedHeader(incrementality: .fullDataset, timestamp: timestamp), entities: entities))
        }

        let sink = CountingSink()
        let hub = RealtimeHub(sink: sink)
        let engine = try RealtimeEngine(sources: [SourceSettings(name: "buses", kind: .tripUpdates, timeZone: "UTC")],
                                        hub: hub, schedules: source, options: .init(timeZone: "UTC"), clock: { now })
        // Two alternating bodies, so every update changes every trip (the worst case for publishing).
        let bodies = [feed(0, timestamp: UInt64(now)), feed(1, timestamp: UInt64(now))]
        await engine.handle(.fetched(source: "buses", bytes: bodies[1], at: now))  // warm up: schedules fetched here

        var decode: [Double] = []
        var update: [Double] = []
        let clock = ContinuousClock()
        for run in 0..<runs {
            let body = bodies[run % 2]
            let d = clock.measure { _ = try? GTFSRealtimeCodec.decode(body) }
            decode.append(d.milliseconds)
            sink.reset()
            let u = await clock.measure { await engine.handle(.fetched(source: "buses", bytes: body, at: now + Int64(run) + 1)) }
            update.append(u.milliseconds)
        }
        return Result(feedBytes: bodies[0].count, decodeMs: decode, updateMs: update, publishedBytes: sink.bytes)
    }
}

/// Schedules from one bulk answer held in memory.
struct MemorySchedules: ScheduleSource {
    let all: TripSchedules
    init(_ all: TripSchedules) { self.all = all }

    func tripSchedules(_ query: TripSchedulesQuery) async throws -> TripSchedules {
        let wanted = Set(query.tripIds)
        let trips = all.trips.filter { wanted.contains($0.tripId) }
        let patternIds = Set(trips.map(\.patternId))
        let known = Set(trips.map(\.tripId))
        return TripSchedules(databaseVersion: all.databaseVersion, patterns: all.patterns.filter { patternIds.contains($0.patternId) },
                             trips: trips, unknownTripIds: query.tripIds.filter { !known.contains($0) })
    }

    func feedInfo() async throws -> FeedInfo {
        FeedInfo(databaseVersion: all.databaseVersion, importedAt: 0, feeds: [], stops: 0, routes: 0, trips: 0, stopTimes: 0, patterns: 0)
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
    var milliseconds: Double {
        let (s, atto) = components
        return Double(s) * 1000 + Double(atto) / 1e15
    }
}
