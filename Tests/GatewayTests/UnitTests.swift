import GatewayProtocol
import Testing
import TransitModel

@testable import Gateway

@Suite struct LineSplitterTests {
    private func lines(_ splitter: inout LineSplitter) -> [LineSplitter.Event] {
        var out: [LineSplitter.Event] = []
        while let event = splitter.next() { out.append(event) }
        return out
    }

    private func line(_ text: String) -> LineSplitter.Event { .line(Array(text.utf8)) }

    @Test func splitsOnLFAndCRLFAcrossChunks() {
        var s = LineSplitter(limit: 100)
        s.append(Array("ab\r\ncd\nef".utf8))
        #expect(lines(&s) == [line("ab"), line("cd")])
        s.append(Array("g\r".utf8))
        #expect(lines(&s) == [])
        s.append(Array("\n\n".utf8))
        #expect(lines(&s) == [line("efg"), line("")])
        #expect(s.finish() == nil)
    }

    @Test func theLastLineWithoutTerminatorIsALine() {
        var s = LineSplitter(limit: 100)
        s.append(Array("x\ny".utf8))
        #expect(lines(&s) == [line("x")])
        #expect(s.finish() == line("y"))
        var crOnly = LineSplitter(limit: 100)
        crOnly.append(Array("z\r".utf8))
        #expect(lines(&crOnly) == [])
        #expect(crOnly.finish() == line("z"))
    }

    @Test func aLongLineIsReportedOnceAndItsRestDiscarded() {
        var s = LineSplitter(limit: 4)
        s.append(Array("abcde".utf8))
        #expect(lines(&s) == [.tooLong])
        s.append(Array("fgh".utf8))
        #expect(lines(&s) == [])
        s.append(Array("ij\nok\n".utf8))
        #expect(lines(&s) == [line("ok")])
        // A complete long line in one chunk.
        s.append(Array("123456\nabcd\r\n".utf8))
        #expect(lines(&s) == [.tooLong, line("abcd")])
        // Its unterminated tail at EOF is dropped, not a second answer.
        s.append(Array("toolong".utf8))
        #expect(lines(&s) == [.tooLong])
        #expect(s.finish() == nil)
    }

    @Test func exactlyTheLimitWaitsForAPossibleCRLF() {
        var s = LineSplitter(limit: 4)
        s.append(Array("abcd\r".utf8))
        #expect(lines(&s) == [])  // could be "abcd" + "\r\n"
        s.append(Array("\n".utf8))
        #expect(lines(&s) == [line("abcd")])
        s.append(Array("abcdx".utf8))
        #expect(lines(&s) == [.tooLong])
    }
}

@Suite struct OrderedAnswersTests {
    @Test func releasesInOrderWhateverTheFillOrder() {
        var q = OrderedAnswers()
        let a = q.reserve(), b = q.reserve(), c = q.reserve()
        let r1 = q.fill(c, [3])
        #expect(r1)
        let r10 = q.takeReady()
        #expect(r10.isEmpty)
        let r2 = q.fill(a, [1])
        #expect(r2)
        let r11 = q.takeReady()
        #expect(r11 == [[1]])
        #expect(q.pendingCount == 2)
        let r3 = q.fill(b, [2])
        #expect(r3)
        let r12 = q.takeReady()
        #expect(r12 == [[2], [3]])
        #expect(q.isEmpty)
    }

    @Test func aSlotIsFilledOnceAndReplacedOnlyUntilReleased() {
        var q = OrderedAnswers()
        let a = q.reserve(), b = q.reserve()
        let r4 = q.fill(b, [2])
        #expect(r4)
        let r5 = q.fill(b, [9])
        #expect(!r5)  // a late answer after a timeout is dropped
        let r6 = q.replace(b, [22])
        #expect(r6)
        #expect(q.isOpen(a) && !q.isOpen(b))
        let r7 = q.fill(a, [1])
        #expect(r7)
        let r13 = q.takeReady()
        #expect(r13 == [[1], [22]])
        let r8 = q.replace(b, [3])
        #expect(!r8)
        let r9 = q.fill(a, [4])
        #expect(!r9)
        #expect(q.isReleased(b))
    }
}

/// The stats and metrics of answers cover every op of the table, each under its own name.
@Suite struct GatewayStatsOpTests {
    @Test func everyOpHasItsOwnMetricsLabel() {
        let labels = GatewayOpKind.allCases.map { GatewayStats.metricsLabel($0) }
        #expect(labels == GatewayOpKind.allCases.map(\.name))
        #expect(Set(labels).count == labels.count)
        #expect(!labels.contains(GatewayStats.metricsLabel(nil)), "a line without an op has a label of its own")
    }

