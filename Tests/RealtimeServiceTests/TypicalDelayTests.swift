// Typical delays (protocol/README.md flow 6): the histogram math, what DepartureCapture records, the
// store's bytes, retention and persistence, and the delay_histograms answer of a hub fed trip updates.
import Foundation
import Synchronization
import Testing
import TransitCore
import TransitModel
import TransitTesting

@testable import DelayStore
@testable import RealtimeService

@Suite struct DelayHistogramMathTests {
    @Test func bucketsHaveOneMinuteEdgesAndOpenEnds() {
        #expect(DelayHistogram.bucket(ofDelay: -1801) == 0)
        #expect(DelayHistogram.bucket(ofDelay: -1800) == 1)
        #expect(DelayHistogram.bucket(ofDelay: -1) == 30)
        #expect(DelayHistogram.bucket(ofDelay: 0) == 31)
        #expect(DelayHistogram.bucket(ofDelay: 59) == 31)
        #expect(DelayHistogram.bucket(ofDelay: 60) == 32)
        #expect(DelayHistogram.bucket(ofDelay: 1799) == 60)
        #expect(DelayHistogram.bucket(ofDelay: 1800) == 61)
        #expect(DelayHistogram.lowerEdge(ofBucket: 31) == 0)
        #expect(DelayHistogram.upperEdge(ofBucket: 31) == 60)
        #expect(DelayHistogram.lowerEdge(ofBucket: 0) == nil)
        #expect(DelayHistogram.upperEdge(ofBucket: 61) == nil)
    }

    @Test func percentilesInterpolateInsideTheBucket() {
        var h = DelayHistogram()
        for _ in 0..<4 { h.add(delay: 10) }  // [0, 60)
        #expect(h.percentile(0.5) == nil)  // under 5 samples
        h.add(delay: 130)  // [120, 180)
        #expect(h.samples == 5)
        // rank 2.5 of 4 in [0, 60): 0 + 60 × 2.5 / 4 = 37.5 → 38
        #expect(h.percentile(0.5) == 38)
        // rank 4.5: the fifth sample, half-way into [120, 180)
        #expect(h.percentile(0.9) == 150)
        #expect(h.percentile(0) == 0)
    }

    @Test func outerBucketsGiveTheirEdge() {
        var h = DelayHistogram()
        for _ in 0..<5 { h.add(delay: 4000) }
        #expect(h.percentile(0.5) == 1800)
        var early = DelayHistogram()
        for _ in 0..<5 { early.add(delay: -4000) }
        #expect(early.percentile(0.9) == -1800)
    }

    @Test func onTimeIsAMinuteEarlyToUnderFiveLate() {
        var h = DelayHistogram()
        for d in [-61, -60, 0, 299, 300, 1000] { h.add(delay: d) }
        let p = h.punctuality
        #expect(p.early == 1 && p.onTime == 3 && p.late == 2)
    }

    @Test func typicalDelayFallsBackToTheRouteUnderFiveSamples() {
        var thin = DelayHistogram(), route = DelayHistogram()
        for _ in 0..<4 { thin.add(delay: 600) }
        for _ in 0..<5 { route.add(delay: 70) }
        #expect(TypicalDelay.choose(stop: thin, route: route)?.level == .route)
        #expect(TypicalDelay.choose(stop: thin, route: route)?.p50 == 90)
        #expect(TypicalDelay.choose(stop: thin, route: thin) == nil)
        thin.add(delay: 600)
        #expect(TypicalDelay.choose(stop: thin, route: route)?.level == .stop)
    }

    @Test func hoursCountFromTheServiceDay() {
        #expect(TypicalDelay.hour(ofSecs: 0) == 0)
        #expect(TypicalDelay.hour(ofSecs: 8 * 3600 + 59 * 60) == 8)
        #expect(TypicalDelay.hour(ofSecs: 25 * 3600 + 600) == 1)
        #expect(TypicalDelay.hour(ofSecs: -60) == 23)
    }
}

