import Foundation
import Testing
import TransitModel

@testable import TransitStore

/// Departure boards of the `ny` feed on ordinary EDT days (UTC-4) in June 2026; 2026-06-10 is a Wednesday.
@Suite struct AcceptanceBoardTests {
    func db() throws -> AcceptanceDB { try AcceptanceFeeds.db() }

    @Test func noPickupAndLastStopOfferNoDeparture() throws {
        // PUT: A (pickup_type 1) → B → H (last stop). Only B lists it.
        #expect(try db().board("A", at: utc(2026, 6, 10, 12), limit: 5).departures.isEmpty)
        #expect(try db().board("H", at: utc(2026, 6, 10, 12), limit: 5).departures.isEmpty)
        let b = try db().board("B", at: utc(2026, 6, 10, 12), limit: 50).departures.filter { $0.tripId == "PUT" }
        #expect(b.map(\.scheduledSecs) == [secs(14, 10)])
        #expect(b.map(\.stopSequence) == [2])
    }

    @Test func loopVisitingAStopTwiceGivesTwoDepartures() throws {
        let b = try db().board("L1", at: utc(2026, 6, 10, 18), limit: 2)  // 14:00 EDT
        #expect(b.departures.map(\.tripId) == ["LOOPT", "LOOPT"])
        #expect(b.departures.map(\.stopSequence) == [10, 30])  // stop_sequence as given, not a position
        #expect(b.departures.map(\.stopIndex) == [0, 2])
        #expect(b.departures.map(\.scheduledUnix) == [utc(2026, 6, 10, 19), utc(2026, 6, 10, 19, 10)])
        #expect(try db().board("L3", at: utc(2026, 6, 10, 18), limit: 2).departures.isEmpty)  // the loop's end
    }

    @Test func stationBoardIncludesItsPlatforms() throws {
        let station = try db().board("PENN", at: utc(2026, 6, 10, 10), limit: 2)  // 06:00 EDT
        #expect(station.departures.map { "\($0.tripId)@\($0.stopId)" } == ["E0800@PENN1", "P2T@PENN2"])
        #expect(station.departures.map(\.platform) == ["1", "2"])
        let track2 = try db().board("PENN2", at: utc(2026, 6, 10, 10), limit: 2)
        #expect(track2.departures.map { "\($0.tripId)@\($0.stopId)" } == ["P2T@PENN2"])  // only its own
    }

