import Testing

@testable import TransitCore

private let h = 3600

@Suite struct FrequenciesTests {
    @Test func endIsExclusive() {
        // Every 30 min from 08:00 to 10:00: the last instance starts at 09:30.
        let w = FrequencyPeriod(start: 8 * h, end: 10 * h, headway: 1800, isExact: true)
        #expect(w.startTimes == [8 * h, 8 * h + 1800, 9 * h, 9 * h + 1800])
    }

    @Test func partialLastHeadway() {
        let w = FrequencyPeriod(start: 0, end: 1000, headway: 300, isExact: false)
        #expect(w.startTimes == [0, 300, 600, 900])
        #expect(!w.isExact)
    }

    @Test func degenerateWindowsHaveNoInstances() {
        #expect(FrequencyPeriod(start: 100, end: 100, headway: 60, isExact: true).instanceCount == 0)
        #expect(FrequencyPeriod(start: 100, end: 50, headway: 60, isExact: true).instanceCount == 0)
        #expect(FrequencyPeriod(start: 0, end: 600, headway: 0, isExact: true).instanceCount == 0)
        #expect(
            FrequencyPeriod(start: 0, end: 600, headway: 0, isExact: true)
                .instances(offset: 0, timeIn: 0..<1000).isEmpty)
    }

    @Test func instancesInAWindowAtAStop() {
        // Every 10 min from 06:00 to 07:00, stop 7 min into the trip: times 06:07, 06:17, … 06:57.
        let w = FrequencyPeriod(start: 6 * h, end: 7 * h, headway: 600, isExact: true)
        let at = 7 * 60
        #expect(w.instances(offset: at, timeIn: (6 * h + 17 * 60)..<(6 * h + 40 * 60)) == 1..<4)
        // Bounds: lower inclusive, upper exclusive.
        #expect(w.instances(offset: at, timeIn: (6 * h + 7 * 60)..<(6 * h + 7 * 60 + 1)) == 0..<1)
        #expect(w.instances(offset: at, timeIn: (6 * h)..<(6 * h + 7 * 60)).isEmpty)
        // After the last instance, and long before the first.
        #expect(w.instances(offset: at, timeIn: (6 * h + 58 * 60)..<(9 * h)).isEmpty)
        #expect(w.instances(offset: at, timeIn: 0..<(5 * h)).isEmpty)
        // The whole day: all six.
        #expect(w.instances(offset: at, timeIn: 0..<(30 * h)) == 0..<6)
    }

    @Test func windowQueryAgreesWithEnumeration() {
        let periods = [
            FrequencyPeriod(start: 5 * h + 13, end: 9 * h + 7, headway: 420, isExact: true),
            FrequencyPeriod(start: 23 * h, end: 26 * h, headway: 900, isExact: false),
        ]
        for w in periods {
            for offset in [0, 95, 3599] {
                for lower in stride(from: 4 * h, to: 27 * h, by: 317) {
                    for length in [1, 60, 419, 420, 2000] {
                        let secs = lower..<(lower + length)
                        let expected = w.startTimes.indices.filter { secs.contains(w.startTimes[$0] + offset) }
                        #expect(Array(w.instances(offset: offset, timeIn: secs)) == expected)
                    }
                }
            }
        }
    }

    @Test func nearestAndExactInstance() {
        let w = FrequencyPeriod(start: 6 * h, end: 7 * h, headway: 600, isExact: true)
        #expect(w.nearestInstance(toStart: 0) == 0)
        #expect(w.nearestInstance(toStart: 6 * h + 299) == 0)
        #expect(w.nearestInstance(toStart: 6 * h + 300) == 0)  // tie: the earlier
        #expect(w.nearestInstance(toStart: 6 * h + 301) == 1)
        #expect(w.nearestInstance(toStart: 20 * h) == 5)
        #expect(w.instance(startingAt: 6 * h + 1200) == 2)
        #expect(w.instance(startingAt: 6 * h + 1201) == nil)
        #expect(w.instance(startingAt: 7 * h) == nil)
    }

    @Test func tripWithSeveralWindows() {
        let trip = TripFrequencies([
            FrequencyPeriod(start: 10 * h, end: 11 * h, headway: 1800, isExact: true),
            FrequencyPeriod(start: 8 * h, end: 10 * h, headway: 3600, isExact: true),
        ])
        #expect(trip.startTimes == [8 * h, 9 * h, 10 * h, 10 * h + 1800])
        #expect(trip.startTimes(offset: 300, timeIn: (9 * h)..<(10 * h + 301)) == [9 * h, 10 * h])
        #expect(trip.period(startingAt: 10 * h + 1800)?.headway == 1800)
        #expect(trip.period(startingAt: 9 * h + 1800) == nil)
        #expect(trip.nearestStart(to: 9 * h + 1799) == 9 * h)
        #expect(trip.nearestStart(to: 12 * h) == 10 * h + 1800)
        #expect(TripFrequencies([]).nearestStart(to: 0) == nil)
    }
}
