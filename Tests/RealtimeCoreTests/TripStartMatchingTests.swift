import GTFSRealtime
import Testing
import TransitModel

@testable import RealtimeCore

/// Trip updates without trip_id, named by route_id, direction_id, start_date and start_time (the
/// GTFS-Realtime reference's alternative): the static service's matches decide.
@Suite struct TripStartMatchingTests {
    typealias F = Fixture

    /// An update without trip_id on route R1, direction 1, starting `startTime` on `day`.
    static func update(
        route: String? = "R1", direction: UInt32? = 1, date: String? = F.dayText, startTime: String? = "08:00:00",
        relationship: TripScheduleRelationship? = nil, _ stops: [StopTimeUpdate] = []
    ) -> TripUpdate {
        TripUpdate(
            trip: TripDescriptor(
                tripId: nil, routeId: route, directionId: direction, startTime: startTime,
                startDate: date, scheduleRelationship: relationship),
            stopTimeUpdates: stops)
    }

    static func descriptor(route: String = "R1", time: String = "08:00:00") -> TripStartDescriptor {
        TripStartDescriptor(routeId: route, directionId: 1, startDate: F.day, startTime: time)
    }

    /// The standard schedule (T1 at 08:00 on `day`, plus T2) with the static service's answer for the
    /// 08:00 descriptor.
    static func schedules(matching ids: [String], route: String = "R1") -> TripScheduleIndex {
        var index = F.index([F.trip(), F.trip("T2")], [F.pattern(6)])
        index.add(matches: ids, for: descriptor(route: route))
        return index
    }

    @Test func oneMatchResolvesAsThatTrip() throws {
        let update = Self.update([F.stu(seq: 20, arrivalDelay: 120)])
        let trip = try #require(F.resolve(update, Self.schedules(matching: ["T1"])).resolvedTrip)
        #expect(trip.key == TripInstanceKey(tripId: "T1", serviceDate: F.day))
        #expect(trip.staticTripId == "T1" && trip.routeId == "R1")
        #expect(trip.stops.count == 6)
        #expect(trip.stops[1].predictedArrival == F.arrival(1) + 120)
    }

    @Test func canceledAndDeletedWithoutTripIdNameTheMatch() throws {
        let canceled = try #require(
            F.resolve(Self.update(relationship: .canceled), Self.schedules(matching: ["T1"])).resolvedTrip)
        #expect(canceled.relationship == .canceled && canceled.key.tripId == "T1")
        #expect(
            F.resolve(Self.update(relationship: .deleted), Self.schedules(matching: ["T1"]))
                == .deleted(TripInstanceKey(tripId: "T1", serviceDate: F.day)))
    }

    @Test func noMatchIsAnUnknownTripNamingTheDescriptor() throws {
        let drop = try #require(F.resolve(Self.update(), Self.schedules(matching: [])).drop)
        #expect(drop.reason == .unknownTrip)
        #expect(drop.tripId == nil)
        #expect(
            drop.message.contains("route_id \"R1\"") && drop.message.contains("direction_id 1")
                && drop.message.contains("20250314") && drop.message.contains("08:00:00"))
    }

    @Test func severalMatchesAreAmbiguous() throws {
        let drop = try #require(F.resolve(Self.update(), Self.schedules(matching: ["T1", "T2"])).drop)
        #expect(drop.reason == .ambiguousInstance)
        #expect(
            drop.message.contains("2 static trips") && drop.message.contains("\"T1\"")
                && drop.message.contains("\"T2\""))
    }

    @Test func aMissingFieldIsNamed() throws {
        let cases: [(TripUpdate, String)] = [
            (Self.update(route: nil), "route_id"),
            (Self.update(direction: nil), "direction_id"),
            (Self.update(date: nil), "start_date"),
            (Self.update(startTime: ""), "start_time"),
        ]
        for (update, field) in cases {
            let drop = try #require(F.resolve(update, Self.schedules(matching: ["T1"])).drop)
            #expect(drop.reason == .unknownTrip)
            #expect(drop.message.contains("no \(field)"), "\(drop.message)")
        }
    }

    @Test func malformedDateOrTimeIsMalformed() {
        #expect(F.resolve(Self.update(date: "2025-03-14"), Self.schedules(matching: ["T1"])).drop?.reason == .malformed)
        #expect(F.resolve(Self.update(startTime: "8am"), Self.schedules(matching: ["T1"])).drop?.reason == .malformed)
    }

    /// Without an answer for the descriptor (static service not asked or down) it is not the feed's fault.
    @Test func unansweredDescriptorIsScheduleUnavailable() {
        #expect(
            F.resolve(Self.update(startTime: "09:00:00"), Self.schedules(matching: ["T1"])).drop?.reason
                == .scheduleUnavailable)
        // Matched, but the trip's schedule is not loaded.
        #expect(F.resolve(Self.update(), Self.schedules(matching: ["T9"])).drop?.reason == .scheduleUnavailable)
    }

    @Test func routeIdGetsTheSourcePrefix() throws {
        var index = TripScheduleIndex()
        index.add(F.trip("B:T1"))
        index.add(F.pattern(6))
        index.add(matches: ["B:T1"], for: Self.descriptor(route: "B:R1"))
        var resolver = F.resolver(prefix: "B:")
        let trip = try #require(resolver.resolve(Self.update(), schedules: index, now: F.now).resolvedTrip)
        #expect(trip.key.tripId == "B:T1")
        #expect(
            try TripUpdateResolver.startDescriptor(of: Self.update().trip, idPrefix: "B:")
                == Self.descriptor(route: "B:R1"))
    }

    @Test func frequencyTripInstanceIsKeyedByTheStart() throws {
        var index = TripScheduleIndex()
        index.add(
            F.trip(
                "FQ", start: 21_600,
                frequencies: [
                    FrequencyWindow(startSecs: 21_600, endSecs: 25_200, headwaySecs: 600, exactTimes: true)
                ]))
        index.add(F.pattern(6))
        index.add(matches: ["FQ"], for: Self.descriptor(time: "06:10:00"))
        let trip = try #require(F.resolve(Self.update(startTime: "06:10:00"), index).resolvedTrip)
        #expect(trip.key == TripInstanceKey(tripId: "FQ", serviceDate: F.day, startSecs: 22_200))
        #expect(trip.stops[0].scheduledDeparture == F.dayUnix + 22_200)
    }
}