    @Test func pastDirectionListsTheDeparturesBeforeAtAscending() throws {
        let b = try db().board("PENN", at: utc(2026, 6, 10, 14), .past, limit: 2)  // 10:00 EDT
        #expect(b.departures.map(\.tripId) == ["E0800", "P2T"], "\(lines(b))")
        #expect(b.direction == .past)
        // Four back: 06-09's 25:30 and 06-10's 01:30 (both 05:30Z, in a stable order) come first.
        let four = try db().board("PENN", at: utc(2026, 6, 10, 14), .past, limit: 4)
        #expect(
            Set(four.departures.prefix(2).map { "\($0.tripId) \($0.serviceDate)" })
                == ["L2530 20260609", "E0130 20260610"])
        #expect(four.departures.prefix(2).allSatisfy { $0.scheduledUnix == utc(2026, 6, 10, 5, 30) })
        #expect(four.departures.map(\.tripId).suffix(2) == ["E0800", "P2T"])
        // A departure exactly at `at` belongs to the future, not the past.
        let before = try db().board("PENN2", at: utc(2026, 6, 10, 13, 30), .past, limit: 1)
        #expect(ids(before) == ["P2T 20260609"])
        let from = try db().board("PENN2", at: utc(2026, 6, 10, 13, 30), limit: 1)
        #expect(ids(from) == ["P2T 20260610"])
    }

    /// MID around midnight 06-10/06-11 (EDT): 06-10's 23:30, 23:45, 24:10, 24:20 interleave with 06-11's 00:15
    /// and 00:30.
    let midnightOrder = [
        "M2330 20260610", "M2345 20260610", "M2410 20260610", "M0015 20260611",
        "M2420 20260610", "M0030 20260611",
    ]

    func ids(_ b: DepartureBoard) -> [String] { b.departures.map { "\($0.tripId) \($0.serviceDate)" } }

    @Test func pagingForwardThenBackAcrossMidnight() throws {
        let db = try db()
        let start = utc(2026, 6, 11, 3)  // 23:00 EDT on 06-10
        let whole = try db.board("MID", at: start, limit: 6)
        #expect(ids(whole) == midnightOrder)
        #expect(
            whole.departures.map(\.scheduledUnix) == [
                utc(2026, 6, 11, 3, 30), utc(2026, 6, 11, 3, 45),
                utc(2026, 6, 11, 4, 10), utc(2026, 6, 11, 4, 15),
                utc(2026, 6, 11, 4, 20), utc(2026, 6, 11, 4, 30),
            ])
        let p1 = try db.board("MID", at: start, limit: 2)
        let p2 = try db.board("MID", at: 0, limit: 2, cursor: p1.laterCursor)
        let p3 = try db.board("MID", at: 0, limit: 2, cursor: p2.laterCursor)
        #expect(ids(p1) + ids(p2) + ids(p3) == midnightOrder)
        #expect(p1.hasMoreFuture && p2.hasMoreFuture && p2.hasMorePast && p3.hasMorePast)
        // Back from page 3: page 2, then page 1, then what lay before page 1 (06-09's 24:20 at 06-10 04:20Z
        // and 06-10's own 00:30).
        let b2 = try db.board("MID", at: 0, limit: 2, cursor: p3.earlierCursor)
        #expect(ids(b2) == ids(p2))
        #expect(b2.direction == .past)
        let b1 = try db.board("MID", at: 0, limit: 2, cursor: b2.earlierCursor)
        #expect(ids(b1) == ids(p1))
        let b0 = try db.board("MID", at: 0, limit: 2, cursor: b1.earlierCursor)
        #expect(ids(b0) == ["M2420 20260609", "M0030 20260610"])
        // And forward again from there: page 1.
        let f1 = try db.board("MID", at: 0, limit: 2, cursor: b0.laterCursor)
        #expect(ids(f1) == ids(p1))
    }

    @Test func pagingBackwardsThenForwardAcrossMidnight() throws {
        let db = try db()
        let p1 = try db.board("MID", at: utc(2026, 6, 11, 5), .past, limit: 2)  // 01:00 EDT on 06-11
        let p2 = try db.board("MID", at: 0, limit: 2, cursor: p1.earlierCursor)
        let p3 = try db.board("MID", at: 0, limit: 2, cursor: p2.earlierCursor)
        #expect(ids(p3) + ids(p2) + ids(p1) == midnightOrder)
        let f2 = try db.board("MID", at: 0, limit: 2, cursor: p3.laterCursor)
        #expect(ids(f2) == ids(p2))
        let f1 = try db.board("MID", at: 0, limit: 2, cursor: f2.laterCursor)
        #expect(ids(f1) == ids(p1))
    }

    @Test func limitIsFilledFromUpTo24HoursAhead() throws {
        // SPW runs on weekdays at 06:00 (10:00Z). Thursday 07:00: the only departure within 24 h is Friday's.
        let thursday = try db().board("SP", at: utc(2026, 6, 11, 11), limit: 3)
        #expect(ids(thursday) == ["SPW 20260612"])
        #expect(!thursday.hasMoreFuture)
        // Sunday 07:00: Monday 06:00 is 23 h ahead, still found.
        let sunday = try db().board("SP", at: utc(2026, 6, 14, 11), limit: 3)
        #expect(ids(sunday) == ["SPW 20260615"])
        // Friday 07:00: nothing until Monday, beyond the 24 h horizon; the later cursor moves on past it.
        let friday = try db().board("SP", at: utc(2026, 6, 12, 11), limit: 3)
        #expect(friday.departures.isEmpty)
        let next = try db().board("SP", at: 0, limit: 3, cursor: friday.laterCursor)
        #expect(next.departures.isEmpty)  // Saturday 07:00 → Sunday 07:00: nothing either
        let monday = try db().board("SP", at: 0, limit: 3, cursor: next.laterCursor)
        #expect(ids(monday) == ["SPW 20260615"])
    }

    @Test func unknownStopIsNotFound() throws {
        #expect(throws: StoreError.notFound("stop NOPE")) {
            try db().board("NOPE", at: utc(2026, 6, 10, 12), limit: 1)
        }
    }
}
