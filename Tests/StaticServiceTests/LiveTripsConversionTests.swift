import JourneyPlanner
import Testing
import TransitCore
import TransitModel

@testable import StaticService

/// The realtime service's trip instances as the planner's live trips (`LiveTripsConversion`), and the planner
/// searching them: what each relationship becomes, predicted times, stale sources, frequency instances.
@Suite struct LiveTripsConversionTests {
    static let date = GTFSDate(yyyymmdd: 20_250_312)!
    static let day0: Int64 = 1_741_698_000  // the service day's reference instant (noon minus 12 h)

    /// Stops A, B, C (indexes 0–2; D unknown to the database). Trip "T" (bus) A 08:00 → B 08:10 → C 08:20;
    /// trip "F" (tram) A → C every 30 min 08:00–09:00, 10 min long.
    static func conversion() -> LiveTripsConversion {
        var services = ServiceSet(capacity: 1)
        services.insert(0)
        let source = TimetableSource(
            stops: [
                .init(lat: -33.87, lon: 151.20), .init(lat: -33.88, lon: 151.21), .init(lat: -33.89, lon: 151.22),
            ],
            trips: [
                .init(
                    service: 0, mode: .bus,
                    stopTimes: [
                        .init(stop: 0, arrival: 28_800, departure: 28_800),
                        .init(stop: 1, arrival: 29_400, departure: 29_400),
                        .init(stop: 2, arrival: 30_000, departure: 30_000),
                    ]),
                .init(
                    service: 0, mode: .tram,
                    stopTimes: [
                        .init(stop: 0, arrival: 28_800, departure: 28_800),
                        .init(stop: 2, arrival: 29_400, departure: 29_400),
                    ],
                    frequencies: [FrequencyPeriod(start: 28_800, end: 32_400, headway: 1800, isExact: true)]),
            ],
            transfers: [], days: [.init(date: date, referenceUnix: day0, services: services)])
        let timetable = Timetable(source)
        return LiveTripsConversion(
            timetable: timetable, tripIndex: ["T": 0, "F": 1], stopIndex: ["A": 0, "B": 1, "C": 2],
            tripModes: [.bus, .tram], routeModes: ["R-TRAM": .tram])
    }

    static func unix(_ secs: Int) -> Int64 { day0 + Int64(secs) }

    static func stop(_ id: String, _ seq: UInt32, scheduled secs: Int, predicted: Int? = nil, skipped: Bool = false)
        -> LiveStop
    {
        LiveStop(
            stopId: id, stopSequence: seq, scheduledArrival: unix(secs), scheduledDeparture: unix(secs),
            predictedArrival: predicted.map(unix), predictedDeparture: predicted.map(unix),
            status: skipped ? .skipped : predicted == nil ? .noPrediction : .predicted)
    }

    static func key(_ trip: String, start: Int32? = nil) -> TripInstanceKey {
        TripInstanceKey(tripId: trip, serviceDate: 20_250_312, startSecs: start)
    }

