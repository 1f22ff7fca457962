import Synchronization
import Testing
import TransitModel

@testable import Gateway

/// The gateway's typical delays: a visit key is resolved once from its stop's and route's slices and kept
/// until the first of them expires; a new histogram is used once the held one expires; a realtime service
/// that cannot answer is not asked again for the backoff, while what is held goes on being served.
@Suite struct TypicalDelayCacheTests {
    private let t0 = ContinuousClock.now

    /// A realtime service's recorded histograms, the slices it was asked for and whether it answers.
    final class FakeRealtime: Sendable {
        private struct State {
            var histograms: [DelaySlice: DelayHistogram] = [:]
            var asked: [[DelaySlice]] = []
            var down = false
        }
        private let state = Mutex(State())

        func set(_ slice: DelaySlice, _ histogram: DelayHistogram) {
            state.withLock { $0.histograms[slice] = histogram }
        }
        func setDown(_ down: Bool) { state.withLock { $0.down = down } }
        var asked: [[DelaySlice]] { state.withLock { $0.asked } }
        var askedSlices: Int { asked.reduce(0) { $0 + $1.count } }

        func fetch(_ slices: [DelaySlice]) -> [DelayHistogram]? {
            state.withLock { s in
                s.asked.append(slices)
                guard !s.down else { return nil }
                return slices.map { s.histograms[$0] ?? DelayHistogram() }
            }
        }

        var cache: TypicalDelayCache { TypicalDelayCache(fetch: { [self] in fetch($0) }) }
    }

    /// Waits (bounded) until the cache's background refreshes are done.
    static func settled(_ cache: TypicalDelayCache) async {
        for _ in 0..<1000 where cache.refreshesInFlight > 0 { try? await Task.sleep(for: .milliseconds(2)) }
    }

    /// `samples` departures of `delay` seconds.
    static func histogram(_ samples: Int, delay: Int) -> DelayHistogram {
        var h = DelayHistogram()
        for _ in 0..<samples { h.add(delay: delay) }
        return h
    }

    /// Wednesday 12 March 2025 (a weekday), 08:10 scheduled.
    static func visit(_ route: String, _ stop: String, secs: Int = 8 * 3600 + 600) -> TypicalDelayCache.Visit {
        TypicalDelayCache.Visit(routeId: route, stopId: stop, serviceDate: 20_250_312, scheduledSecs: secs)
    }

    static func stopSlice(_ route: String, _ stop: String, hour: Int = 8) -> DelaySlice {
        DelaySlice(routeId: route, stopId: stop, hour: hour, dayType: .weekday)
    }

    static func routeSlice(_ route: String, hour: Int = 8) -> DelaySlice {
        DelaySlice(routeId: route, stopId: nil, hour: hour, dayType: .weekday)
    }

    @Test func theStopsSliceElseTheRoutesIsChosenAndResolvedOnce() async {
        let realtime = FakeRealtime()
        let stopA = Self.histogram(6, delay: 120), route = Self.histogram(40, delay: 30)
        realtime.set(Self.stopSlice("R1", "A"), stopA)
        realtime.set(Self.stopSlice("R1", "B"), Self.histogram(4, delay: 600))  // too thin: the route's
        realtime.set(Self.routeSlice("R1"), route)
        let cache = realtime.cache
        let visits = [Self.visit("R1", "A"), Self.visit("R1", "B"), Self.visit("R2", "A"), Self.visit("R1", "A")]
        let expected = [
            TypicalDelay(stopA, level: .stop), TypicalDelay(route, level: .route), nil,
            TypicalDelay(stopA, level: .stop),
        ]
        #expect(expected[0]?.p50 == 150 && expected[1]?.level == .route)
        #expect(await cache.typicalDelays(visits, ask: true, now: t0) == expected)
        // One request for the five distinct slices.
        #expect(realtime.asked.count == 1)
        #expect(Set(realtime.asked[0]).count == 5 && realtime.asked[0].count == 5)
        // Held now: the same answers without asking, also for a board of other rows of the same keys.
        #expect(await cache.typicalDelays(visits, ask: true, now: t0 + .seconds(1)) == expected)
        let sameHour = [Self.visit("R1", "B", secs: 8 * 3600 + 3000), Self.visit("R1", "A", secs: 8 * 3600)]
        #expect(await cache.typicalDelays(sameHour, ask: true, now: t0 + .seconds(2)) == [expected[1], expected[0]])
        #expect(realtime.asked.count == 1)
        // Another hour is another key and other slices.
        _ = await cache.typicalDelays([Self.visit("R1", "A", secs: 9 * 3600)], ask: true, now: t0 + .seconds(3))
        #expect(realtime.asked.count == 2)
        #expect(Set(realtime.asked[1]) == [Self.stopSlice("R1", "A", hour: 9), Self.routeSlice("R1", hour: 9)])
    }