    @Test func theStatsListEveryOpAnsweredInTheTablesOrder() {
        let stats = GatewayStats()
        for op in GatewayOpKind.allCases.reversed() {
            stats.record(op: op, error: op == .auth ? .unauthenticated : nil, micros: 10)
        }
        stats.record(op: nil, error: .badJSON, micros: 1)
        let summary = stats.summary()
        #expect(summary.requests == UInt64(GatewayOpKind.allCases.count + 1))
        #expect(summary.ops.map(\.0) == GatewayOpKind.allCases)
        #expect(summary.ops.allSatisfy { $0.1.count == 1 })
        #expect(summary.ops.filter { $0.1.errors > 0 }.map(\.0) == [.auth])
    }
}

@Suite struct LatencyHistogramTests {
    @Test func percentilesOfAKnownDistribution() {
        var h = LatencyHistogram()
        for v in 1...1000 { h.record(Int64(v)) }
        #expect(h.count == 1000)
        #expect(h.max == 1000)
        // Within the bucket precision (about 3 %), never below the true value.
        for (fraction, truth) in [(0.5, 500.0), (0.95, 950.0), (0.99, 990.0)] {
            let p = Double(h.percentile(fraction))
            #expect(p >= truth && p <= truth * 1.04, "p\(fraction) = \(p)")
        }
        #expect(h.percentile(1.0) == 1000)
    }

    @Test func smallValuesAreExactAndHugeOnesFit() {
        var h = LatencyHistogram()
        #expect(h.percentile(0.5) == 0)
        h.record(7)
        h.record(7)
        h.record(-3)  // clamped to 0
        #expect(h.percentile(0.5) == 7)
        h.record(Int64.max)
        #expect(h.max == Int64.max)
        #expect(h.percentile(1.0) == Int64.max)
        for value: Int64 in [63, 64, 65, 127, 128, 1 << 40, Int64.max] {
            let index = LatencyHistogram.index(of: value)
            #expect(LatencyHistogram.upperBound(of: index) >= value)
            if index > 0 { #expect(LatencyHistogram.upperBound(of: index - 1) < value) }
        }
    }
}

@Suite struct AlertMatcherTests {
    private let t1 = Route(routeId: "T1", agencyId: "ST", routeType: 2, mode: "train", section: "T")
    private let bus = Route(routeId: "333", agencyId: "SB", routeType: 700, mode: "bus", section: "#")

    private func entity(
        stop: String? = nil, route: String? = nil, type: Int? = nil, agency: String? = nil, trip: String? = nil,
        direction: Int? = nil
    ) -> AlertView.InformedEntity {
        AlertView.InformedEntity(
            agencyId: agency, routeId: route, routeType: type, directionId: direction, tripId: trip, stopId: stop)
    }

    @Test func aStopQueryMatchesItsStationPlatformsRoutesAndLiveTrips() {
        let platform = Stop(stopId: "P1", name: "Platform 1", lat: 0, lon: 0, parentStation: "S")
        let station = Stop(stopId: "S", name: "Station", lat: 0, lon: 0, locationType: 1)
        let m = AlertMatcher.stop(StopResult(stop: platform, parent: station, routes: [t1]), liveTrips: ["trip-1"])
        #expect(m.matches(entity(stop: "S")))
        #expect(m.matches(entity(stop: "P1")))
        #expect(m.matches(entity(route: "T1")))
        #expect(m.matches(entity(type: 2)))
        #expect(m.matches(entity(agency: "ST")))
        #expect(m.matches(entity(trip: "trip-1")))
        // Every field it sets must hold.
        #expect(m.matches(entity(stop: "S", route: "T1")))
        #expect(!m.matches(entity(stop: "S", route: "333")))
        #expect(!m.matches(entity(stop: "OTHER")))
        #expect(!m.matches(entity(type: 700)))
        #expect(!m.matches(entity()))
    }

