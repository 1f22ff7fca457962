import Testing

@testable import JourneyPlanner

/// The live-times table keeps each run's times through replacements, cancellations and runs back on schedule, and
/// taking out the unused times (when they outnumber the live runs') moves no run's times.
@Suite struct LiveTimesTableTests {
    @Test func timesSurviveReplacementAndCompaction() {
        // Patterns 0 and 1 with 2 and 3 stops.
        let stopCount: (Int32) -> Int = { $0 == 0 ? 2 : 3 }
        var table = LiveTimesTable(runCount: 4)
        var expected: [Int32: (pattern: Int32, arrivals: [Int32], departures: [Int32])] = [:]
        func set(_ run: Int32, _ pattern: Int32, _ base: Int32) {
            let n = stopCount(pattern)
            let arrivals = (0..<n).map { base + Int32($0) * 60 }
            let departures = arrivals.map { $0 + 30 }
            table.set(run, pattern: pattern, arrivals: arrivals, departures: departures)
            expected[run] = (pattern, arrivals, departures)
        }
        func check(_ label: String) {
            for run in Int32(0)..<4 {
                let want = expected[run]
                #expect(table.pattern(ofRun: run) == want?.pattern, "\(label): run \(run)'s pattern")
                #expect(table.isLive(run) == (want != nil), "\(label): run \(run) live")
                guard let want, want.pattern >= 0 else { continue }
                let got = table.times(ofRun: run, stopCount: stopCount(want.pattern))
                #expect(got.map { Array($0.arrivals) } == want.arrivals, "\(label): run \(run)'s arrivals")
                #expect(got.map { Array($0.departures) } == want.departures, "\(label): run \(run)'s departures")
            }
        }
        set(0, 0, 1000)
        set(1, 1, 2000)
        set(2, 0, 3000)
        check("set")
        let grown = table.times.count
        // Replacing live times leaves the earlier ones unused until they outnumber the live runs'.
        set(0, 1, 4000)
        set(1, 1, 5000)
        table.compactIfWasteful(stopCount: stopCount)
        #expect(table.times.count > grown, "two unused of three live: kept")
        check("replaced")
        table.cancel(2)
        expected[2] = (Slot.cancelled, [], [])
        set(3, 0, 6000)
        set(3, 0, 7000)
        table.compactIfWasteful(stopCount: stopCount)
        // Three live runs with times (0, 1: 3 stops, 3: 2 stops), nothing else left.
        #expect(table.times.count == 2 * (3 + 3 + 2), "compacted to the live runs' times")
        check("cancelled and compacted")
        table.clear(1)
        expected[1] = nil
        table.appendRun()
        #expect(table.pattern(ofRun: 4) == nil)
        check("back on schedule")
    }

    typealias Slot = LiveTimesTable.Slot
}
