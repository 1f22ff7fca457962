import Foundation
import Testing
import TransitModel

@testable import TransitStore

/// Boards over `QueryTestFeed`. Sydney is UTC+11 (AEDT) from 2025-10-05 to 2026-04-05, else UTC+10.
@Suite struct QueryDeparturesTests {
    // Monday 2025-10-06: the service day's reference (local midnight) is 2025-10-05 13:00 UTC.
    let mondayMidnight = utc(2025, 10, 5, 13)

    func board(_ stop: String, at: Int64, _ direction: BoardDirection = .future, limit: Int = 20) throws
        -> DepartureBoard
    {
        try QueryTestFeed.store().departures(stopId: stop, at: at, direction: direction, limit: limit)
    }

    func summary(_ b: DepartureBoard) -> [String] {
        b.departures.map { "\($0.tripId)@\($0.stopId) \($0.serviceDate) \($0.scheduledSecs)" }
    }

    @Test func weekdayBoardAtAPlatform() throws {
        let b = try board("P1", at: mondayMidnight + 7 * 3600)
        #expect(b.departures.count == 1)
        let d = try #require(b.departures.first)
        #expect(d.tripId == "T1_0800")
        #expect(d.serviceDate == 20251006)
        #expect(d.scheduledSecs == 8 * 3600)
        #expect(d.scheduledUnix == utc(2025, 10, 5, 21))
        #expect(d.stopId == "P1" && d.platform == "1" && d.stopSequence == 1 && d.stopIndex == 0)
        #expect(d.route.shortName == "T1" && d.route.mode == "train" && d.route.color == "#F99D1C")
        #expect(d.headsign == "Hornsby")
        #expect(d.wheelchairAccessible == 1 && d.directionId == 0)
        // The trip's start names its instance completely; only a frequency instance's start is part of the key.
        #expect(d.startTime == "08:00:00" && !d.frequencyBased && d.instanceStartTime == nil)
        #expect(b.timezone == "Australia/Sydney")
        #expect(!b.hasMoreFuture)  // Tuesday's 08:00 is more than 24 h ahead
    }

    @Test func stationBoardIncludesItsPlatforms() throws {
        let b = try board("STA", at: mondayMidnight + 7 * 3600)
        #expect(summary(b) == ["T1_0800@P1 20251006 28800", "T2_LATE@P2 20251006 90600"])
        #expect(b.departures[1].scheduledUnix == utc(2025, 10, 6, 14, 10))  // Tuesday 01:10 AEDT
        #expect(b.departures[1].platform == "2")
    }

    @Test func calendarDatesRemoveAndAdd() throws {
        // Thursday 2025-12-25: WK removed, HOL (calendar_dates only) added.
        let christmas = try board("P1", at: utc(2025, 12, 24, 20))  // 07:00 AEDT
        #expect(summary(christmas) == ["T1_HOL@P1 20251225 32400"])
        // Saturday 2025-10-11: WK added; both platforms depart at 08:00, told apart by a stable order.
        let saturday = try board("STA", at: utc(2025, 10, 10, 20))
        let firstTwo = Set(saturday.departures.prefix(2).map(\.tripId))
        #expect(firstTwo == ["T1_0800", "SAT_T1"])
        #expect(saturday.departures[0].scheduledUnix == saturday.departures[1].scheduledUnix)
        #expect(saturday.departures.last?.tripId == "T2_LATE")
        #expect(saturday.departures.last?.serviceDate == 20251011)
        // An ordinary Saturday has no WK trips.
        let plainSaturday = try board("P1", at: utc(2025, 10, 17, 20))
        #expect(plainSaturday.departures.isEmpty)
    }