    @Test func aRouteQueryIgnoresSelectorsWithATripAndTakesTheRouteAtAStop() {
        let m = AlertMatcher.route(bus)
        #expect(m.match(entity(route: "333")) == .whole)
        #expect(m.match(entity(type: 700)) == .whole)
        #expect(m.match(entity(agency: "SB")) == .whole)
        // The route named together with a stop: the route at that stop.
        #expect(m.match(entity(stop: "X", route: "333")) == .atStop("X"))
        #expect(m.match(entity(stop: "X", route: "333", direction: 1)) == .atStop("X"))
        // A stop with the route's type or agency only concerns that stop, not this route.
        #expect(!m.matches(entity(stop: "X", type: 700)))
        #expect(!m.matches(entity(stop: "X", agency: "SB")))
        #expect(!m.matches(entity(stop: "X")))
        #expect(!m.matches(entity(stop: "X", route: "T1")))
        #expect(!m.matches(entity(route: "333", trip: "t")))
        #expect(!m.matches(entity(route: "T1")))
        #expect(!m.matches(entity(direction: 0)))
    }

    @Test func aTripQueryMatchesItsRouteDirectionAndStops() {
        let stop = TripStop(
            stopId: "P1", stopName: "P", stopSequence: 1, arrivalSecs: 0, departureSecs: 0, arrivalUnix: 0,
            departureUnix: 0,
            lat: 0, lon: 0, parentStation: "S")
        let trip = TripDetail(
            tripId: "trip-1", route: t1, headsign: nil, directionId: 1, serviceDate: 20251222, startTime: "10:00:00",
            frequencyBased: false, timezone: "Australia/Sydney", stops: [stop])
        let m = AlertMatcher.trip(trip)
        #expect(m.matches(entity(trip: "trip-1")))
        #expect(m.matches(entity(route: "T1", direction: 1)))
        #expect(!m.matches(entity(route: "T1", direction: 0)))
        #expect(m.matches(entity(stop: "S")))
        #expect(!m.matches(entity(trip: "trip-2")))
    }

    @Test func aRouteQueryListsTheStopsAnAlertIsLimitedTo() {
        let records = [
            AlertRecord(
                id: "at-two-stops",
                informedEntities: [
                    entity(stop: "B", route: "333"), entity(stop: "A", route: "333"), entity(stop: "C", route: "T1"),
                ]),
            AlertRecord(id: "whole", informedEntities: [entity(stop: "A", route: "333"), entity(route: "333")]),
            AlertRecord(id: "other-route", informedEntities: [entity(stop: "A", route: "T1")]),
        ]
        let byRoute = AlertMatcher.route(bus).alerts(in: records, at: 0, language: nil)
        #expect(byRoute.map(\.id) == ["at-two-stops", "whole"])
        #expect(byRoute.map(\.limitedToStopIds) == [["A", "B"], []])
        // A stop board keeps the strict AND: the route and the stop must both hold.
        let stopA = Stop(stopId: "A", name: "A", lat: 0, lon: 0)
        let byStop = AlertMatcher.stop(StopResult(stop: stopA, routes: [bus]), liveTrips: []).alerts(
            in: records, at: 0, language: nil)
        #expect(byStop.map(\.id) == ["at-two-stops", "whole"])
        #expect(byStop.allSatisfy { $0.limitedToStopIds.isEmpty })
        // Another stop of the route: the route-wide alert only, not the ones limited to A and B.
        let stopD = Stop(stopId: "D", name: "D", lat: 0, lon: 0)
        let byStopD = AlertMatcher.stop(StopResult(stop: stopD, routes: [bus]), liveTrips: []).alerts(
            in: records, at: 0, language: nil)
        #expect(byStopD.map(\.id) == ["whole"])
    }

    @Test func activePeriodsSeverityOrderAndLanguage() {
        let matcher = AlertMatcher.route(t1)
        let records = [
            AlertRecord(
                id: "b",
                header: TranslatedText([
                    .init(text: "English", language: "en"), .init(text: "Français", language: "fr"),
                ]),
                severity: "INFO", informedEntities: [entity(route: "T1")]),
            AlertRecord(id: "a", severity: "INFO", informedEntities: [entity(route: "T1")]),
            AlertRecord(id: "z", severity: "SEVERE", informedEntities: [entity(route: "T1")]),
            AlertRecord(
                id: "ended", activePeriods: [.init(start: 0, end: 100)], informedEntities: [entity(route: "T1")]),
            AlertRecord(
                id: "open", activePeriods: [.init(start: 100, end: nil)], informedEntities: [entity(route: "T1")]),
        ]
        let views = matcher.alerts(in: records, at: 100, language: "fr")
        #expect(views.map(\.id) == ["z", "a", "b", "open"])
        #expect(views.first { $0.id == "b" }?.header == "Français")
        #expect(matcher.alerts(in: records, at: 100, language: nil).first { $0.id == "b" }?.header == "English")
        #expect(matcher.alerts(in: records, at: 99, language: nil).map(\.id).contains("ended"))
    }
}
