import Foundation
import ProcessSupport
import SQLiteKit
import TransitCore
import TransitModel
import TransitStore

/// One running of a static trip around the fixture moment.
public struct RunningInstance: Sendable, Hashable {
    public var trip: TripSchedule
    public var stops: [PatternStop]
    public var serviceDate: ServiceDate
    /// Unix time of pattern offset 0.
    public var baseUnix: Int64
    /// GTFS seconds of the instance's first departure, for frequency-based trips (their start_time).
    public var frequencyStart: Int32?
    /// exact_times=0: the feed calls it UNSCHEDULED.
    public var inexactFrequency: Bool

    public func arrival(_ k: Int) -> Int64 { baseUnix + Int64(stops[k].arrivalOffset) }
    public func departure(_ k: Int) -> Int64 { baseUnix + Int64(stops[k].departureOffset) }
    public var first: Int64 { departure(0) }
    public var last: Int64 { arrival(stops.count - 1) }
}

/// What the fixtures are made from: the trip instances running around a moment in a static database, with
/// their stops and routes.
public struct FixtureSchedule: Sendable {
    public var at: Int64
    public var timeZone: String
    /// Sorted by (trip id, service date, start).
    public var instances: [RunningInstance]
    public var stops: [String: Stop]
    public var routes: [String: Route]
    /// The first and last date any service of the database's feeds runs (nil: none), for the error that
    /// says which moments would have trips.
    public var serviceDates: ClosedRange<GTFSDate>?

    public init(
        at: Int64, timeZone: String, instances: [RunningInstance], stops: [String: Stop], routes: [String: Route],
        serviceDates: ClosedRange<GTFSDate>? = nil
    ) {
        self.at = at
        self.timeZone = timeZone
        self.instances = instances
        self.stops = stops
        self.routes = routes
        self.serviceDates = serviceDates
    }

    /// Why no trip runs around `at`, and a moment that would have trips (inside the feeds' service dates,
    /// 08:00 local on the nearest of them).
    public var noTripsExplanation: String {
        let zone = try? ServiceTimeZone(identifier: timeZone)
        let today = zone.map { " (\($0.localDate(atUnix: at)) in \(timeZone))" } ?? ""
        var text = "no trip runs around \(ServiceClock.iso8601(at))\(today) in this database"
        guard let serviceDates, let zone else { return text + "; pick another --at or --clock" }
        let date = min(max(zone.localDate(atUnix: at), serviceDates.lowerBound), serviceDates.upperBound)
        let suggestion = Self.localISO8601(zone.unix(of: date, secs: 8 * 3600), zone: zone)
        text += "; its services run from \(serviceDates.lowerBound) to \(serviceDates.upperBound): "
        text += "pick a moment inside those dates, e.g. --clock \(suggestion)"
        return text
    }

