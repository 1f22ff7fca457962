import Testing
import TransitCore

@testable import JourneyPlanner

/// The run index answers what a dictionary of its keys would: a trip's run on each of the window's dates, a
/// frequency-based instance's by its start, nothing for a date outside the window or a trip beyond the feed's.
@Suite struct RunIndexTests {
    @Test func answersAsADictionaryWould() {
        let dates = [20261130, 20261201, 20261202].map { GTFSDate(yyyymmdd: $0)! }
        var index = RunIndex(trips: 5, dates: dates)
        var expected: [RunKey: Int32] = [:]
        var run: Int32 = 0
        for trip in [0, 2, 4] {
            for date in dates where !(trip == 2 && date == dates[1]) {
                let key = RunKey(trip: trip, date: date)
                index[key] = run
                expected[key] = run
                run += 1
            }
        }
        for start in [21_600, 22_200] {
            let key = RunKey(trip: 3, date: dates[2], start: start)
            index[key] = run
            expected[key] = run
            run += 1
        }
        let outside = GTFSDate(yyyymmdd: 20261203)!
        for trip in 0..<6 {
            for date in dates + [outside] {
                for start in [-1, 21_600, 22_200] {
                    let key = RunKey(trip: trip, date: date, start: start)
                    #expect(index[key] == expected[key], "trip \(trip) on \(date) from \(start)")
                }
            }
        }
        index[RunKey(trip: 0, date: dates[0])] = nil
        #expect(index[RunKey(trip: 0, date: dates[0])] == nil)
        #expect(index[RunKey(trip: 0, date: dates[1])] == expected[RunKey(trip: 0, date: dates[1])])
    }
}
