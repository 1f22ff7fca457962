import Foundation
import Testing
import TransitModel

@testable import TransitStore

/// A trip's `undatedRange` says for which `at` the trip asked without a date is the same instance, so the
/// gateway can answer those from one reply. Checked against the store's own choice: every `at` of a sweep lies
/// in its answer's range, both ends of the range give that instance, and just outside either end another
/// instance (or none) is chosen, except where the range was cut at its 6 days from the instance.
@Suite struct UndatedRangeTests {
    struct Instance: Hashable {
        var date: UInt32
        var start: String
    }

    /// The instance chosen for `at`, nil when none is (NOT_FOUND).
    func chosen(_ store: StaticStore, _ trip: String, _ at: Int64) throws -> (Instance, Range<Int64>?)? {
        do {
            let t = try store.trip(id: trip, at: at)
            return (Instance(date: t.serviceDate, start: t.startTime), t.undatedRange)
        } catch StoreError.notFound {
            return nil
        }
    }

    /// Sweeps `at` over `from ..< to` every `step` seconds; returns the distinct ranges met.
    func sweep(_ store: StaticStore, _ trip: String, from: Int64, to: Int64, step: Int64 = 1_800) throws -> Int {
        var checked = Set<Range<Int64>>()
        for at in stride(from: from, to: to, by: Int(step)) {
            guard let (instance, range) = try chosen(store, trip, at) else { continue }
            let r = try #require(range, "\(trip) at \(at): no range")
            let t = try store.trip(id: trip, at: at)
            let start = try #require(t.stops.first?.departureUnix), end = try #require(t.stops.last?.arrivalUnix)
            // More than 6 days from the instance (the store looks 7 days far): outside the range by its cut.
            let cut = at < start - 6 * 86_400 || at > end + 6 * 86_400
            #expect(r.contains(at) != cut, "\(trip) at \(at): \(r), cut \(cut)")
            guard checked.insert(r).inserted else { continue }
            #expect(try chosen(store, trip, r.lowerBound)?.0 == instance, "\(trip) \(r): lower end")
            #expect(try chosen(store, trip, r.upperBound - 1)?.0 == instance, "\(trip) \(r): upper end")
            // Just outside: another instance, unless the range was cut at 6 days from the instance.
            if r.lowerBound != start - 6 * 86_400 {
                #expect(try chosen(store, trip, r.lowerBound - 1)?.0 != instance, "\(trip) \(r): below")
            }
            if r.upperBound != end + 6 * 86_400 + 1 {
                #expect(try chosen(store, trip, r.upperBound)?.0 != instance, "\(trip) \(r): above")
            }
        }
        return checked.count
    }

    @Test func dailyTripsAcrossTheDaylightSavingChanges() throws {
        let store = try AcceptanceFeeds.db().store
        // New York: starts 2026-03-08, ends 2026-11-01; London: starts 2026-03-29; Santiago: 2026-09-06 has no
        // local midnight.
        for trip in ["E0130", "L2530", "E0800"] {
            #expect(try sweep(store, trip, from: utc(2026, 3, 6, 0), to: utc(2026, 3, 10, 0)) >= 4)
            #expect(try sweep(store, trip, from: utc(2026, 10, 30, 0), to: utc(2026, 11, 3, 0)) >= 4)
        }
        for trip in ["LE0130", "LL2530"] {
            #expect(try sweep(store, trip, from: utc(2026, 3, 27, 0), to: utc(2026, 3, 31, 0)) >= 4)
        }
        for trip in ["S0030", "S2530"] {
            #expect(try sweep(store, trip, from: utc(2026, 9, 4, 0), to: utc(2026, 9, 8, 0)) >= 4)
        }
    }

    @Test func sparseCalendarsAndTheirEnds() throws {
        let store = try AcceptanceFeeds.db().store
        // Weekdays only (the 2026-05-25 holiday removed, Sundays added), Wednesdays 06-03…06-17, one date.
        #expect(try sweep(store, "WK_0900", from: utc(2026, 5, 20, 0), to: utc(2026, 6, 1, 0)) >= 6)
        #expect(try sweep(store, "SU_1000", from: utc(2026, 5, 20, 0), to: utc(2026, 6, 8, 0)) >= 3)
        // Past the last Wednesday the range ends 6 days after it; before the first it starts 6 days ahead.
        #expect(try sweep(store, "EDGE_1200", from: utc(2026, 5, 20, 0), to: utc(2026, 7, 1, 0), step: 3_600) == 3)
        #expect(try sweep(store, "EXTRA_1300", from: utc(2026, 6, 20, 0), to: utc(2026, 7, 18, 0), step: 3_600) == 1)
    }

    @Test func aFrequencyBasedTripHasNoRange() throws {
        let store = try AcceptanceFeeds.db().store
        #expect(try store.trip(id: "FX", at: utc(2026, 6, 3, 12)).undatedRange == nil)
        #expect(try store.trip(id: "E0800", serviceDate: 20260603, at: 0).undatedRange != nil)
    }
}