    @Test func tripsPastMidnightAppearOnTheNextWallClockDay() throws {
        // Tuesday 00:30: Monday's 25:10:00 trip leaves at 01:10.
        let tuesday = try board("P2", at: utc(2025, 10, 6, 13, 30))
        #expect(summary(tuesday) == ["T2_LATE@P2 20251006 90600"])
        #expect(tuesday.departures[0].scheduledUnix == utc(2025, 10, 6, 14, 10))
        // Monday 00:30: Sunday has no WK service, and Monday's own run is beyond 24 h.
        let monday = try board("P2", at: utc(2025, 10, 5, 13, 30))
        #expect(monday.departures.isEmpty)
        #expect(monday.laterCursor != nil && monday.earlierCursor != nil)
        // Saturday 00:30 (AEDT): Friday's run.
        let saturday = try board("P2", at: utc(2025, 10, 10, 13, 30))
        #expect(saturday.departures.first?.serviceDate == 20251010)
    }

    @Test func sydneyDaylightSavingStart() throws {
        // 2025-10-05: 02:00 AEST → 03:00 AEDT. Reference = 2025-10-04 13:00 UTC (23:00 AEST on the 4th).
        // From 23:00 AEST on Saturday the 4th, the 5th's trips are already on the board.
        let b = try board("P1", at: utc(2025, 10, 4, 13))
        #expect(summary(b) == ["DST_EARLY@P1 20251005 5400", "DST_LATE@P1 20251005 28800"])
        #expect(b.departures[0].scheduledUnix == utc(2025, 10, 4, 14, 30))  // 00:30 AEST on the wall clock
        #expect(b.departures[1].scheduledUnix == utc(2025, 10, 4, 21))  // 08:00 AEDT
    }

    @Test func sydneyDaylightSavingEnd() throws {
        // 2026-04-05: 03:00 AEDT → 02:00 AEST. Reference = 2026-04-04 14:00 UTC (01:00 AEDT on the 5th).
        let b = try board("P1", at: utc(2026, 4, 4, 13))
        #expect(summary(b) == ["DST_EARLY@P1 20260405 5400", "DST_LATE@P1 20260405 28800"])
        #expect(b.departures[0].scheduledUnix == utc(2026, 4, 4, 15, 30))  // 02:30 AEDT
        #expect(b.departures[1].scheduledUnix == utc(2026, 4, 4, 22))  // 08:00 AEST
    }

    @Test func newYorkDaylightSavingAndItsOwnTimezone() throws {
        // 2026-03-08: 02:00 EST → 03:00 EDT. Reference = 04:00 UTC (23:00 EST on the 7th).
        let spring = try board("NY1", at: utc(2026, 3, 8, 4))
        #expect(summary(spring) == ["NY_EARLY@NY1 20260308 3600", "NY_9@NY1 20260308 32400"])
        #expect(spring.departures[0].scheduledUnix == utc(2026, 3, 8, 5))  // 00:00 EST
        #expect(spring.departures[1].scheduledUnix == utc(2026, 3, 8, 13))  // 09:00 EDT
        #expect(spring.timezone == "America/New_York")
        // 2025-11-02: 02:00 EDT → 01:00 EST. Reference = 05:00 UTC (01:00 EDT).
        let autumn = try board("NY1", at: utc(2025, 11, 2, 4))
        #expect(autumn.departures.map(\.scheduledUnix) == [utc(2025, 11, 2, 6), utc(2025, 11, 2, 14)])
        // Weekday 24:30:00 lands at 00:30 EDT on the next day.
        let late = try board("NY1", at: utc(2025, 10, 7, 4))
        #expect(summary(late) == ["NY_LATE@NY1 20251006 88200"])
        #expect(late.departures[0].scheduledUnix == utc(2025, 10, 7, 4, 30))
    }

