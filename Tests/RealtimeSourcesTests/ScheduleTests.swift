import Testing

@testable import RealtimeSources

@Suite struct ScheduleTests {
    let start = ContinuousClock.now

    @Test func nextTickKeepsTheFixedSchedule() {
        // On time: one interval later, however long the fetch took within it.
        #expect(
            SourcePoller.nextTick(after: start, interval: .seconds(30), now: start + .seconds(3)) == start
                + .seconds(30))
        // Behind by more than an interval: missed ticks are skipped, the next one stays on the grid.
        #expect(
            SourcePoller.nextTick(after: start, interval: .seconds(30), now: start + .seconds(65)) == start
                + .seconds(90))
        #expect(
            SourcePoller.nextTick(after: start, interval: .seconds(30), now: start + .seconds(60)) == start
                + .seconds(90))
    }

    @Test func offsetsSqueezeIntoTheShortestInterval() {
        let sources =
            (0..<10).map { httpSource("s\($0)", url: "https://x/\($0)", interval: .seconds(2)) }
            + [SourceConfig(name: "file", kind: .alerts, location: .file(path: "/x"), pollInterval: .milliseconds(10))]
        let offsets = SourceGroup.startOffsets(sources, maxRequestsPerSecond: 5)
        // 10 sources in 2 s: 0.2 s apart rather than 0.4; the file source starts at once.
        #expect(offsets[1] == .milliseconds(200))
        #expect(offsets[9] == .milliseconds(1800))
        #expect(offsets[10] == .zero)
    }
}
