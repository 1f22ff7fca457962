import Foundation
import Testing
import TransitModel
@testable import TransitStore

@Suite struct QueryTripSchedulesTests {
    @Test func bulkSchedules() throws {
        let store = try QueryTestFeed.store()
        let r = try store.tripSchedules(tripIds: ["T1_0800", "FREQ", "LOOP", "nope", "T1_0800", "NY_LATE", "T1_HOL"],
                                        from: 20251004, through: 20251012)
        #expect(r.databaseVersion == store.databaseVersion && !r.databaseVersion.isEmpty)
        #expect(r.unknownTripIds == ["nope"])
        #expect(r.trips.map(\.tripId) == ["T1_0800", "FREQ", "LOOP", "NY_LATE", "T1_HOL"])

        let t1 = r.trips[0]
        // Weekdays of the range plus the added Saturday the 11th.
        #expect(t1.serviceDates == [20251006, 20251007, 20251008, 20251009, 20251010, 20251011])
        #expect(t1.routeId == "R_T1" && t1.routeType == 2 && t1.startSecs == 28800 && t1.frequencies.isEmpty)
        #expect(t1.timezone == "Australia/Sydney")
        #expect(r.trips[3].timezone == "America/New_York")
        #expect(r.trips[4].serviceDates.isEmpty)  // the holiday is outside the range

        let freq = r.trips[1]
        #expect(freq.frequencies == [
            FrequencyWindow(startSecs: 21600, endSecs: 25200, headwaySecs: 600, exactTimes: true),
            FrequencyWindow(startSecs: 25200, endSecs: 28800, headwaySecs: 1200, exactTimes: false),
        ])

        // Each pattern once; offsets from the trip's start.
        #expect(Set(r.patterns.map(\.patternId)).count == r.patterns.count)
        #expect(Set(r.patterns.map(\.patternId)) == Set(r.trips.map(\.patternId)))
        let loop = try #require(r.patterns.first { $0.patternId == r.trips[2].patternId })
        #expect(loop.stops.map(\.stopId) == ["L1", "L2", "L3", "L1", "L2"])
        #expect(loop.stops.map(\.stopSequence) == [1, 2, 3, 4, 5])
        #expect(loop.stops.map(\.departureOffset) == [0, 300, 600, 900, 1200])
        let freqPattern = try #require(r.patterns.first { $0.patternId == freq.patternId })
        #expect(freqPattern.stops.map(\.arrivalOffset) == [0, 420, 720])
    }

    @Test func oddIdsAndEmptyRequests() throws {
        let store = try QueryTestFeed.store()
        let odd = ["quote\"d", "back\\slash", "new\nline", "ünï", ""]
        let r = try store.tripSchedules(tripIds: odd, from: 20251006, through: 20251006)
        #expect(r.unknownTripIds == odd && r.trips.isEmpty && r.patterns.isEmpty)
        #expect(try store.tripSchedules(tripIds: [], from: 20251006, through: 20251006).trips.isEmpty)
    }

    @Test func badRanges() throws {
        let store = try QueryTestFeed.store()
        for (from, to) in [(20251010 as UInt32, 20251001 as UInt32), (20250101, 20251231), (20251301, 20251302)] {
            #expect {
                try store.tripSchedules(tripIds: ["T1_0800"], from: from, through: to)
            } throws: { error in
                if case .invalidArgument = error as? StoreError { return true } else { return false }
            }
        }
    }
}