    @Test func frequencyTripsAreExpandedWithTheirStartTimes() throws {
        let b = try board("S2", at: mondayMidnight + 6 * 3600)
        let freq = b.departures.filter { $0.tripId == "FREQ" }
        #expect(
            freq.map(\.startTime) == [
                "06:00:00", "06:10:00", "06:20:00", "06:30:00", "06:40:00", "06:50:00",
                "07:00:00", "07:20:00", "07:40:00",
            ])
        // Seven minutes into the trip at Town Hall.
        let minutesAfterSix: [Int32] = [7, 17, 27, 37, 47, 57, 67, 87, 107]
        let expectedSecs = minutesAfterSix.map { 21_600 + $0 * 60 }
        #expect(freq.map(\.scheduledSecs) == expectedSecs)
        #expect(freq.first?.scheduledUnix == mondayMidnight + 6 * 3600 + 7 * 60)
        #expect(freq.first?.route.mode == "metro")
        // The rest: T1 with its stop headsign, the 333; PU1 (no pickup) and T2_LATE (last stop) never.
        let others = b.departures.filter { $0.tripId != "FREQ" }
        #expect(others.map(\.tripId) == ["T1_0800", "BUS333"])
        #expect(others.first?.headsign == "Via Museum")
        // Their own first departures (T1_0800 from P1, the 333 from here), not part of their keys.
        #expect(others.map(\.startTime) == ["08:00:00", "12:00:00"])
        #expect(others.allSatisfy { !$0.frequencyBased } && freq.allSatisfy(\.frequencyBased))
        // Ascending overall.
        #expect(b.departures.map(\.scheduledUnix) == b.departures.map(\.scheduledUnix).sorted())
    }

    @Test func noDepartureWithoutPickupOrAtTheLastStop() throws {
        let museum = try board("S3", at: mondayMidnight + 6 * 3600)
        #expect(museum.departures.map(\.tripId) == ["PU1", "SCHOOL"])
        let kingsCross = try board("S4", at: mondayMidnight + 6 * 3600)
        #expect(Set(kingsCross.departures.map(\.tripId)) == ["FREQ"])
    }

    @Test func aLoopVisitingAStopTwiceGivesTwoDepartures() throws {
        let l1 = try board("L1", at: mondayMidnight + 9 * 3600)
        #expect(l1.departures.map(\.tripId) == ["LOOP", "LOOP"])
        #expect(l1.departures.map(\.stopSequence) == [1, 4])
        #expect(l1.departures.map(\.stopIndex) == [0, 3])
        #expect(l1.departures.map(\.scheduledSecs) == [36000, 36900])
        let l2 = try board("L2", at: mondayMidnight + 9 * 3600)
        #expect(l2.departures.map(\.stopSequence) == [2])  // its second visit is the last stop
    }

    @Test func pastBoardIsAscendingAndEndsBeforeAt() throws {
        let b = try board("S2", at: mondayMidnight + 9 * 3600, .past, limit: 3)
        let expected: [Int32] = [26_820, 28_020, 29_100]  // 07:27, 07:47, 08:05
        #expect(b.departures.map(\.scheduledSecs) == expected)
        #expect(b.hasMorePast)
        #expect(b.hasMoreFuture)  // BUS333 at noon
        // Exactly at a departure: future includes it, past does not.
        let at = mondayMidnight + 8 * 3600 + 5 * 60
        #expect(try board("S2", at: at, limit: 1).departures.first?.tripId == "T1_0800")
        #expect(try board("S2", at: at, .past, limit: 1).departures.first?.tripId == "FREQ")
    }

    @Test func pagingForwardThenBackGivesTheSameRows() throws {
        let store = try QueryTestFeed.store()
        let at = mondayMidnight + 5 * 3600
        // Monday's 11 departures (within 24 h of 05:00), then Tuesday's.
        let all = try store.departures(stopId: "S2", at: at, limit: 100).departures
        #expect(all.count == 11)
        func ids(_ ds: [Departure]) -> [String] {
            ds.map { "\($0.tripId)|\($0.scheduledUnix)|\($0.stopIndex)|\($0.startTime ?? "")" }
        }

        var pages: [DepartureBoard] = [try store.departures(stopId: "S2", at: at, limit: 3)]
        #expect(!pages[0].hasMorePast)
        for _ in 1..<4 {
            #expect(pages.last!.hasMoreFuture)
            pages.append(try store.departures(stopId: "S2", at: 0, limit: 3, cursor: pages.last!.laterCursor))
        }
        let forward = pages.flatMap(\.departures)
        #expect(forward.count == 12)
        #expect(ids(Array(forward.prefix(11))) == ids(all))
        // Each page searches 24 h from where the previous ended: the 12th row is Tuesday's first.
        #expect(
            forward[11].tripId == "FREQ" && forward[11].serviceDate == 20251007 && forward[11].startTime == "06:00:00")

        // Back from the last page: the same pages, in reverse, and nothing before the first.
        var back: [DepartureBoard] = [pages.last!]
        while back.last!.hasMorePast {
            back.append(try store.departures(stopId: "S2", at: 0, limit: 3, cursor: back.last!.earlierCursor))
            if back.count > 6 { break }
        }
        #expect(back.count == 4)
        #expect(ids(back.reversed().flatMap(\.departures)) == ids(forward))
        #expect(ids(back[1].departures) == ids(pages[2].departures))
        #expect(back[1].direction == .past)
    }

    @Test func emptyPagesKeepUsefulCursors() throws {
        let store = try QueryTestFeed.store()
        // Saturday 2025-10-18 09:00 at P1: nothing within 24 h.
        let empty = try store.departures(stopId: "P1", at: utc(2025, 10, 17, 22), limit: 5)
        #expect(empty.departures.isEmpty && !empty.hasMoreFuture)
        // Its later cursor continues from Sunday 09:00 and finds Monday's 08:00 train.
        let next = try store.departures(stopId: "P1", at: 0, limit: 5, cursor: empty.laterCursor)
        #expect(next.departures.map(\.tripId) == ["T1_0800"])
        #expect(next.departures.first?.serviceDate == 20251020)
        // Going back from there finds nothing in the 24 h before it.
        let previous = try store.departures(stopId: "P1", at: 0, limit: 5, cursor: next.earlierCursor)
        #expect(previous.departures.isEmpty && !next.hasMorePast)
    }

    @Test func tiesOnTheSameSecondPageWithoutLoss() throws {
        // Saturday 2025-10-11 at the station: T1_0800 and SAT_T1 both at 08:00; page one row at a time.
        let store = try QueryTestFeed.store()
        let first = try store.departures(stopId: "STA", at: utc(2025, 10, 10, 20), limit: 1)
        let second = try store.departures(stopId: "STA", at: 0, limit: 1, cursor: first.laterCursor)
        #expect(Set([first.departures[0].tripId, second.departures[0].tripId]) == ["T1_0800", "SAT_T1"])
        let backAgain = try store.departures(stopId: "STA", at: 0, limit: 1, cursor: second.earlierCursor)
        #expect(backAgain.departures.map(\.tripId) == first.departures.map(\.tripId))
    }

    @Test func badArguments() throws {
        let store = try QueryTestFeed.store()
        #expect(throws: StoreError.notFound("stop NOPE")) { try store.departures(stopId: "NOPE", at: 0, limit: 5) }
        for limit in [0, -1, StaticRequestLimits.maxLimit + 1] {
            #expect {
                try store.departures(stopId: "S2", at: 0, limit: limit)
            } throws: { error in
                if case .invalidArgument = error as? StoreError { return true } else { return false }
            }
        }
        for at in [Int64.max, Int64.min] {
            #expect {
                try store.departures(stopId: "S2", at: at, limit: 5)
            } throws: { error in
                if case .invalidArgument = error as? StoreError { return true } else { return false }
            }
        }
        let hugeCursor = BoardCursor(direction: .future, position: .before(.timeOnly(Int64.max - 5))).encode(
            databaseTag: "x")
        for cursor in ["garbage", "!!!", String(repeating: "A", count: 400), "MXxMfHh8eHx4fGF8dA", hugeCursor] {
            #expect {
                try store.departures(stopId: "S2", at: 0, limit: 5, cursor: cursor)
            } throws: { error in
                if case .invalidArgument = error as? StoreError { return true } else { return false }
            }
        }
    }
}