/// Times of one weekday trip: Monday 2025-12-22 in Sydney.
enum DelayTrips {
    static let zone = try! ServiceTimeZone(identifier: "Australia/Sydney")
    static let date = GTFSDate(year: 2025, month: 12, day: 22)!
    static let day0 = zone.referenceUnix(of: date)
    /// Three stops at 08:00, 08:10, 08:20 scheduled.
    static func trip(
        _ delays: [Int32?], statuses: [LiveStopStatus]? = nil, relationship: LiveTripRelationship = .scheduled,
        route: String? = "R1"
    ) -> LiveTrip {
        var stops: [LiveStop] = []
        for (i, delay) in delays.enumerated() {
            let scheduled = day0 + Int64(8 * 3600 + i * 600)
            let status = statuses?[i] ?? (delay == nil ? .noPrediction : .predicted)
            stops.append(
                LiveStop(
                    stopId: "S\(i)", stopSequence: UInt32(i + 1), scheduledArrival: scheduled,
                    scheduledDeparture: scheduled,
                    predictedArrival: status == .predicted ? delay.map { scheduled + Int64($0) } : nil,
                    predictedDeparture: status == .predicted ? delay.map { scheduled + Int64($0) } : nil,
                    arrivalDelay: status == .predicted ? delay : nil,
                    departureDelay: status == .predicted ? delay : nil,
                    status: status))
        }
        return LiveTrip(
            instance: TripInstanceKey(tripId: "T1", serviceDate: 20_251_222), relationship: relationship,
            routeId: route, stops: stops, source: "tu")
    }
    /// Unix time of stop `i`'s scheduled departure plus `plus` seconds.
    static func at(stop i: Int, plus: Int64) -> Int64 { day0 + Int64(8 * 3600 + i * 600) + plus }
}

extension DepartureCapture {
    /// `observe(old:new:now:)` and the store's write at the same moment: what the store gets.
    mutating func observeWritten(old: LiveTrip?, new: LiveTrip?, now: Int64) -> [DelaySample] {
        observe(old: old, new: new, now: now) + release(now: now)
    }
}

@Suite struct DepartureCaptureTests {
    @Test func aStopIsRecordedOnceWithItsLastPredictionWhenItsTimePasses() {
        var capture = DepartureCapture(zone: DelayTrips.zone)
        let first = DelayTrips.trip([60, 60, 60])
        #expect(capture.observe(old: nil, new: first, now: DelayTrips.at(stop: 0, plus: 0)).isEmpty)
        let second = DelayTrips.trip([120, 120, 120])
        let samples = capture.observeWritten(old: first, new: second, now: DelayTrips.at(stop: 0, plus: 130))
        #expect(samples.map(\.stopId) == ["S0"])
        #expect(samples.first?.delay == 120)
        #expect(samples.first?.hour == 8)
        #expect(samples.first?.dayType == .weekday)
        #expect(samples.first?.routeId == "R1")
        // The same stop is not counted again by the next update.
        #expect(capture.observeWritten(old: second, new: second, now: DelayTrips.at(stop: 0, plus: 200)).isEmpty)
    }

    @Test func aStopTheUpdateDroppedAfterItsTimeKeepsThePreviousPrediction() {
        var capture = DepartureCapture(zone: DelayTrips.zone)
        let before = DelayTrips.trip([90, 90, 90])
        _ = capture.observe(old: nil, new: before, now: DelayTrips.at(stop: 0, plus: -300))
        // The producer dropped S0 (passed): the new state no longer predicts it.
        let after = DelayTrips.trip([nil, 100, 100])
        let samples = capture.observeWritten(old: before, new: after, now: DelayTrips.at(stop: 0, plus: 120))
        #expect(samples.map(\.stopId) == ["S0"])
        #expect(samples.first?.delay == 90)
    }

    @Test func aCancelledTripRecordsNothing() {
        var capture = DepartureCapture(zone: DelayTrips.zone)
        let running = DelayTrips.trip([60, 60, 60])
        _ = capture.observe(old: nil, new: running, now: DelayTrips.at(stop: 0, plus: -60))
        let cancelled = DelayTrips.trip([nil, nil, nil], relationship: .canceled)
        #expect(capture.observe(old: running, new: cancelled, now: DelayTrips.at(stop: 2, plus: 600)).isEmpty)
        #expect(capture.observe(old: cancelled, new: nil, now: DelayTrips.at(stop: 2, plus: 900)).isEmpty)
        #expect(capture.progress.isEmpty)
    }

    @Test func aSkippedStopIsNotRecorded() {
        var capture = DepartureCapture(zone: DelayTrips.zone)
        let before = DelayTrips.trip([60, 60, 60])
        let skipped = DelayTrips.trip([60, nil, 60], statuses: [.predicted, .skipped, .predicted])
        let samples = capture.observeWritten(old: before, new: skipped, now: DelayTrips.at(stop: 2, plus: 120))
        #expect(samples.map(\.stopId) == ["S0", "S2"])
    }

    @Test func aRemovedInstanceRecordsItsPassedStopsAndIsForgotten() {
        var capture = DepartureCapture(zone: DelayTrips.zone)
        let trip = DelayTrips.trip([30, 45, 600])
        _ = capture.observeWritten(old: nil, new: trip, now: DelayTrips.at(stop: 0, plus: 40))
        let samples = capture.observe(old: trip, new: nil, now: DelayTrips.at(stop: 1, plus: 60))
        #expect(samples.map(\.stopId) == ["S1"])  // S0 already counted, S2 not yet left
        #expect(capture.progress.isEmpty)
    }

