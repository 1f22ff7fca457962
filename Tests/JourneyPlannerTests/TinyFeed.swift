import JourneyPlanner
import TransitCore

/// Hand-made feeds for the named rule tests: stops on a line 100 m apart (unless placed), trips written as
/// "stop@HH:MM" lists, one service running on every day of the window.
struct TinyFeed {
    /// 2025-12-22 00:00 UTC, the reference of the first service day (no DST unless a test sets `days`).
    static let day0: Int64 = 1_766_361_600
    var stops: [TimetableSource.Stop] = []
    var trips: [TimetableSource.Trip] = []
    var transfers: [TimetableSource.Transfer] = []
    var days: [TimetableSource.ServiceDay] = (0..<2).map { d in
        var services = ServiceSet(capacity: 1)
        services.insert(0)
        return .init(
            date: GTFSDate(yyyymmdd: 20_251_222)!.adding(days: d), referenceUnix: day0 + Int64(d) * 86_400,
            services: services)
    }

    /// Adds `count` stops 100 m apart eastwards (about 0.0009° of longitude at the equator), returns their indexes.
    @discardableResult
    mutating func line(_ count: Int, lat: Double = 0, lonStart: Double = 0, spacing: Double = 0.0009) -> [Int] {
        (0..<count).map { i in
            stops.append(.init(lat: lat, lon: lonStart + Double(i) * spacing, wheelchairBoarding: 1))
            return stops.count - 1
        }
    }

    @discardableResult
    mutating func stop(lat: Double, lon: Double, station: Int? = nil, wheelchair: Int = 1) -> Int {
        stops.append(.init(lat: lat, lon: lon, station: station, wheelchairBoarding: wheelchair))
        return stops.count - 1
    }

    /// A trip through `calls` = (stop, "HH:MM" or "HH:MM:SS") with the same arrival and departure.
    mutating func trip(
        _ calls: [(Int, String)], mode: Mode = .bus, accessible: Int = 1, noPickup: Set<Int> = [],
        noDropOff: Set<Int> = [], frequencies: [FrequencyPeriod] = []
    ) {
        let stopTimes = calls.map { stop, time in
            let secs = Self.secs(time)
            return TimetableSource.StopTime(
                stop: stop, arrival: secs, departure: secs, pickup: !noPickup.contains(stop),
                dropOff: !noDropOff.contains(stop))
        }
        trips.append(
            .init(
                service: 0, mode: mode, wheelchairAccessible: accessible, stopTimes: stopTimes, frequencies: frequencies
            ))
    }

    static func secs(_ text: String) -> Int {
        let parts = text.split(separator: ":").map { Int($0)! }
        return parts[0] * 3600 + parts[1] * 60 + (parts.count > 2 ? parts[2] : 0)
    }

    /// The unix time of "HH:MM" on service day `day` (UTC references).
    static func at(_ text: String, day: Int = 0) -> Int64 { day0 + Int64(day) * 86_400 + Int64(secs(text)) }

    var source: TimetableSource { TimetableSource(stops: stops, trips: trips, transfers: transfers, days: days) }
    var timetable: Timetable { Timetable(source) }

    /// (transfers, arrival) of the depart-at answer.
    func arrivals(_ q: PlanQuery, live: LiveTrips? = nil) throws -> [Int: Int64] {
        let t = live.map { timetable.applying($0).timetable } ?? timetable
        var result: [Int: Int64] = [:]
        for j in try JourneyPlanner.plan(q, on: t).journeys { result[j.transfers] = j.arrival }
        return result
    }
}
