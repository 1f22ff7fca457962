import Testing
import TransitModel

@testable import TransitStore

/// Trips named by route, direction, start date and start time (GTFS-Realtime descriptors without trip_id),
/// against `QueryTestFeed`.
@Suite struct QueryTripMatchesTests {
    private func d(_ route: String, _ direction: Int, _ date: ServiceDate, _ time: String) -> TripStartDescriptor {
        TripStartDescriptor(routeId: route, directionId: direction, startDate: date, startTime: time)
    }

    @Test func scheduledTripsByFirstDeparture() throws {
        let store = try QueryTestFeed.store()
        let m = try store.tripMatches([
            d("R_T1", 0, 20251006, "08:00:00"),  // Monday: T1_0800
            d("R_T1", 0, 20251006, "08:05:00"),  // its second stop's time is not a start
            d("R_T1", 1, 20251006, "08:00:00"),  // wrong direction
            d("R_T2", 1, 20251006, "25:10:00"),  // after midnight, on the service date it belongs to
            d("R_T2", 1, 20251007, "01:10:00"),  // the same instance written as clock time: not GTFS's start_time
            d("R_T2", 0, 20251006, "25:10:00"),  // wrong direction
            d("NOPE", 0, 20251006, "08:00:00"),  // unknown route
        ])
        #expect(m == [["T1_0800"], [], [], ["T2_LATE"], [], [], []])
    }

    @Test func serviceDaysFollowCalendarDates() throws {
        let store = try QueryTestFeed.store()
        let m = try store.tripMatches([
            d("R_T1", 0, 20251225, "08:00:00"),  // Thursday, removed from WK
            d("R_T1", 0, 20251225, "09:00:00"),  // HOL, only in calendar_dates
            d("R_T1", 0, 20251224, "09:00:00"),  // HOL does not run the day before
            d("R_T1", 0, 20251004, "08:00:00"),  // Saturday: SAT_T1 only
            d("R_T1", 0, 20251011, "08:00:00"),  // Saturday with WK added: SAT_T1 and T1_0800 (ambiguous)
            d("R_T1", 0, 20251005, "08:00:00"),  // Sunday: DST_LATE (calendar_dates only)
        ])
        #expect(m == [[], ["T1_HOL"], [], ["SAT_T1"], ["SAT_T1", "T1_0800"], ["DST_LATE"]])
    }

    @Test func frequencyWindows() throws {
        let store = try QueryTestFeed.store()
        let m = try store.tripMatches([
            d("R_M1", 0, 20251006, "06:00:00"),  // exact window 06:00–07:00 every 10 min
            d("R_M1", 0, 20251006, "06:50:00"),
            d("R_M1", 0, 20251006, "06:15:00"),  // exact_times=1: not a scheduled start
            d("R_M1", 0, 20251006, "07:05:00"),  // headway-based window 07:00–08:00: any start inside
            d("R_M1", 0, 20251006, "08:00:00"),  // a headway-based window admits its end (as the resolver does)
            d("R_M1", 0, 20251006, "08:00:01"),
            d("R_M1", 0, 20251006, "05:59:59"),
            d("R_M1", 0, 20251004, "06:00:00"),  // Saturday: WK does not run
        ])
        #expect(m == [["FREQ"], ["FREQ"], [], ["FREQ"], ["FREQ"], [], [], []])
    }

    @Test func tripsWithoutDirectionMatchNone() throws {
        let store = try QueryTestFeed.store()
        // NY_LATE (weekdays 24:30) has no direction_id: a descriptor always names one.
        #expect(
            try store.tripMatches([d("NY7", 0, 20251006, "24:30:00"), d("NY7", 1, 20251006, "24:30:00")]) == [[], []])
    }

    @Test func badDescriptorsAreInvalidArguments() throws {
        let store = try QueryTestFeed.store()
        #expect(throws: StoreError.self) { try store.tripMatches([d("R_T1", 0, 20251006, "8 o'clock")]) }
        #expect(throws: StoreError.self) { try store.tripMatches([d("R_T1", 0, 20251306, "08:00:00")]) }
        #expect(try store.tripMatches([]) == [])
    }

    @Test func bulkSchedulesCarryTheMatchedTrips() throws {
        let store = try QueryTestFeed.store()
        let r = try store.tripSchedules(
            tripIds: ["T1_0800", "nope"], from: 20251006, through: 20251007,
            descriptors: [
                d("R_T1", 0, 20251006, "08:00:00"), d("R_T2", 1, 20251006, "25:10:00"),
                d("R_M1", 0, 20251006, "06:15:00"),
            ])
        #expect(r.descriptorMatches == [["T1_0800"], ["T2_LATE"], []])
        // Asked ids first, then matched ones not asked (each once); their patterns come along.
        #expect(r.trips.map(\.tripId) == ["T1_0800", "T2_LATE"])
        #expect(r.unknownTripIds == ["nope"])
        #expect(Set(r.patterns.map(\.patternId)) == Set(r.trips.map(\.patternId)))
        // Without descriptors the answer has no matches.
        #expect(
            try store.tripSchedules(tripIds: ["T1_0800"], from: 20251006, through: 20251006).descriptorMatches.isEmpty)
    }
}