    @Test func tripsWithoutRouteOrScheduleRecordNothing() {
        var capture = DepartureCapture(zone: DelayTrips.zone)
        let noRoute = DelayTrips.trip([60], route: nil)
        #expect(capture.observe(old: nil, new: noRoute, now: DelayTrips.at(stop: 0, plus: 600)).isEmpty)
        var added = DelayTrips.trip([60])
        added.stops[0].scheduledDeparture = nil
        added.stops[0].scheduledArrival = nil
        var other = DepartureCapture(zone: DelayTrips.zone)
        #expect(other.observe(old: nil, new: added, now: DelayTrips.at(stop: 0, plus: 600)).isEmpty)
    }
}

@Suite struct DelayStoreTests {
    static func sample(
        _ delay: Int, route: String = "R1", stop: String = "S0", day: GTFSDate = DelayTrips.date,
        hour: Int = 8
    ) -> DelaySample {
        DelaySample(
            routeId: route, stopId: stop, serviceDay: day.dayNumber, hour: hour,
            dayType: DayType(isoWeekday: day.weekday), delay: delay)
    }

    @Test func rowsRoundTripThroughTheirBytes() {
        var row = DelayRow(block: 100)
        for d in [-4000, -60, 0, 0, 0, 0, 0, 59, 1799, 1800] { _ = row.add(delay: d, hour: 7, sampleBlock: 100) }
        _ = row.add(delay: 120, hour: 23, sampleBlock: 99)
        let bytes = row.encoded()
        let back = bytes.withUnsafeBytes { DelayRow(block: 100, bytes: $0) }
        #expect(back == row)
        #expect([UInt8]([24, 0]).withUnsafeBytes { DelayRow(block: 1, bytes: $0) } == nil)
    }

    @Test func routeAndStopSlicesAndTheStopAloneSumsItsRoutes() throws {
        let folder = try TemporaryFolder("delays")
        let store = try DelayStore(path: folder.path("d.db"))
        try store.add([
            Self.sample(60), Self.sample(120), Self.sample(300, stop: "S1"), Self.sample(600, route: "R2"),
            Self.sample(30, hour: 9),
        ])
        let today = DelayTrips.date
        #expect(
            try store.histogram(DelaySlice(routeId: "R1", stopId: "S0", hour: 8), today: today).histogram.samples == 2)
        #expect(try store.histogram(DelaySlice(routeId: "R1", stopId: "S0"), today: today).histogram.samples == 3)
        #expect(
            try store.histogram(DelaySlice(routeId: "R1", stopId: nil, hour: 8), today: today).histogram.samples == 3)
        #expect(
            try store.histogram(DelaySlice(routeId: nil, stopId: "S0", hour: 8), today: today).histogram.samples == 3)
        #expect(
            try store.histogram(DelaySlice(routeId: "R1", stopId: "S0", dayType: .saturday), today: today).histogram
                .samples == 0)
        #expect(try store.histogram(DelaySlice(routeId: "R9", stopId: "S0"), today: today).histogram.isEmpty)
    }

    @Test func theWindowKeepsTwoBlocksAndPruningDropsOlderOnes() throws {
        let folder = try TemporaryFolder("delays")
        let store = try DelayStore(path: folder.path("d.db"))
        let day = DelayTrips.date
        let block = DelayStore.block(ofDay: day.dayNumber)
        let blockStart = GTFSDate(dayNumber: block * DelayStore.blockDays)
        // One sample in each of the last three blocks, on two rows.
        try store.add([
            Self.sample(60, day: blockStart.adding(days: -28)), Self.sample(60, day: blockStart.adding(days: -14)),
            Self.sample(60, day: blockStart),
        ])
        try store.add([Self.sample(60, stop: "S9", day: blockStart.adding(days: -28))])
        let slice = DelaySlice(routeId: "R1", stopId: "S0")
        let now = try store.histogram(slice, today: blockStart)
        #expect(now.histogram.samples == 2)  // the oldest was rolled out when the newer blocks came
        #expect(now.firstDate == ServiceDate(blockStart.adding(days: -14).yyyymmdd))
        #expect(now.lastDate == ServiceDate(blockStart.yyyymmdd))
        // 13 days later the same window; 14 days later only the newest block counts.
        #expect(try store.histogram(slice, today: blockStart.adding(days: 13)).histogram.samples == 2)
        #expect(try store.histogram(slice, today: blockStart.adding(days: 14)).histogram.samples == 1)
        // Pruning at blockStart: the S9 row (only block −2) is deleted; the route row loses nothing it counts.
        #expect(try store.prune(today: blockStart) >= 1)
        #expect(try store.histogram(DelaySlice(routeId: "R1", stopId: "S9"), today: blockStart).histogram.isEmpty)
        #expect(try store.prune(today: blockStart) == 0)  // once per block
        // 14 days on: the S0 row's previous block expires and is rewritten away.
        #expect(try store.prune(today: blockStart.adding(days: 14)) >= 1)
        #expect(try store.histogram(slice, today: blockStart.adding(days: 14)).histogram.samples == 1)
    }

    @Test func theStoreSurvivesAReopen() throws {
        let folder = try TemporaryFolder("delays")
        let path = folder.path("d.db")
        do {
            let store = try DelayStore(path: path)
            try store.add([Self.sample(60), Self.sample(90, stop: "S1")])
            try store.checkpoint()
        }
        let again = try DelayStore(path: path)
        try again.add([Self.sample(120)])
        let h = try again.histogram(DelaySlice(routeId: "R1", stopId: nil), today: DelayTrips.date).histogram
        #expect(h.samples == 3)
        #expect(
            try again.histogram(DelaySlice(routeId: "R1", stopId: "S1"), today: DelayTrips.date).histogram.samples == 1)
    }
}