    @Test func aDelayedTripRunsAtItsPredictedTimesMadeNonDecreasing() throws {
        let trip = LiveTrip(
            instance: Self.key("T"), relationship: .scheduled,
            stops: [
                Self.stop("A", 1, scheduled: 28_800),
                // A prediction at B earlier than the departure from A (bad data): not before it.
                Self.stop("B", 2, scheduled: 29_400, predicted: 28_700),
                Self.stop("C", 3, scheduled: 30_000, predicted: 30_300),
            ], source: "tu")
        let live = Self.conversion().convert([trip.instance: trip], staleSources: [])
        let run = RunKey(trip: 0, date: Self.date)
        guard case .times(let times) = try #require(live.runs[run]) else {
            Issue.record("not times: \(String(describing: live.runs[run]))")
            return
        }
        #expect(times.map(\.departure) == [Self.unix(28_800), Self.unix(28_800), Self.unix(30_300)])
        #expect(times.allSatisfy { !$0.skipped })
    }

    @Test func cancelledSkippedStaleAndUnknownTrips() throws {
        let cancelled = LiveTrip(instance: Self.key("T"), relationship: .canceled, source: "tu")
        #expect(
            Self.conversion().convert([cancelled.instance: cancelled], staleSources: []).runs[
                RunKey(trip: 0, date: Self.date)] == .cancelled)

        let skipping = LiveTrip(
            instance: Self.key("T"), relationship: .scheduled,
            stops: [
                Self.stop("A", 1, scheduled: 28_800), Self.stop("B", 2, scheduled: 29_400, skipped: true),
                Self.stop("C", 3, scheduled: 30_000),
            ], source: "tu")
        let live = Self.conversion().convert([skipping.instance: skipping], staleSources: [])
        guard case .times(let times) = live.runs[RunKey(trip: 0, date: Self.date)] else {
            Issue.record("no times for the skipping trip")
            return
        }
        #expect(times.map(\.skipped) == [false, true, false])

        // A source counted stale: its trips stay scheduled.
        #expect(Self.conversion().convert([cancelled.instance: cancelled], staleSources: ["tu"]).runs.isEmpty)
        // A trip the timetable does not have (another feed's, a new database's) is not laid over.
        let unknown = LiveTrip(instance: Self.key("X"), relationship: .canceled, source: "tu")
        #expect(Self.conversion().convert([unknown.instance: unknown], staleSources: []).runs.isEmpty)
    }

    @Test func frequencyInstancesByStartAndScheduledTripsWithAStart() throws {
        let conversion = Self.conversion()
        // The 08:30 instance of F.
        let f = LiveTrip(instance: Self.key("F", start: 30_600), relationship: .canceled, source: "tu")
        #expect(
            conversion.convert([f.instance: f], staleSources: []).runs == [
                RunKey(trip: 1, date: Self.date, start: 30_600): .cancelled
            ])
        // T is not frequency-based: a start given with it still names its one run.
        let t = LiveTrip(instance: Self.key("T", start: 28_800), relationship: .canceled, source: "tu")
        #expect(
            conversion.convert([t.instance: t], staleSources: []).runs == [RunKey(trip: 0, date: Self.date): .cancelled]
        )
    }

    @Test func addedAndDetouredTripsRunOverTheirKnownServedStops() throws {
        let added = LiveTrip(
            instance: Self.key("NEW1"), relationship: .added, routeId: "R-TRAM",
            stops: [
                Self.stop("A", 1, scheduled: 36_000, predicted: 36_060), Self.stop("D", 2, scheduled: 36_300),
                Self.stop("C", 3, scheduled: 36_600),
            ], source: "tu")
        let detoured = LiveTrip(
            instance: Self.key("T"), relationship: .scheduled,
            stops: [Self.stop("A", 1, scheduled: 28_800), Self.stop("C", 2, scheduled: 30_000, predicted: 30_120)],
            source: "tu", modificationsId: "detour-1")
        let live = Self.conversion().convert(
            [added.instance: added, detoured.instance: detoured], staleSources: [])
        let new = try #require(live.added["NEW1"])
        #expect(new.stops == [0, 2] && new.mode == .tram, "D is not in the database: left out")
        #expect(new.departures == [Self.unix(36_060), Self.unix(36_600)])
        #expect(live.runs[RunKey(trip: 0, date: Self.date)] == .cancelled, "the detoured run leaves its pattern")
        let detour = try #require(live.added["T"])
        #expect(detour.stops == [0, 2] && detour.mode == .bus && detour.arrivals.last == Self.unix(30_120))
    }

    /// The planner searches the overlay: the cancelled run is not found, the added trip is.
    @Test func thePlannerSearchesTheOverlay() throws {
        let conversion = Self.conversion()
        let cancelled = LiveTrip(instance: Self.key("T"), relationship: .canceled, source: "tu")
        let (timetable, problems) = conversion.timetable.applying(
            conversion.convert([cancelled.instance: cancelled], staleSources: []))
        #expect(problems.isEmpty)
        var query = PlanQuery(from: .stops([0]), to: .stops([1]), time: .departAt(Self.unix(28_000)))
        query.maxTransfers = 0
        #expect(try JourneyPlanner.plan(query, on: conversion.timetable).journeys.count == 1)
        #expect(try JourneyPlanner.plan(query, on: timetable).journeys.isEmpty, "T is the only trip to B")
    }
}