    @Test func aNewHistogramIsUsedOnceTheHeldOneExpires() async {
        let realtime = FakeRealtime()
        realtime.set(Self.stopSlice("R1", "A"), Self.histogram(6, delay: 60))
        let cache = realtime.cache
        let before = await cache.typicalDelays([Self.visit("R1", "A")], ask: true, now: t0)
        #expect(before.first??.p50 == 90)
        realtime.set(Self.stopSlice("R1", "A"), Self.histogram(10, delay: 300))
        let held = await cache.typicalDelays(
            [Self.visit("R1", "A")], ask: true, now: t0 + TypicalDelayCache.shortestKeep - .seconds(1))
        #expect(held == before)
        #expect(realtime.asked.count == 1)
        // Past its time: answered at once as held, and asked again in the background.
        let stale = await cache.typicalDelays([Self.visit("R1", "A")], ask: true, now: t0 + TypicalDelayCache.ttl)
        #expect(stale == before)
        await Self.settled(cache)
        #expect(realtime.asked.count == 2)
        let after = await cache.typicalDelays(
            [Self.visit("R1", "A")], ask: true, now: t0 + TypicalDelayCache.ttl + .seconds(1))
        #expect(after == [TypicalDelay(Self.histogram(10, delay: 300), level: .stop)])
        #expect(after.first??.p50 == 330)
        #expect(realtime.asked.count == 2)
    }

