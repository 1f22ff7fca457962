import GTFSRealtime
import Synchronization
import TransitModel
import TransitProto

@testable import RealtimeService

/// A static service in memory: answers bulk queries from a fixed set of schedules, can fail, counts calls.
final class FakeSchedules: ScheduleSource {
    struct Data: Sendable {
        var version = "db1"
        var trips: [String: TripSchedule] = [:]
        var patterns: [UInt32: Pattern] = [:]
        var failing = false
        var requests: [[String]] = []
        /// The known pattern ids (and their version) each request named.
        var known: [([UInt32], String?)] = []
        var feedInfoCalls = 0
        /// The calendar's weekend-timetable dates feed_info answers.
        var dayTypes = DayTypeCalendar()
        /// The static trips each descriptor without trip_id matches (absent: none).
        var matches: [TripStartDescriptor: [String]] = [:]
        /// The descriptors each request named.
        var descriptorRequests: [[TripStartDescriptor]] = []
    }

    let data: Mutex<Data>

    init(_ cache: ScheduleCache = StateFixture.schedules, tripIds: [String] = ["T1", "T2", "T3", "T4"]) {
        var d = Data()
        for id in tripIds {
            if let trip = cache.schedule(tripId: id) {
                d.trips[id] = trip
                if let pattern = cache.pattern(id: trip.patternId) { d.patterns[pattern.patternId] = pattern }
            }
        }
        data = Mutex(d)
    }

    var requests: [[String]] { data.withLock { $0.requests } }

    func tripSchedules(_ query: TripSchedulesQuery) async throws -> TripSchedules {
        try data.withLock { d in
            d.requests.append(query.tripIds)
            d.known.append((query.knownPatternIds, query.knownDatabaseVersion))
            d.descriptorRequests.append(query.descriptors)
            if d.failing { throw ScheduleSourceError("static service down (test)") }
            // Like the static service: matched trips come with their schedules.
            let descriptorMatches = query.descriptors.map { d.matches[$0] ?? [] }
            var ids = query.tripIds
            for match in descriptorMatches { for id in match where !ids.contains(id) { ids.append(id) } }
            // Like the static service: known patterns of the served version are left out.
            let leaveOut = query.knownDatabaseVersion == d.version ? Set(query.knownPatternIds) : []
            var trips: [TripSchedule] = []
            var unknown: [String] = []
            var patterns: [UInt32: Pattern] = [:]
            for id in ids {
                if let trip = d.trips[id] {
                    trips.append(trip)
                    if !leaveOut.contains(trip.patternId) { patterns[trip.patternId] = d.patterns[trip.patternId] }
                } else {
                    unknown.append(id)
                }
            }
            return TripSchedules(
                databaseVersion: d.version, patterns: Array(patterns.values), trips: trips, unknownTripIds: unknown,
                descriptorMatches: descriptorMatches)
        }
    }

    func feedInfo() async throws -> FeedInfo {
        try data.withLock { d in
            d.feedInfoCalls += 1
            if d.failing { throw ScheduleSourceError("static service down (test)") }
            return FeedInfo(
                databaseVersion: d.version, importedAt: 0, feeds: [], stops: 0, routes: 0, trips: 0, stopTimes: 0,
                patterns: 0, dayTypes: d.dayTypes)
        }
    }
}

/// Keeps every frame the hub sends, decoded.
final class RecordingSink: FrameSink {
    let frames = Mutex<[[UInt8]]>([])
    func send(_ frame: [UInt8]) throws { frames.withLock { $0.append(frame) } }

    var messages: [PubMessage] { frames.withLock { $0 }.map { try! RealtimeCodec.decodeFramed($0) } }
    func messages(_ topic: RealtimeTopic) -> [PubMessage] { messages.filter { $0.topic == topic } }
    func clear() { frames.withLock { $0.removeAll() } }
}

/// A settable clock.
final class TestClock: Sendable {
    let value: Atomic<Int64>
    init(_ start: Int64 = StateFixture.now) { value = Atomic(start) }
    var now: Int64 { value.load(ordering: .relaxed) }
    func advance(_ seconds: Int64) { value.add(seconds, ordering: .relaxed) }
}