    private static func localISO8601(_ unix: Int64, zone: ServiceTimeZone) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = zone.timeZone
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(unix)))
    }

    /// Instances that have started by `at + startsWithin` and not finished by `at` are "running around" it.
    public static let startsWithin: Int64 = 30 * 60

    /// Reads a static database (read-only): every trip's schedule for the service dates around `at`, the
    /// instances running around it (at most `maxTrips`, the nearest first departures kept), their stops and
    /// the routes.
    public static func read(databasePath: String, at: Int64, maxTrips: Int = 500) throws -> FixtureSchedule {
        let store = try StaticStore(path: databasePath, connections: 1)
        let info = store.feedInfo()
        guard let zoneName = info.feeds.first?.timezone else {
            throw FixtureError("\(databasePath): the database has no feed")
        }
        let zone = try ServiceTimeZone(identifier: zoneName)
        let today = zone.localDate(atUnix: at)
        let from = today.adding(days: -2), through = today.adding(days: 1)

        let tripIds = try allTripIds(databasePath)
        var found: [RunningInstance] = []
        var start = 0
        while start < tripIds.count {
            let chunk = Array(tripIds[start..<min(start + StaticStore.maxScheduleTrips, tripIds.count)])
            start += chunk.count
            let answer = try store.tripSchedules(
                tripIds: chunk, from: UInt32(from.yyyymmdd), through: UInt32(through.yyyymmdd))
            var patterns: [UInt32: [PatternStop]] = [:]
            for p in answer.patterns { patterns[p.patternId] = p.stops }
            for trip in answer.trips {
                guard let stops = patterns[trip.patternId], stops.count >= 2 else { continue }
                found += running(trip, stops: stops, at: at, zone: zone)
            }
        }
        // The nearest first departures when there are too many, then a stable order.
        found.sort {
            abs($0.first - at) < abs($1.first - at) || (abs($0.first - at) == abs($1.first - at) && key($0) < key($1))
        }
        var instances = Array(found.prefix(maxTrips))
        instances.sort { key($0) < key($1) }

        var stops: [String: Stop] = [:]
        for instance in instances {
            for s in instance.stops where stops[s.stopId] == nil {
                stops[s.stopId] = try store.stop(id: s.stopId).stop
            }
            for s in instance.stops {
                if let parent = stops[s.stopId]?.parentStation, stops[parent] == nil {
                    stops[parent] = try? store.stop(id: parent).stop
                }
            }
        }
        var routes: [String: Route] = [:]
        for route in try store.routes() { routes[route.routeId] = route }
        return FixtureSchedule(
            at: at, timeZone: zoneName, instances: instances, stops: stops, routes: routes,
            serviceDates: try serviceDates(databasePath))
    }

    private static func serviceDates(_ path: String) throws -> ClosedRange<GTFSDate>? {
        let db = try Database(path: path, mode: .readOnly)
        let statement = try db.prepare("SELECT min(service_start_date), max(service_end_date) FROM feeds")
        guard try statement.step(), let first = statement.optionalInt(0).flatMap({ GTFSDate(yyyymmdd: $0) }),
            let last = statement.optionalInt(1).flatMap({ GTFSDate(yyyymmdd: $0) }), first <= last
        else { return nil }
        return first...last
    }

    /// The instances of `trip` running around `at` on its service dates (frequency-based trips: the
    /// instance of each window running at `at`, if any).
    package static func running(_ trip: TripSchedule, stops: [PatternStop], at: Int64, zone: ServiceTimeZone)
        -> [RunningInstance]
    {
        var out: [RunningInstance] = []
        let firstOffset = Int64(stops[0].departureOffset), lastOffset = Int64(stops[stops.count - 1].arrivalOffset)
        func isRunning(_ base: Int64) -> Bool { base + firstOffset <= at + startsWithin && base + lastOffset >= at }
        for date in trip.serviceDates {
            guard let day = GTFSDate(yyyymmdd: Int(date)) else { continue }
            let reference = zone.referenceUnix(of: day)
            if trip.frequencies.isEmpty {
                let base = reference + Int64(trip.startSecs)
                if isRunning(base) {
                    out.append(
                        RunningInstance(
                            trip: trip, stops: stops, serviceDate: date, baseUnix: base,
                            frequencyStart: nil, inexactFrequency: false))
                }
                continue
            }
            for window in trip.frequencies where window.headwaySecs > 0 {
                // The latest instance starting by `at` (or the first of the window, when it starts later).
                let since = at - reference - Int64(window.startSecs)
                let steps = max(0, since / Int64(window.headwaySecs))
                let startSecs = Int64(window.startSecs) + steps * Int64(window.headwaySecs)
                guard startSecs < Int64(window.endSecs) else { continue }
                let base = reference + startSecs - firstOffset
                if isRunning(base) {
                    out.append(
                        RunningInstance(
                            trip: trip, stops: stops, serviceDate: date, baseUnix: base,
                            frequencyStart: Int32(startSecs), inexactFrequency: !window.exactTimes))
                }
            }
        }
        return out
    }

    private static func key(_ i: RunningInstance) -> (String, ServiceDate, Int32) {
        (i.trip.tripId, i.serviceDate, i.frequencyStart ?? -1)
    }

    private static func allTripIds(_ path: String) throws -> [String] {
        let db = try Database(path: path, mode: .readOnly)
        let statement = try db.prepare("SELECT trip_id FROM trips ORDER BY trip_id")
        var ids: [String] = []
        while try statement.step() { if let id = statement.string(0) { ids.append(id) } }
        return ids
    }
}

public struct FixtureError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
