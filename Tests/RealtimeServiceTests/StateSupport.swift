import GTFSRealtime
import RealtimeCore
import TransitModel

@testable import RealtimeService

/// Hand-made schedules and feeds in UTC. Times are literal unix seconds.
enum StateFixture {
    /// 2025-03-14, a Friday.
    static let day: ServiceDate = 20250314
    static let dayText = "20250314"
    /// 2025-03-14T00:00:00Z: the service-day reference in UTC.
    static let dayUnix: Int64 = 1_741_910_400
    /// 08:20 on `day`.
    static let now: Int64 = dayUnix + 8 * 3600 + 1200

    /// Trips T1…T4 at 08:00, 08:10, … over stops S1…S4 (stop_sequence 1…4, 5 minutes apart); "GONE" is
    /// a trip the static service does not know.
    static var schedules: ScheduleCache {
        var cache = ScheduleCache()
        cache.use(dates: 20250313...20250315)
        var stops: [PatternStop] = []
        for k in 0..<4 {
            let offset = Int32(k * 300)
            stops.append(
                PatternStop(
                    stopId: "S\(k + 1)", stopSequence: UInt32(k + 1), arrivalOffset: offset, departureOffset: offset))
        }
        let pattern = Pattern(patternId: 1, stops: stops)
        var trips: [TripSchedule] = []
        for i in 1...4 {
            let start = Int32(8 * 3600 + (i - 1) * 600)
            trips.append(
                TripSchedule(
                    tripId: "T\(i)", routeId: "R1", routeType: 3, directionId: 0, patternId: 1,
                    startSecs: start, serviceDates: [day], timezone: "UTC"))
        }
        cache.add(TripSchedules(databaseVersion: "db1", patterns: [pattern], trips: trips, unknownTripIds: ["GONE"]))
        return cache
    }

    /// Scheduled departure of stop k (0-based) of trip Ti.
    static func scheduled(_ trip: Int, _ k: Int) -> Int64 { dayUnix + 8 * 3600 + Int64((trip - 1) * 600 + k * 300) }

    static func key(_ trip: Int) -> TripInstanceKey { TripInstanceKey(tripId: "T\(trip)", serviceDate: day) }

    static func tripUpdate(
        _ tripId: String, delay: Int32? = 60, seq: UInt32 = 1,
        relationship: TripScheduleRelationship? = nil
    ) -> TripUpdate {
        TripUpdate(
            trip: TripDescriptor(tripId: tripId, startDate: dayText, scheduleRelationship: relationship),
            stopTimeUpdates: delay.map { [StopTimeUpdate(stopSequence: seq, departure: StopTimeEvent(delay: $0))] }
                ?? [])
    }

    static func entity(_ id: String, _ update: TripUpdate) -> FeedEntity { FeedEntity(id: id, tripUpdate: update) }

    static func vehicle(_ id: String, trip: String?) -> FeedEntity {
        FeedEntity(
            id: id,
            vehicle: VehiclePosition(
                trip: trip.map { TripDescriptor(tripId: $0, startDate: dayText) },
                vehicle: VehicleDescriptor(id: "bus-\(id)"),
                position: Position(latitude: -33.9, longitude: 151.2), timestamp: UInt64(now),
                occupancyStatus: .manySeatsAvailable))
    }

    static func alert(_ id: String, stop: String = "S1") -> FeedEntity {
        FeedEntity(
            id: id,
            alert: Alert(
                activePeriods: [TimeRange(start: UInt64(dayUnix))], informedEntities: [EntitySelector(stopId: stop)],
                effect: .detour, headerText: TranslatedText("Stop \(stop) moved")))
    }

    static func feed(_ entities: [FeedEntity], timestamp: UInt64 = UInt64(now), differential: Bool = false)
        -> FeedMessage
    {
        FeedMessage(
            header: FeedHeader(incrementality: differential ? .differential : .fullDataset, timestamp: timestamp),
            entities: entities)
    }

    static func state(_ settings: [SourceSettings] = [SourceSettings(name: "tu", timeZone: "UTC")]) -> LiveState {
        try! LiveState(sources: settings)
    }
}

extension LiveState {
    /// Screens and applies `feed` like the engine does.
    @discardableResult
    mutating func ingest(
        _ feed: FeedMessage, source: Int = 0, schedules: ScheduleCache = StateFixture.schedules,
        now: Int64 = StateFixture.now
    ) -> LiveChanges? {
        var hasher = Hasher()
        hasher.combine(GTFSRealtimeCodec.encode(feed))
        let hash = hasher.finalize()
        guard screen(feed, bodyHash: hash, source: source, fetchedAt: now) else { return nil }
        return apply(feed, bodyHash: hash, source: source, fetchedAt: now, schedules: schedules, now: now)
    }
}

extension LiveChanges {
    var tripIds: Set<String> { Set(trips.map(\.instance.tripId)) }
    var removedTripIds: Set<String> { Set(removedTrips.map(\.tripId)) }
}

struct NotApplied: Error {}

/// `state.ingest` that must apply the feed.
func mustApply(
    _ state: inout LiveState, _ feed: FeedMessage, source: Int = 0,
    schedules: ScheduleCache = StateFixture.schedules, now: Int64 = StateFixture.now
) throws -> LiveChanges {
    guard let changes = state.ingest(feed, source: source, schedules: schedules, now: now) else { throw NotApplied() }
    return changes
}