/// A sink that drops frames.
struct NullSink: FrameSink {
    func send(_ frame: [UInt8]) throws {}
}

@Suite struct TypicalDelaysHubTests {
    @Test func aHubRecordsDeparturesAndAnswersHistogramsAcrossARestart() throws {
        let folder = try TemporaryFolder("delays")
        let path = folder.path("delays.db")
        let clock = Mutex<Int64>(DelayTrips.at(stop: 0, plus: -600))
        let now: @Sendable () -> Int64 = { clock.withLock { $0 } }
        do {
            let delays = try TypicalDelays(path: path, timeZone: "Australia/Sydney", clock: now)
            let hub = RealtimeHub(sink: NullSink(), nowMs: { now() * 1000 }, delays: delays)
            // Five days of the same trip, 2 minutes late at S0, each seen before and after it left.
            for day in 0..<5 {
                var trip = DelayTrips.trip([120, 120, 120])
                trip.instance.serviceDate = ServiceDate(DelayTrips.date.adding(days: -day).yyyymmdd)
                for (i, _) in trip.stops.enumerated() {
                    trip.stops[i].scheduledDeparture! -= Int64(day) * 86_400
                    trip.stops[i].predictedDeparture! -= Int64(day) * 86_400
                }
                var changes = LiveChanges()
                changes.trips = [trip]
                clock.withLock { $0 = trip.stops[0].scheduledDeparture! - 60 }
                hub.publish(changes, sources: nil)
                clock.withLock { $0 = trip.stops[0].scheduledDeparture! + 200 }
                hub.publish(changes, sources: nil)
            }
            #expect(delays.pendingCount == 5)
            clock.withLock { $0 = DelayTrips.at(stop: 0, plus: 3600) }
            guard
                case .success(.delayHistograms(let answer)) = hub.answer(
                    .delayHistograms([
                        DelaySlice(routeId: "R1", stopId: "S0", hour: 8),
                        DelaySlice(routeId: "R1", stopId: "S0", hour: 8, dayType: .weekday),
                    ]))
            else {
                Issue.record("no histograms")
                return
            }
            #expect(answer.first?.histogram.samples == 5)
            #expect(answer.last?.histogram.samples == 3)  // Monday, Friday, Thursday; not the weekend
            #expect(answer.first.flatMap { TypicalDelay($0.histogram, level: .stop) }?.p50 == 150)
            try delays.close()
        }
        let reopened = try TypicalDelays(path: path, timeZone: "Australia/Sydney", clock: now)
        let hub = RealtimeHub(sink: NullSink(), delays: reopened)
        guard
            case .success(.delayHistograms(let answer)) = hub.answer(
                .delayHistograms([DelaySlice(routeId: "R1", stopId: nil)]))
        else {
            Issue.record("no histograms after the restart")
            return
        }
        #expect(answer.first?.histogram.samples == 5)
        // Bad slices are INVALID_ARGUMENT; a hub without a store is UNAVAILABLE.
        guard case .failure(let bad) = hub.answer(.delayHistograms([DelaySlice(routeId: nil, stopId: nil)])) else {
            Issue.record("a slice without ids was answered")
            return
        }
        #expect(bad.status == .invalidArgument && bad.message.contains("slices[0]"))
        guard
            case .failure(let none) = RealtimeHub(sink: NullSink()).answer(
                .delayHistograms([DelaySlice(routeId: "R1", stopId: nil)]))
        else {
            Issue.record("a hub without a store answered")
            return
        }
        #expect(none.status == .unavailable)
    }
}
