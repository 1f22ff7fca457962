import Foundation
import Testing
import TransitModel

@testable import TransitStore

/// frequencies.txt per the reference: start_time is the "time at which the first vehicle departs from the
/// first stop of the trip", end_time the time at which the headway changes or service ends "at the first
/// stop" (exclusive: every 20 min from 08:00 to 09:00 departs 08:00, 08:20, 08:40); the template trip's
/// stop_times only give the times between stops. exact_times 1 is a schedule, 0 (or empty) a headway.
///
/// FX's template arrives at F1 08:00:00 and departs 08:02:00, F2 08:10:00, F3 08:20:00: an instance starting at
/// S departs F1 at S (so arrives there at S − 2 min), departs F2 at S + 8 min and reaches F3 at S + 18 min.
/// 2026-06-10 is an EDT day (UTC-4): 08:00:00 = 12:00Z.
@Suite struct AcceptanceFrequencyTests {
    func db() throws -> AcceptanceDB { try AcceptanceFeeds.db() }
    let sevenEDT = utc(2026, 6, 10, 11)

    @Test func exactTimesInstancesDepartTheFirstStopAtTheirStartTime() throws {
        let b = try db().board("F1", at: sevenEDT, limit: 4)
        #expect(b.departures.prefix(3).map(\.scheduledSecs) == [secs(8, 0), secs(8, 20), secs(8, 40)], "\(lines(b))")
        #expect(b.departures.prefix(3).map(\.startTime) == ["08:00:00", "08:20:00", "08:40:00"])
        #expect(
            b.departures.prefix(3).map(\.scheduledUnix) == [
                utc(2026, 6, 10, 12), utc(2026, 6, 10, 12, 20),
                utc(2026, 6, 10, 12, 40),
            ])
        #expect(b.departures.count == 3)
        // end_time is exclusive: after 08:50 the next departure is the following day's 08:00, not 09:00.
        let after = try db().board("F1", at: utc(2026, 6, 10, 12, 50), limit: 1)
        #expect(lines(after) == ["FX@F1 20260611 \(secs(8, 0)) \(utc(2026, 6, 11, 12))"])
    }

    @Test func laterStopsKeepTheTemplateGapsFromTheFirstDeparture() throws {
        let f2 = try db().board("F2", at: sevenEDT, limit: 3)
        #expect(f2.departures.map(\.scheduledSecs) == [secs(8, 8), secs(8, 28), secs(8, 48)], "\(lines(f2))")
        #expect(f2.departures.map(\.startTime) == ["08:00:00", "08:20:00", "08:40:00"])
        // F3 is the last stop: no departures there.
        #expect(try db().board("F3", at: sevenEDT, limit: 3).departures.isEmpty)
    }

    @Test func headwayBasedTripsAreExpandedWithTheirStartTimes() throws {
        // FH: exact_times empty (= 0), every 15 min from 06:00 to 07:00 (exclusive), G1 → G2 in 5 min.
        let g1 = try db().board("G1", at: utc(2026, 6, 10, 9, 50), limit: 5)
        #expect(g1.departures.map(\.startTime) == ["06:00:00", "06:15:00", "06:30:00", "06:45:00"], "\(lines(g1))")
        #expect(g1.departures.map(\.scheduledSecs) == [secs(6, 0), secs(6, 15), secs(6, 30), secs(6, 45)])
        #expect(g1.departures.allSatisfy { $0.serviceDate == 20260610 })
        let after = try db().board("G1", at: utc(2026, 6, 10, 10, 50), limit: 1)  // 06:50: next is tomorrow's
        #expect(after.departures.map { "\($0.startTime ?? "-") \($0.serviceDate)" } == ["06:00:00 20260611"])
        let g2 = try db().board("G2", at: utc(2026, 6, 10, 9, 50), limit: 1)
        #expect(g2.departures.isEmpty)  // last stop
    }

    @Test func tripInstanceByStartTime() throws {
        let t = try db().store.trip(id: "FX", serviceDate: 20260610, startTime: "08:20:00", at: sevenEDT)
        #expect(t.frequencyBased)
        #expect(t.startTime == "08:20:00")
        #expect(t.stops.map(\.arrivalSecs) == [secs(8, 18), secs(8, 28), secs(8, 38)])
        #expect(t.stops.map(\.departureSecs) == [secs(8, 20), secs(8, 28), secs(8, 38)])
        #expect(t.stops.first?.departureUnix == utc(2026, 6, 10, 12, 20))
    }

    @Test func startTimesThatAreNoInstance() throws {
        let store = try db().store
        // 09:00:00 is end_time (exclusive).
        #expect(throws: StoreError.self) {
            try store.trip(id: "FX", serviceDate: 20260610, startTime: "09:00:00", at: sevenEDT)
        }
        // exact_times=1 is a schedule: instances start only at 08:00, 08:20, 08:40.
        #expect(throws: StoreError.self) {
            try store.trip(id: "FX", serviceDate: 20260610, startTime: "08:10:00", at: sevenEDT)
        }
        // exact_times=0 promises only a headway: a vehicle that left at 06:07 is an instance of the window.
        let h = try store.trip(id: "FH", serviceDate: 20260610, startTime: "06:07:00", at: sevenEDT)
        #expect(h.stops.map(\.departureSecs) == [secs(6, 7), secs(6, 12)])
    }

    @Test func tripWithoutStartTimeIsTheInstanceRunningAtThatTime() throws {
        // 08:25 EDT: the 08:20 instance is between F1 (08:20) and F3 (08:38).
        let t = try db().store.trip(id: "FX", serviceDate: 20260610, at: utc(2026, 6, 10, 12, 25))
        #expect(t.startTime == "08:20:00")
        // 08:39 EDT: the 08:20 instance arrived at 08:38 and the 08:40 one has not left: both are a minute
        // away, and ties go to the later instance.
        let u = try db().store.trip(id: "FX", at: utc(2026, 6, 10, 12, 39))
        #expect(u.startTime == "08:40:00")
        #expect(u.serviceDate == 20260610)
    }

    @Test func instancesPastMidnightBelongToThePreviousServiceDay() throws {
        // From 23:45 EDT on 06-10: 06-10's 24:00 and 24:30 instances, at 06-11 04:00Z and 04:30Z.
        let b = try db().board("N1", at: utc(2026, 6, 11, 3, 45), limit: 2)
        #expect(
            lines(b) == [
                "FN@N1 20260610 \(secs(24, 0)) \(utc(2026, 6, 11, 4))",
                "FN@N1 20260610 \(secs(24, 30)) \(utc(2026, 6, 11, 4, 30))",
            ])
        #expect(b.departures.map(\.startTime) == ["24:00:00", "24:30:00"])
        // Without a date, at 00:35 EDT the running instance is 06-10's 24:30 one.
        let t = try db().store.trip(id: "FN", at: utc(2026, 6, 11, 4, 35))
        #expect(t.serviceDate == 20260610 && t.startTime == "24:30:00")
        #expect(t.stops.map(\.arrivalUnix) == [utc(2026, 6, 11, 4, 30), utc(2026, 6, 11, 4, 40)])
        // On the day DST ends, 10-31's 24:30 instance is at 00:30 EDT (04:30Z) and 11-01's 23:00 at 23:00 EST.
        let end = try db().board("N1", at: utc(2026, 11, 1, 4, 15), limit: 2)
        #expect(
            lines(end) == [
                "FN@N1 20261031 \(secs(24, 30)) \(utc(2026, 11, 1, 4, 30))",
                "FN@N1 20261101 \(secs(23, 0)) \(utc(2026, 11, 2, 4))",
            ])
    }

    @Test func pagingAndPastBoardsOverInstances() throws {
        let db = try db()
        let whole = try db.board("F2", at: sevenEDT, limit: 3)
        let p1 = try db.board("F2", at: sevenEDT, limit: 1)
        let p2 = try db.board("F2", at: 0, limit: 1, cursor: p1.laterCursor)
        let p3 = try db.board("F2", at: 0, limit: 1, cursor: p2.laterCursor)
        #expect(lines(p1) + lines(p2) + lines(p3) == lines(whole))
        let back = try db.board("F2", at: 0, limit: 2, cursor: p3.earlierCursor)
        #expect(lines(back) == lines(p1) + lines(p2))
        // Past from 08:30 EDT at F2: the 08:08 and 08:28 departures, ascending.
        let past = try db.board("F2", at: utc(2026, 6, 10, 12, 30), .past, limit: 2)
        #expect(past.departures.map(\.scheduledSecs) == [secs(8, 8), secs(8, 28)])
    }
}