/// An engine over fakes, the test's fixture sources: "tu" (auto) in UTC.
struct EngineHarness {
    let sink = RecordingSink()
    let schedules: FakeSchedules
    let clock = TestClock()
    let hub: RealtimeHub
    let engine: RealtimeEngine

    init(
        sources: [SourceSettings] = [SourceSettings(name: "tu", timeZone: "UTC")],
        schedules: FakeSchedules = FakeSchedules(),
        maxFeedBytes: Int = GTFSRealtimeCodec.defaultMaxBytes, delays: TypicalDelays? = nil
    ) throws {
        self.schedules = schedules
        hub = RealtimeHub(sink: sink, epoch: 77, delays: delays)
        let clock = self.clock
        engine = try RealtimeEngine(
            sources: sources, hub: hub, schedules: schedules,
            timeZone: "UTC", options: .init(maxFeedBytes: maxFeedBytes), logger: quietLogger, clock: { clock.now })
    }

    func feed(_ feed: FeedMessage, source: String = "tu") async {
        await engine.handle(.fetched(source: source, bytes: GTFSRealtimeCodec.encode(feed), at: clock.now))
    }

    func bytes(_ bytes: [UInt8], source: String = "tu") async {
        await engine.handle(.fetched(source: source, bytes: bytes, at: clock.now))
    }

    func status(_ index: Int = 0) async -> LiveSourceStatus { await engine.statuses()[index] }
}

/// A subscriber following the protocol/README.md handshake: buffers per topic, applies a snapshot, then
/// messages in sequence; reports gaps.
struct SubscriberReplica {
    var trips: [TripInstanceKey: LiveTrip] = [:]
    var vehicles: [String: LiveVehicle] = [:]
    var alerts: [String: LiveAlert] = [:]
    var detours: [String: LiveDetour] = [:]
    var sources: [LiveSourceStatus] = []
    var epoch: UInt64?
    var applied: [RealtimeTopic: UInt64] = [:]
    var gaps = 0

    mutating func apply(snapshot: RealtimeSnapshot) {
        epoch = snapshot.epoch
        applied[snapshot.topic] = snapshot.seq
        switch snapshot.payload {
        case .tripUpdates(let b): trips = [:]; apply(.tripUpdates(b))
        case .vehicles(let b): vehicles = [:]; apply(.vehicles(b))
        case .alerts(let b): alerts = [:]; apply(.alerts(b))
        case .detours(let b): detours = [:]; apply(.detours(b))
        case .sources(let s): sources = s
        case .heartbeat: break
        }
    }

    /// Applies a live message; false when it reveals a gap (the caller then asks for a snapshot).
    @discardableResult
    mutating func receive(_ message: PubMessage) -> Bool {
        guard message.topic != .heartbeat else {
            if case .heartbeat(let beat) = message.payload {
                for (topic, seq) in beat.sequences where seq > (applied[topic] ?? 0) && applied[topic] != nil {
                    gaps += 1
                    return false
                }
            }
            return true
        }
        guard message.epoch == epoch, let last = applied[message.topic] else { return false }
        if message.seq <= last { return true }  // duplicate / already in the snapshot
        guard message.seq == last + 1 else {
            gaps += 1
            return false
        }
        applied[message.topic] = message.seq
        apply(message.payload)
        return true
    }

    private mutating func apply(_ payload: LivePayload) {
        switch payload {
        case .tripUpdates(let b):
            for i in b.removed { trips[i] = nil }
            for t in b.trips { trips[t.instance] = t }
        case .vehicles(let b):
            for k in b.removed { vehicles[k] = nil }
            for v in b.vehicles { vehicles[v.key] = v }
        case .alerts(let b):
            for k in b.removed { alerts[k] = nil }
            for a in b.alerts { alerts[a.key] = a }
        case .detours(let b):
            for k in b.removed { detours[k] = nil }
            for d in b.detours { detours[d.key] = d }
        case .sources(let s): sources = s
        case .heartbeat: break
        }
    }
}
