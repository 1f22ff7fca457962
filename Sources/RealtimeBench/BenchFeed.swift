import Foundation
import GTFSRealtime
import RealtimeFixtures
import RealtimeService
import SQLiteKit
import TransitCore
import TransitModel
import TransitStore

/// A buses-sized TripUpdates feed made against a real static database (BENCHMARKS.md, "Realtime service":
/// ≈ 3,000 trips × 40 stop updates, generated against the NSW-scale synthetic feed), so every trip update
/// resolves against a real pattern and schedule.
///
/// The trips are bus trips (route_type 700–799, or 3) running at the moment with at least `stops` stops,
/// the nearest first departures first. Each trip update is shaped like Transport for NSW's: trip id, route
/// id and start date, a vehicle, a timestamp, and `stops` consecutive stop time updates from the next stop
/// on, each with stop_sequence, stop_id, and arrival and departure as delay and time. `body(variant:)`
/// moves every delay with the variant, so alternating variants change every trip.
public struct BenchFeed: Sendable {
    public let at: Int64
    public let timeZone: String
    public let instances: [RunningInstance]
    public let stopsPerTrip: Int
    /// Bus trips with enough stops the database has in all (before picking those running at `at`).
    public let candidateTrips: Int

    public static func pick(store: StaticStore, databasePath: String, at: Int64, trips: Int, stops: Int) throws
        -> BenchFeed
    {
        let info = store.feedInfo()
        guard let zoneName = info.feeds.first?.timezone else {
            throw FixtureError("\(databasePath): the database has no feed")
        }
        let zone = try ServiceTimeZone(identifier: zoneName)
        let today = zone.localDate(atUnix: at)
        let from = UInt32(today.adding(days: -2).yyyymmdd), through = UInt32(today.adding(days: 1).yyyymmdd)

        let ids = try busTripIds(databasePath, minStops: stops)
        var running: [RunningInstance] = []
        var start = 0
        while start < ids.count {
            let chunk = Array(ids[start..<min(start + StaticStore.maxScheduleTrips, ids.count)])
            start += chunk.count
            let answer = try store.tripSchedules(tripIds: chunk, from: from, through: through)
            var patterns: [UInt32: [PatternStop]] = [:]
            for p in answer.patterns { patterns[p.patternId] = p.stops }
            for trip in answer.trips {
                guard let list = patterns[trip.patternId], list.count >= stops else { continue }
                // Running now: started, not finished (the fixtures' window also takes those starting soon).
                for instance in FixtureSchedule.running(trip, stops: list, at: at, zone: zone)
                where instance.first <= at {
                    running.append(instance)
                }
            }
        }
        running.sort { ($0.first, $0.trip.tripId, $0.serviceDate) > ($1.first, $1.trip.tripId, $1.serviceDate) }
        return BenchFeed(
            at: at, timeZone: zoneName, instances: Array(running.prefix(trips)), stopsPerTrip: stops,
            candidateTrips: ids.count)
    }

    /// `pick` on a database opened for the purpose.
    public static func pick(databasePath: String, at: Int64, trips: Int, stops: Int) throws -> BenchFeed {
        let store = try StaticStore(path: databasePath, connections: 1)
        return try pick(store: store, databasePath: databasePath, at: at, trips: trips, stops: stops)
    }

    /// Writes the feed as a replay folder: snapshot folders 0001 … `snapshots` each holding a TripUpdates.pb
    /// whose variant alternates, so each snapshot played after the one before changes every trip (a full
    /// update). A replay re-stamps the header timestamp, so the bodies keep `at`'s.
    public func writeReplay(folder: String, snapshots: Int) throws {
        for n in 1...max(1, snapshots) {
            let snapshot = (folder as NSString).appendingPathComponent(String(format: "%04d", n))
            try FileManager.default.createDirectory(atPath: snapshot, withIntermediateDirectories: true)
            let body = body(variant: (n - 1) % 2, timestamp: UInt64(at))
            try Data(body).write(
                to: URL(fileURLWithPath: (snapshot as NSString).appendingPathComponent("TripUpdates.pb")))
        }
    }

    /// The feed's bytes: FULL_DATASET, header timestamp `timestamp`, delays shifted by `variant`.
    public func body(variant: Int, timestamp: UInt64) -> [UInt8] {
        var entities: [FeedEntity] = []
        entities.reserveCapacity(instances.count)
        for (t, instance) in instances.enumerated() {
            let count = instance.stops.count
            // From the next stop to depart (the trip is under way), as many as fit.
            var first = instance.stops.firstIndex { instance.baseUnix + Int64($0.departureOffset) >= at } ?? count - 1
            first = max(0, min(first, count - stopsPerTrip))
            var updates: [StopTimeUpdate] = []
            updates.reserveCapacity(stopsPerTrip)
            for k in first..<(first + stopsPerTrip) {
                let stop = instance.stops[k]
                let delay = Int32((t * 7 + k + variant * 3) % 11) * 30 - 60
                updates.append(
                    StopTimeUpdate(
                        stopSequence: stop.stopSequence, stopId: stop.stopId,
                        arrival: StopTimeEvent(delay: delay, time: instance.arrival(k) + Int64(delay)),
                        departure: StopTimeEvent(delay: delay, time: instance.departure(k) + Int64(delay))))
            }
            let startTime = instance.frequencyStart.map { GTFSTime.format(Int($0)) }
            entities.append(
                FeedEntity(
                    id: "\(instance.trip.tripId)_\(instance.serviceDate)",
                    tripUpdate: TripUpdate(
                        trip: TripDescriptor(
                            tripId: instance.trip.tripId, routeId: instance.trip.routeId, startTime: startTime,
                            startDate: String(instance.serviceDate), scheduleRelationship: .scheduled),
                        vehicle: VehicleDescriptor(id: "bus-\(t)", label: "Bus \(t)"), stopTimeUpdates: updates,
                        timestamp: timestamp - UInt64(t % 30))))
        }
        return GTFSRealtimeCodec.encode(
            FeedMessage(
                header: FeedHeader(incrementality: .fullDataset, timestamp: timestamp), entities: entities))
    }

    /// Trip ids of bus routes whose pattern has at least `minStops` stops.
    private static func busTripIds(_ path: String, minStops: Int) throws -> [String] {
        let db = try Database(path: path, mode: .readOnly)
        let statement = try db.prepare(
            """
            SELECT t.trip_id FROM trips t JOIN routes r ON r.route_pk = t.route_pk
            JOIN patterns p ON p.pattern_pk = t.pattern_pk
            WHERE (r.route_type = 3 OR r.route_type BETWEEN 700 AND 799) AND p.stop_count >= ?1
            ORDER BY t.trip_id
            """)
        statement.bind(1, minStops)
        var ids: [String] = []
        while try statement.step() { if let id = statement.string(0) { ids.append(id) } }
        return ids
    }
}

/// `ScheduleSource` answering straight from a store in this process (the benchmark; no sockets).
public struct StoreScheduleSource: ScheduleSource {
    public let store: StaticStore

    public init(store: StaticStore) { self.store = store }

    public func tripSchedules(_ query: TripSchedulesQuery) async throws -> TripSchedules {
        try store.tripSchedules(
            tripIds: query.tripIds, from: query.fromDate, through: query.toDate,
            knownPatternIds: query.knownPatternIds, knownDatabaseVersion: query.knownDatabaseVersion,
            descriptors: query.descriptors)
    }

    public func feedInfo() async throws -> FeedInfo { store.feedInfo() }
}
