import Foundation
import Testing
import TransitModel

@testable import TransitStore

@Suite struct QueryTripTests {
    func isInvalid(_ error: any Error) -> Bool {
        if case .invalidArgument = error as? StoreError { return true } else { return false }
    }
    func isNotFound(_ error: any Error) -> Bool {
        if case .notFound = error as? StoreError { return true } else { return false }
    }

    @Test func tripOnADateWithEveryStop() throws {
        let t = try QueryTestFeed.store().trip(id: "T2_LATE", serviceDate: 20251006, at: 0)
        #expect(t.serviceDate == 20251006 && t.startTime == "25:10:00" && !t.frequencyBased)
        #expect(t.route.shortName == "T2" && t.headsign == "Parramatta" && t.directionId == 1)
        #expect(t.timezone == "Australia/Sydney" && t.wheelchairAccessible == 2)
        #expect(t.stops.map(\.stopId) == ["P2", "S2"])
        #expect(t.stops.map(\.departureSecs) == [90600, 91200])
        #expect(t.stops[0].departureUnix == utc(2025, 10, 6, 14, 10))
        #expect(t.stops[1].arrivalUnix == utc(2025, 10, 6, 14, 20))
        #expect(
            t.stops[0].platformCode == "2" && t.stops[0].parentStation == "STA"
                && t.stops[0].stopName == "Central Station Platform 2")
        #expect(t.stops[0].wheelchairBoarding == 2)
        #expect(abs(t.stops[1].lat - -33.8731) < 1e-6 && abs(t.stops[1].lon - 151.2069) < 1e-6)
    }

    @Test func platformInheritsTheStationsWheelchairBoarding() throws {
        let t = try QueryTestFeed.store().trip(id: "T1_0800", serviceDate: 20251006, at: 0)
        #expect(t.stops.map(\.stopSequence) == [1, 2, 3])
        #expect(t.stops[0].wheelchairBoarding == 1)  // P1 says 0, STA says 1
        #expect(t.stops[1].stopHeadsign == "Via Museum")
        #expect(t.stops[2].pickupType == 0)
    }

    @Test func withoutADateTheRunningInstanceWinsIncludingYesterdaysAfterMidnightRun() throws {
        let store = try QueryTestFeed.store()
        // Tuesday 01:15 AEDT: Monday's 25:10 run is under way.
        #expect(try store.trip(id: "T2_LATE", at: utc(2025, 10, 6, 14, 15)).serviceDate == 20251006)
        // Tuesday noon: Monday's run ended 10 h 40 ago, Tuesday's starts in 13 h 10.
        #expect(try store.trip(id: "T2_LATE", at: utc(2025, 10, 7, 1)).serviceDate == 20251006)
        // Tuesday 20:00: Tuesday's run (in 5 h 10) is nearer than Monday's.
        #expect(try store.trip(id: "T2_LATE", at: utc(2025, 10, 7, 9)).serviceDate == 20251007)
        // Saturday noon 2025-10-04: Friday's 08:00 (28 h ago) beats Monday's (44 h ahead).
        #expect(try store.trip(id: "T1_0800", at: utc(2025, 10, 4, 2)).serviceDate == 20251003)
    }

    @Test func frequencyTripInstances() throws {
        let store = try QueryTestFeed.store()
        let t = try store.trip(id: "FREQ", serviceDate: 20251006, startTime: "06:10:00", at: 0)
        #expect(t.frequencyBased && t.startTime == "06:10:00")
        #expect(t.stops.map(\.departureSecs) == [22200, 22620, 22920])
        #expect(t.stops[0].departureUnix == utc(2025, 10, 5, 19, 10))
        // Without a start time: the latest instance running at 06:31 started at 06:30.
        let running = try store.trip(id: "FREQ", serviceDate: 20251006, at: utc(2025, 10, 5, 19, 31))
        #expect(running.startTime == "06:30:00")
        // Without a date either: Monday 09:00 is after the last instance (07:40, ended 07:52): the next one,
        // Tuesday's first, not the finished one (a rider holding a board row's trip id wants a coming run).
        let late = try store.trip(id: "FREQ", at: utc(2025, 10, 5, 22))
        #expect(late.serviceDate == 20251007 && late.startTime == "06:00:00")
        // With the date: the nearest instance that day, as before.
        let sameDay = try store.trip(id: "FREQ", serviceDate: 20251006, at: utc(2025, 10, 5, 22))
        #expect(sameDay.startTime == "07:40:00")
        // A start outside every period.
        #expect { try store.trip(id: "FREQ", serviceDate: 20251006, startTime: "05:00:00", at: 0) } throws: {
            isNotFound($0)
        }
    }

    /// A pattern's stop rows are read once per store and shifted for every instance: each answer equals
    /// the one a store that never read the pattern gives.
    @Test func patternRowsReadOnceServeEveryInstance() throws {
        let shared = try QueryTestFeed.store()
        let asks: [(id: String, date: UInt32?, start: String?)] = [
            ("FREQ", 20251006, "06:10:00"), ("FREQ", 20251006, "07:40:00"), ("FREQ", 20251007, "06:00:00"),
            ("T2_LATE", 20251006, nil), ("T2_LATE", 20251007, nil), ("T1_0800", 20251006, nil),
        ]
        for ask in asks { _ = try shared.trip(id: ask.id, serviceDate: ask.date, startTime: ask.start, at: 0) }
        #expect(shared.tripStopTemplates.withLock { !$0.isEmpty })
        for ask in asks {
            let cold = try StaticStore(path: shared.path, connections: 1)
            #expect(cold.tripStopTemplates.withLock { $0.isEmpty })
            let expected = try cold.trip(id: ask.id, serviceDate: ask.date, startTime: ask.start, at: 0)
            #expect(try shared.trip(id: ask.id, serviceDate: ask.date, startTime: ask.start, at: 0) == expected)
        }
    }

    @Test func errors() throws {
        let store = try QueryTestFeed.store()
        #expect(throws: StoreError.notFound("trip NOPE")) { try store.trip(id: "NOPE", at: 0) }
        #expect { try store.trip(id: "T1_0800", serviceDate: 20251005, at: 0) } throws: { isNotFound($0) }  // Sunday
        #expect { try store.trip(id: "T1_0800", serviceDate: 20251305, at: 0) } throws: { isInvalid($0) }
        #expect { try store.trip(id: "FREQ", serviceDate: 20251006, startTime: "6:1", at: 0) } throws: { isInvalid($0) }
        #expect { try store.trip(id: "T1_0800", at: Int64.max) } throws: { isInvalid($0) }
        // Far from any run (the feed ends in 2030).
        #expect { try store.trip(id: "T1_0800", at: utc(2035, 1, 1, 0)) } throws: { isNotFound($0) }
    }
}