/// Filtered boards at Town Hall (S2) on Monday 2025-10-06 from 06:00: the FREQ metro every 10 min 06:07–06:57
/// and at 07:07, 07:27, 07:47; T1_0800 (train, direction 0) at 08:05; BUS333 (bus) at 12:00. PU1 offers no
/// pickup there and T2_LATE ends there (direction 1: no departure).
@Suite struct QueryDepartureFilterTests {
    let six = utc(2025, 10, 5, 19)

    func trips(_ b: DepartureBoard) -> [String] { b.departures.map(\.tripId) }
    func isInvalid(_ error: any Error) -> Bool {
        if case .invalidArgument = error as? StoreError { return true } else { return false }
    }

    func board(
        limit: Int = 20, route: String? = nil, direction: Int? = nil, mode: String? = nil, cursor: String? = nil,
        at: Int64? = nil
    ) throws -> DepartureBoard {
        try QueryTestFeed.store().departures(
            stopId: "S2", at: at ?? six, limit: limit, cursor: cursor, routeId: route, directionId: direction,
            mode: mode)
    }

    @Test func aFilteredBoardStillFillsItsLimit() throws {
        #expect(trips(try board(limit: 1)) == ["FREQ"])
        let train = try board(limit: 1, route: "R_T1")
        #expect(trips(train) == ["T1_0800"] && !train.hasMoreFuture)
        #expect(trips(try board(limit: 2, mode: "bus")) == ["BUS333"])
        #expect(trips(try board(mode: "metro")) == Array(repeating: "FREQ", count: 9))
        #expect(trips(try board(limit: 3, route: "R_M1", mode: "metro")).count == 3)
        #expect(try board(route: "R_M1", mode: "bus").departures.isEmpty)
        #expect(trips(try board(direction: 0)) == Array(repeating: "FREQ", count: 9) + ["T1_0800", "BUS333"])
        #expect(try board(direction: 1).departures.isEmpty)
    }