    @Test func aRealtimeServiceThatCannotAnswerIsNotAskedDuringTheBackoff() async {
        let realtime = FakeRealtime()
        let route = Self.histogram(8, delay: 0)
        realtime.set(Self.routeSlice("R1"), route)
        let cache = realtime.cache
        // Held before it went down: served on while held, also when it may not be asked.
        #expect(
            await cache.typicalDelays([Self.visit("R1", "A")], ask: true, now: t0) == [
                TypicalDelay(route, level: .route)
            ])
        realtime.setDown(true)
        #expect(
            await cache.typicalDelays([Self.visit("R1", "A")], ask: false, now: t0 + .seconds(1)) == [
                TypicalDelay(route, level: .route)
            ])
        // Not held: asked once, unanswered, then not asked during the backoff.
        realtime.set(Self.routeSlice("R2"), route)
        let other = [Self.visit("R2", "B")]
        #expect(await cache.typicalDelays(other, ask: true, now: t0 + .seconds(2)) == [nil])
        #expect(realtime.asked.count == 2)
        #expect(await cache.typicalDelays(other, ask: true, now: t0 + .seconds(3)) == [nil])
        #expect(realtime.asked.count == 2)
        // R1's were held: past their time they are still answered for `staleGrace` while nothing may be asked
        // (and not asked for), then no more.
        realtime.setDown(false)
        let stale = t0 + TypicalDelayCache.ttl + .seconds(1)
        #expect(
            await cache.typicalDelays([Self.visit("R1", "A")], ask: false, now: stale) == [
                TypicalDelay(route, level: .route)
            ])
        let expired = stale + TypicalDelayCache.staleGrace
        #expect(await cache.typicalDelays([Self.visit("R1", "A")], ask: false, now: expired) == [nil])
        #expect(realtime.asked.count == 2)
        // After the backoff it is asked again and answers.
        #expect(await cache.typicalDelays(other, ask: true, now: expired) == [TypicalDelay(route, level: .route)])
        #expect(realtime.asked.count == 3)
    }

    @Test func withoutAskingOnlyHeldSlicesAnswerAndNothingPartialIsKept() async {
        let realtime = FakeRealtime()
        let stop = Self.histogram(5, delay: -30)
        realtime.set(Self.stopSlice("R1", "A"), stop)
        realtime.set(Self.stopSlice("R1", "B"), stop)
        let cache = realtime.cache
        #expect(await cache.typicalDelays([Self.visit("R1", "A")], ask: false, now: t0) == [nil])
        #expect(realtime.asked.isEmpty)
        // Held: R1's route slice (through A); B's stop slice is not, so B resolves from what is held, nothing
        // is kept resolved for it, and it is asked for once asking is allowed again.
        _ = await cache.typicalDelays([Self.visit("R1", "A")], ask: true, now: t0)
        #expect(await cache.typicalDelays([Self.visit("R1", "B")], ask: false, now: t0 + .seconds(1)) == [nil])
        #expect(
            await cache.typicalDelays([Self.visit("R1", "B")], ask: true, now: t0 + .seconds(2)) == [
                TypicalDelay(stop, level: .stop)
            ])
        #expect(realtime.asked.count == 2 && realtime.asked[1] == [Self.stopSlice("R1", "B")])
    }

    @Test func moreSlicesThanOneRequestTakesAreAskedInChunks() async {
        let realtime = FakeRealtime()
        let cache = realtime.cache
        let visits = (0..<RealtimeQuery.maxDelaySlices).map { Self.visit("R1", "S\($0)") }
        let answers = await cache.typicalDelays(visits, ask: true, now: t0)
        #expect(answers.count == visits.count && answers.allSatisfy { $0 == nil })
        #expect(realtime.asked.map(\.count) == [RealtimeQuery.maxDelaySlices, 1])
        _ = await cache.typicalDelays(visits, ask: true, now: t0 + .seconds(1))
        #expect(realtime.asked.count == 2)
    }

    @Test func withoutARealtimeServiceEveryTypicalDelayIsNil() async {
        let cache = TypicalDelayCache(client: nil)
        #expect(await cache.typicalDelays([Self.visit("R1", "A"), Self.visit("R1", "B")], ask: true) == [nil, nil])
        let badDate = TypicalDelayCache.Visit(routeId: "R1", stopId: "A", serviceDate: 0, scheduledSecs: 0)
        let realtime = FakeRealtime()
        #expect(await realtime.cache.typicalDelays([badDate], ask: true) == [nil])
        #expect(realtime.asked.isEmpty)
    }

    @Test func aTripsListIsKeptWholeAndNotServedForOtherStops() async {
        let realtime = FakeRealtime()
        let a = Self.histogram(6, delay: 120), b = Self.histogram(7, delay: 300)
        realtime.set(Self.stopSlice("R1", "A"), a)
        realtime.set(Self.stopSlice("R1", "B", hour: 9), b)
        let cache = realtime.cache
        let trip = TripInstanceKey(tripId: "T1", serviceDate: 20_250_312)
        let stops = [Self.visit("R1", "A"), Self.visit("R1", "B", secs: 9 * 3600 + 60)]
        let first = await cache.typicalDelays(stops, ask: true, trip: trip, now: t0)
        #expect(first == [TypicalDelay(a, level: .stop), TypicalDelay(b, level: .stop)])
        #expect(cache.keptTrips == 1)
        let asked = realtime.askedSlices
        #expect(await cache.typicalDelays(stops, ask: true, trip: trip, now: t0 + .seconds(1)) == first)
        #expect(realtime.askedSlices == asked, "answered from what is kept")
        // The same trip instance with other stops (a new import changed it): its own stops' figures.
        let changed = [Self.visit("R1", "B", secs: 9 * 3600 + 60), Self.visit("R1", "A")]
        let other = await cache.typicalDelays(changed, ask: true, trip: trip, now: t0 + .seconds(2))
        #expect(other == [TypicalDelay(b, level: .stop), TypicalDelay(a, level: .stop)])
        // Past its time: answered as kept, asked again in the background, then kept anew.
        let past = t0 + TypicalDelayCache.ttl + .seconds(3)
        realtime.set(Self.stopSlice("R1", "A"), b)
        #expect(await cache.typicalDelays(stops, ask: true, trip: trip, now: past) == first)
        await Self.settled(cache)
        #expect(realtime.askedSlices > asked)
        let renewed = await cache.typicalDelays(stops, ask: true, trip: trip, now: past + .seconds(1))
        #expect(renewed == [TypicalDelay(b, level: .stop), TypicalDelay(b, level: .stop)])
    }

    @Test func aTripListIsNotKeptWhileAVisitCouldNotBeResolved() async {
        let realtime = FakeRealtime()
        realtime.setDown(true)
        let cache = realtime.cache
        let trip = TripInstanceKey(tripId: "T1", serviceDate: 20_250_312)
        let stops = [Self.visit("R1", "A")]
        #expect(await cache.typicalDelays(stops, ask: true, trip: trip, now: t0) == [nil])
        #expect(cache.keptTrips == 0)
        realtime.setDown(false)
        realtime.set(Self.stopSlice("R1", "A"), Self.histogram(6, delay: 60))
        let after = await cache.typicalDelays(
            stops, ask: true, trip: trip, now: t0 + TypicalDelayCache.backoff + .seconds(1))
        #expect(after.first??.p50 == 90)
        #expect(cache.keptTrips == 1)
    }

    @Test func aFullGenerationLetsTheOldOneGoAndKeepsWhatWasRead() {
        var table = GenerationalTable<Int, String>(generationSize: 10)
        var dropped: GenerationalTable<Int, String>.Dropped = nil
        for i in 0..<9 { table.set(i, "v\(i)", dropped: &dropped) }
        #expect(dropped == nil && table.count == 9)
        table.set(9, "v9", dropped: &dropped)
        #expect(dropped?.isEmpty == true, "the first turn lets an empty old generation go")
        #expect(table.count == 10)
        // 0…4 read from the old generation move to the young one; 5…9 are not read.
        for i in 0..<5 { #expect(table.get(i, dropped: &dropped) == "v\(i)") }
        dropped = nil
        for i in 10..<15 { table.set(i, "v\(i)", dropped: &dropped) }
        #expect(dropped.map { Set($0.keys) } == Set(5..<10), "the unread went, in one piece")
        #expect(table.count == 10)
        for i in 0..<5 { #expect(table.get(i, dropped: &dropped) == "v\(i)", "read: kept") }
        for i in 5..<10 { #expect(table.get(i, dropped: &dropped) == nil) }
        // Replacing a held entry is no new entry; never more than two generations.
        table.set(3, "new", dropped: &dropped)
        #expect(table.get(3, dropped: &dropped) == "new")
        for i in 100..<1_000 {
            table.set(i, "x", dropped: &dropped)
            #expect(table.count <= 20)
        }
        table.removeAll()
        #expect(table.count == 0)
    }

    @Test func slicesAskedTogetherExpireOverAStretch() async {
        let realtime = FakeRealtime()
        let cache = realtime.cache
        // 40 visits of their own route and stop: 80 slices, asked together.
        let visits = (0..<40).map { Self.visit("R\($0)", "S\($0)") }
        _ = await cache.typicalDelays(visits, ask: true, now: t0)
        let slices = realtime.askedSlices
        #expect(slices == 80)
        _ = await cache.typicalDelays(visits, ask: true, now: t0 + TypicalDelayCache.shortestKeep - .seconds(1))
        #expect(realtime.askedSlices == slices, "every slice is kept at least shortestKeep")
        // Halfway through the stretch, each visit asked on its own board: a visit with an expired slice asks
        // again (its other slice with it, as that expires soon too); a visit whose two slices are both still
        // held asks nothing. Some of each (all 40 on one side has a chance of about 1 in 100,000).
        let middle = t0 + (TypicalDelayCache.shortestKeep + TypicalDelayCache.ttl) / 2
        for visit in visits {
            _ = await cache.typicalDelays([visit], ask: true, now: middle)
            await Self.settled(cache)
        }
        let again = realtime.askedSlices - slices
        #expect(again > 0 && again < 80, "some expired, not all: \(again)")
    }

    @Test func atMostTwoRefreshesRunAtOnce() async {
        // Fetches wait until released, so refreshes stay in flight.
        let gate = Mutex(false)
        let asked = Mutex(0)
        let cache = TypicalDelayCache(fetch: { slices in
            asked.withLock { $0 += 1 }
            while !gate.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
            return slices.map { _ in Self.histogram(6, delay: 60) }
        })
        let trips = (0..<5).map { TripInstanceKey(tripId: "T\($0)", serviceDate: 20_250_312) }
        let stops = (0..<5).map { [Self.visit("R\($0)", "A")] }
        gate.withLock { $0 = true }
        for (trip, visits) in zip(trips, stops) {
            _ = await cache.typicalDelays(visits, ask: true, trip: trip, now: t0)
        }
        #expect(cache.keptTrips == 5)
        gate.withLock { $0 = false }
        let past = t0 + TypicalDelayCache.ttl + .seconds(1)
        for (trip, visits) in zip(trips, stops) {
            #expect(await cache.typicalDelays(visits, ask: true, trip: trip, now: past).first??.p50 == 90)
        }
        #expect(cache.refreshesInFlight == TypicalDelayCache.maxRefreshes)
        gate.withLock { $0 = true }
        await Self.settled(cache)
        #expect(asked.withLock { $0 } == 5 + TypicalDelayCache.maxRefreshes)
    }
}

extension TypicalDelayCacheTests {
    /// A trip's list lasts until the first of its slices expires, and slices expire over a stretch: asked
    /// every 2 s through that stretch, the trip must not be asked again each time one more slice expires.
    @Test func aRefreshAlsoAsksTheSlicesAboutToExpire() async {
        let realtime = FakeRealtime()
        let cache = realtime.cache
        let trip = TripInstanceKey(tripId: "T1", serviceDate: 20_250_312)
        let visits = (0..<40).map { Self.visit("R1", "S\($0)") }
        for visit in visits { realtime.set(Self.stopSlice("R1", visit.stopId), Self.histogram(6, delay: 60)) }
        _ = await cache.typicalDelays(visits, ask: true, trip: trip, now: t0)
        #expect(realtime.asked.count == 1)
        var now = t0 + TypicalDelayCache.shortestKeep
        while now < t0 + TypicalDelayCache.ttl + .seconds(30) {
            let typicals = await cache.typicalDelays(visits, ask: true, trip: trip, now: now)
            #expect(typicals.allSatisfy { $0 != nil })
            await Self.settled(cache)
            now += .seconds(2)
        }
        let again = realtime.asked.dropFirst()
        #expect(again.count <= 2, "asked \(again.count) times: \(again.map(\.count))")
        #expect(again.reduce(0) { $0 + $1.count } >= 41, "every slice asked again")
    }
}

extension TypicalDelayCacheTests {
    /// The lists a gateway filled together go stale together: their refreshes must be paced by the slice
    /// budget (`refreshSlicesPerSecond`), not all started in the same instant, while every list is answered
    /// from what is held meanwhile.
    @Test func backgroundRefreshesArePacedBySlicesPerSecond() async {
        let realtime = FakeRealtime()
        let cache = realtime.cache
        let rate = TypicalDelayCache.refreshSlicesPerSecond
        // 50 trips of 40 stops, each stop on its own route: 80 slices a trip, 4,000 in all (4 s of budget).
        let trips = (0..<50).map { t in
            (
                TripInstanceKey(tripId: "T\(t)", serviceDate: 20_250_312),
                (0..<40).map { Self.visit("R\(t)-\($0)", "S\(t)-\($0)") }
            )
        }
        for (trip, visits) in trips {
            realtime.set(Self.stopSlice(visits[0].routeId, visits[0].stopId), Self.histogram(6, delay: 60))
            _ = await cache.typicalDelays(visits, ask: true, trip: trip, now: t0)
        }
        let filled = realtime.askedSlices
        #expect(filled == 50 * 80)
        /// Every trip asked once at `now`, each refresh finished before the next trip is asked.
        func askAll(at now: ContinuousClock.Instant) async -> Int {
            for (trip, visits) in trips {
                let typicals = await cache.typicalDelays(visits, ask: true, trip: trip, now: now)
                #expect(typicals[0]?.p50 == 90, "answered from what is held")
                await Self.settled(cache)
            }
            return realtime.askedSlices
        }
        // All stale at once: one second's budget is asked (the last refresh may overdraw it by one trip).
        let stale = t0 + TypicalDelayCache.ttl + .seconds(1)
        let first = await askAll(at: stale) - filled
        #expect(first >= rate && first <= rate + 80, "asked \(first) slices in the first instant")
        // Half a second later, half a second's budget less the overdraft.
        let second = await askAll(at: stale + .milliseconds(500)) - filled - first
        #expect(second <= rate / 2 + 80, "asked \(second) slices half a second later")
        #expect(second >= rate / 2 - 80, "asked \(second) slices half a second later")
        // Within the stale grace every slice is asked again, each once.
        var now = stale + .seconds(1)
        while realtime.askedSlices < 2 * filled, now < stale + .seconds(30) {
            _ = await askAll(at: now)
            now += .seconds(1)
        }
        #expect(realtime.askedSlices == 2 * filled)
        #expect(now <= stale + .seconds(6), "4,000 slices at \(rate)/s")
    }
}
