import GTFSRealtime
import Testing
import TransitModel

@testable import RealtimeCore

/// Small hand-made schedules. Times are literal unix seconds (computed outside this code) so the tests
/// check the resolver's clock instead of reusing it.
enum Fixture {
    /// 2025-03-14, a Friday; in UTC its service-day reference is midnight.
    static let day: ServiceDate = 20250314
    static let dayText = "20250314"
    /// 2025-03-14T00:00:00Z
    static let dayUnix: Int64 = 1_741_910_400
    /// 08:00:00, the default trip start.
    static let start: Int32 = 28_800
    /// 08:20 on `day`.
    static let now: Int64 = dayUnix + 28_800 + 1_200

    /// Stops S1…Sn with stop_sequence 10, 20, …; stop k arrives k·300 s after the start and departs
    /// `dwell` s later (the first stop departs at once).
    static func pattern(_ count: Int, id: UInt32 = 1, stopIds: [String]? = nil, dwell: Int32 = 30) -> Pattern {
        var stops: [PatternStop] = []
        for k in 0..<count {
            let arrival = Int32(k) * 300
            stops.append(
                PatternStop(
                    stopId: stopIds?[k] ?? "S\(k + 1)", stopSequence: UInt32((k + 1) * 10),
                    arrivalOffset: arrival, departureOffset: k == 0 ? arrival : arrival + dwell))
        }
        return Pattern(patternId: id, stops: stops)
    }

    static func trip(
        _ id: String = "T1", pattern: UInt32 = 1, start: Int32 = start, dates: [ServiceDate] = [day],
        timezone: String = "UTC", frequencies: [FrequencyWindow] = []
    ) -> TripSchedule {
        TripSchedule(
            tripId: id, routeId: "R1", routeType: 3, directionId: 1, patternId: pattern, startSecs: start,
            frequencies: frequencies, serviceDates: dates, timezone: timezone)
    }

    static func index(_ trips: [TripSchedule], _ patterns: [Pattern]) -> TripScheduleIndex {
        var index = TripScheduleIndex()
        for trip in trips { index.add(trip) }
        for pattern in patterns { index.add(pattern) }
        return index
    }

    /// The default schedule: trip T1 at 08:00 on `day` over a 6-stop pattern.
    static let standard = index([trip()], [pattern(6)])

    static func update(
        _ tripId: String? = "T1", startDate: String? = dayText, startTime: String? = nil,
        relationship: TripScheduleRelationship? = nil, delay: Int32? = nil, timestamp: UInt64? = nil,
        properties: TripProperties? = nil, _ stops: [StopTimeUpdate] = []
    ) -> TripUpdate {
        TripUpdate(
            trip: TripDescriptor(
                tripId: tripId, startTime: startTime, startDate: startDate, scheduleRelationship: relationship),
            vehicle: VehicleDescriptor(id: "V7", label: "Bus 7"), stopTimeUpdates: stops, timestamp: timestamp,
            delay: delay, tripProperties: properties)
    }

    /// An update of T1 on `day` with these stop time updates.
    static func update(_ stops: [StopTimeUpdate]) -> TripUpdate { update("T1", stops) }

    static func stu(
        seq: UInt32? = nil, stop: String? = nil, arrivalDelay: Int32? = nil, arrivalTime: Int64? = nil,
        departureDelay: Int32? = nil, departureTime: Int64? = nil, _ relationship: StopTimeScheduleRelationship? = nil
    ) -> StopTimeUpdate {
        let arrival =
            arrivalDelay == nil && arrivalTime == nil ? nil : StopTimeEvent(delay: arrivalDelay, time: arrivalTime)
        let departure =
            departureDelay == nil && departureTime == nil
            ? nil : StopTimeEvent(delay: departureDelay, time: departureTime)
        return StopTimeUpdate(
            stopSequence: seq, stopId: stop, arrival: arrival, departure: departure, scheduleRelationship: relationship)
    }

    /// Scheduled arrival of stop k (0-based) of the default trip on `day`.
    static func arrival(_ k: Int, base: Int64 = dayUnix + Int64(start)) -> Int64 { base + Int64(k) * 300 }
    static func departure(_ k: Int, dwell: Int64 = 30, base: Int64 = dayUnix + Int64(start)) -> Int64 {
        base + Int64(k) * 300 + (k == 0 ? 0 : dwell)
    }

    static func resolver(timeZone: String = "UTC", prefix: String = "") -> TripUpdateResolver {
        TripUpdateResolver(options: .init(timeZone: timeZone, idPrefix: prefix))
    }

    static func resolve(
        _ update: TripUpdate, _ schedules: TripScheduleIndex = standard, now: Int64 = now
    ) -> TripResolution {
        var resolver = resolver()
        return resolver.resolve(update, schedules: schedules, now: now)
    }
}

extension ResolvedTrip {
    var arrivalDelays: [Int32?] { stops.map(\.arrivalDelay) }
    var departureDelays: [Int32?] { stops.map(\.departureDelay) }
    var statuses: [LiveStopStatus] { stops.map(\.status) }
}