    @Test func cursorsPageTheFilteredBoard() throws {
        let first = try board(limit: 4, route: "R_M1")
        #expect(first.departures.map(\.scheduledSecs) == [22020, 22620, 23220, 23820])
        let second = try board(limit: 4, route: "R_M1", cursor: first.laterCursor)
        #expect(second.departures.map(\.scheduledSecs) == [24420, 25020, 25620, 26820])
        // Monday's last run, then Tuesday's (the board reaches 24 h past the page's start).
        let third = try board(limit: 4, route: "R_M1", cursor: second.laterCursor)
        #expect(third.departures.map(\.scheduledSecs) == [28020, 22020, 22620, 23220])
        #expect(third.departures.map(\.serviceDate) == [20251006, 20251007, 20251007, 20251007])
        // Back from the third page: the second page's rows again.
        let back = try board(limit: 4, route: "R_M1", cursor: third.earlierCursor)
        #expect(back.departures.map(\.scheduledSecs) == second.departures.map(\.scheduledSecs))
        // The same cursor with other filters: the train after 07:27.
        let train = try board(limit: 1, mode: "train", cursor: second.laterCursor)
        #expect(trips(train) == ["T1_0800"])
    }

    @Test func badFilters() throws {
        #expect { try board(route: "NOPE") } throws: {
            guard case .notFound(let message) = $0 as? StoreError else { return false }
            return message.contains("route NOPE")
        }
        #expect { try board(mode: "spaceship") } throws: { isInvalid($0) }
        #expect { try board(direction: 2) } throws: { isInvalid($0) }
    }
}
