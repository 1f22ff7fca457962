import Foundation
import GatewayProtocol
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// The pure parts of `trip` answered from the live state (GATEWAY.md "trip"): which instance, and the answer.
@Suite struct LiveTripAssemblyTests {
    private let at: Int64 = SampleTimes.mondayEvening  // 20:00 AEDT, 2025-12-22
    private let sydney = "Australia/Sydney"

    private func state(_ trips: [LiveTrip], stale: Set<String> = []) -> RealtimeState {
        var assembler = LiveStateAssembler()
        assembler.applySnapshot(.tripUpdates(LiveTripBatch(trips: trips)))
        let now = Int64(Date().timeIntervalSince1970)
        var sources = Set(trips.map(\.source)).sorted().map { LiveFixtures.freshSource($0, now: now) }
        for index in sources.indices where stale.contains(sources[index].name) { sources[index].stale = true }
        assembler.applySnapshot(.sources(sources))
        return assembler.state
    }

    private func json(_ view: LiveTripView, at: Int64) throws -> [String: Any] {
        var writer = JSONWriter()
        writer.liveTripData(view, at: at)
        return try #require(try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Any])
    }

    // MARK: which instance

    @Test func theRunningInstanceWinsThenTheNearestThenTheLater() throws {
        let yesterday = LiveFixtures.trip(
            "X", date: 20_251_221, startSecs: 100_000, relationship: .new,
            stops: [
                ("a", nil, at - 900), ("b", nil, at + 600),  // running at `at` (after midnight of the day before)
            ], source: "s1")
        let today = LiveFixtures.trip(
            "X", date: 20_251_222, startSecs: 72_300, relationship: .new,
            stops: [
                ("a", nil, at + 300), ("b", nil, at + 900),
            ], source: "s1")
        let live = state([yesterday, today])
        func pick(_ at: Int64, date: ServiceDate? = nil, start: String? = nil) -> ServiceDate? {
            LiveTripAssembly.instance(tripId: "X", serviceDate: date, startTime: start, at: at, state: live)?.key
                .serviceDate
        }
        #expect(pick(at) == 20_251_221)  // running
        #expect(pick(at + 400) == 20_251_222)  // both running: the later one
        #expect(pick(at + 700) == 20_251_222)  // yesterday's has ended
        #expect(pick(at - 2000) == 20_251_221)  // before both: the nearer start
        #expect(pick(at, date: 20_251_222) == 20_251_222)
        #expect(pick(at, start: "20:05:00") == 20_251_222)
        #expect(pick(at, start: "27:46:40") == 20_251_221)
        #expect(pick(at, date: 20_251_223) == nil)
        #expect(LiveTripAssembly.instance(tripId: "Y", serviceDate: nil, startTime: nil, at: at, state: live) == nil)
    }

    @Test func staleAndDeletedInstancesAreNotUsed() {
        let fresh = LiveFixtures.trip("X", relationship: .new, stops: [("a", nil, at)], source: "fresh")
        let stale = LiveFixtures.trip("S", relationship: .new, stops: [("a", nil, at)], source: "old")
        let deleted = LiveFixtures.trip("D", relationship: .deleted, stops: [], source: "fresh")
        let live = state([fresh, stale, deleted], stale: ["old"])
        #expect(LiveTripAssembly.instance(tripId: "X", serviceDate: nil, startTime: nil, at: at, state: live) != nil)
        #expect(LiveTripAssembly.instance(tripId: "S", serviceDate: nil, startTime: nil, at: at, state: live) == nil)
        #expect(LiveTripAssembly.instance(tripId: "D", serviceDate: nil, startTime: nil, at: at, state: live) == nil)
    }

    // MARK: the answer

    @Test func anAddedTripHasNoScheduleAndIsAddedEverywhere() throws {
        let live = state([
            LiveFixtures.trip(
                "X", relationship: .new, routeId: "ZZ",
                stops: [
                    ("20006019", at + 240, at + 300), ("nowhere", at + 440, at + 500),
                ])
        ])
        let trip = try #require(live.trips.values.first)
        var known = LiveTripAssembly.Known(timezone: sydney)
        known.stops["20006019"] = Stop(
            stopId: "20006019", name: "Central Platform 19", lat: -33.88, lon: 151.2, platformCode: "19",
            wheelchairBoarding: 1)
        let view = LiveTripAssembly.view(trip, known: known, vehicle: nil)
        let data = try json(view, at: at)

        #expect(data["status"] as? String == "added" && data["realtime"] as? Bool == true)
        #expect(data["start_time"] as? String == "20:04:00")  // its own scheduled start
        #expect(data["timezone"] as? String == sydney)
        #expect(data["wheelchair_accessible"] is NSNull && data["headsign"] is NSNull)
        let route = try #require(data["route"] as? [String: Any])
        #expect(
            route["route_id"] as? String == "ZZ" && route["mode"] as? String == "other" && route["short_name"] is NSNull
        )
        let stops = try #require(data["stops"] as? [[String: Any]])
        #expect(stops.count == 2)
        for stop in stops {
            #expect(stop["status"] as? String == "added")
            #expect(stop["scheduled_departure_unix"] is NSNull && stop["scheduled_arrival_secs"] is NSNull)
            #expect(stop["delay_s"] is NSNull && stop["delay_badge"] is NSNull)
            #expect(stop["pickup_type"] is NSNull)
        }
        #expect(stops[0]["realtime_departure_unix"] as? Int == Int(at) + 300)
        #expect(stops[0]["realtime_departure_secs"] as? Int == 72_300)
        #expect(stops[0]["stop_name"] as? String == "Central Platform 19" && stops[0]["platform"] as? String == "19")
        #expect(stops[0]["wheelchair_accessible"] as? Int == 1 && stops[0]["lat"] as? Double == -33.88)
        #expect(
            stops[1]["stop_id"] as? String == "nowhere" && stops[1]["stop_name"] is NSNull && stops[1]["lat"] is NSNull)
    }

    @Test func withoutATimezoneSecsAndTheStartAreNull() throws {
        let live = state([
            LiveFixtures.trip("X", relationship: .new, stops: [("a", nil, at + 300), ("b", nil, at + 600)])
        ])
        let view = LiveTripAssembly.view(try #require(live.trips.values.first), known: .init(), vehicle: nil)
        let data = try json(view, at: at)
        #expect(data["start_time"] is NSNull && data["timezone"] is NSNull)
        let first = try #require((data["stops"] as? [[String: Any]])?.first)
        #expect(first["realtime_departure_unix"] as? Int == Int(at) + 300 && first["realtime_departure_secs"] is NSNull)
    }

    @Test func aScheduledTripKeepsItsResolvedScheduleAndDelays() throws {
        let live = state([
            LiveFixtures.trip(
                "T", routeId: "R",
                stops: [
                    ("a", at - 600, at - 500), ("b", at - 60, nil), ("c", at + 300, at + 420),
                    ("d", at + 900, at + 1000),
                ], firstSequence: 4, skipped: ["b"])
        ])
        let view = LiveTripAssembly.view(
            try #require(live.trips.values.first), known: .init(timezone: sydney), vehicle: nil)
        #expect(!view.added && !view.frequencyBased && view.startTime == "19:50:00")
        #expect(view.delay(0) == 100 && view.delay(2) == 120 && view.delay(3) == 100)
        #expect(view.stops[1].predictedDepartureUnix == nil && view.status(1) == .skipped)
        // The first stop not yet departed, the skipped one passed over: c, 120 s late.
        #expect(view.status(at: at) == .late)
        #expect(view.status(at: at + 2000) == .late)  // all past: the last stop's
        let data = try json(view, at: at)
        let stops = try #require(data["stops"] as? [[String: Any]])
        #expect(stops[2]["scheduled_departure_secs"] as? Int == 72_300 && stops[2]["delay_s"] as? Int == 120)
        #expect((stops[2]["delay_badge"] as? [String: Any])?["text"] as? String == "+2 min")
        #expect(stops.map { $0["stop_sequence"] as? Int } == [4, 5, 6, 7])
    }

    @Test func aCancelledTripShowsNoPredictions() throws {
        let live = state([
            LiveFixtures.trip("T", relationship: .canceled, stops: [("a", at + 60, at + 120), ("b", at + 600, nil)])
        ])
        let view = LiveTripAssembly.view(try #require(live.trips.values.first), known: .init(), vehicle: nil)
        #expect(view.stops.allSatisfy { $0.predictedArrivalUnix == nil && $0.predictedDepartureUnix == nil })
        #expect(view.status(at: at) == .cancelled && view.status(0) == .cancelled && view.delay(0) == nil)
        #expect(view.realtime)
    }

    @Test func aCopyIsDescribedByTheCopiedTrip() throws {
        let copy = LiveTrip(
            instance: TripInstanceKey(tripId: "T.copy", serviceDate: 20_251_222, startSecs: 73_800),
            relationship: .duplicated,
            staticTripId: "T", routeId: "R",
            stops: [
                LiveStop(
                    stopId: "a", stopSequence: 1, scheduledDeparture: at + 1800, predictedDeparture: at + 1860,
                    status: .predicted)
            ], source: "tu")
        let trip = TripPrediction(copy)
        #expect(LiveTripAssembly.copiedKey(trip) == TripInstanceKey(tripId: "T", serviceDate: 20_251_222))
        let route = Route(routeId: "R", shortName: "R1", routeType: 2, mode: "train", section: "R")
        let detail = TripDetail(
            tripId: "T", route: route, headsign: "Somewhere", directionId: 1, serviceDate: 20_251_222,
            startTime: "19:00:00",
            frequencyBased: false, wheelchairAccessible: 1, timezone: sydney,
            stops: [
                TripStop(
                    stopId: "a", stopName: "Stop A", stopSequence: 1, arrivalSecs: 68_400, departureSecs: 68_400,
                    arrivalUnix: at - 3600, departureUnix: at - 3600, lat: 1, lon: 2, platformCode: "2", pickupType: 0)
            ])
        let view = LiveTripAssembly.view(trip, known: .init(detail: detail), vehicle: nil)
        #expect(
            view.added && view.route.shortName == "R1" && view.headsign == "Somewhere" && view.startTime == "20:30:00")
        #expect(view.stops[0].stopName == "Stop A" && view.stops[0].pickupType == 0 && view.wheelchairAccessible == 1)
        #expect(view.stops[0].scheduledDepartureUnix == at + 1800)  // its own, not the copied trip's

        // A headsign the update gives wins over the copied trip's.
        var renamed = copy
        renamed.tripHeadsign = "Special"
        #expect(
            LiveTripAssembly.view(TripPrediction(renamed), known: .init(detail: detail), vehicle: nil).headsign
                == "Special")
    }

    @Test func aLiveRowTakesTheUpdatesHeadsignFirst() {
        var live = LiveFixtures.trip(
            "X", relationship: .new, stops: [("a", nil, at), ("b", nil, at + 60), ("c", nil, at + 120)])
        live.tripHeadsign = "Trip"
        live.stops[1].stopHeadsign = "Stop"
        func headsign(_ live: LiveTrip, _ index: Int, _ fallback: String?) -> String? {
            let candidate = LiveCandidate(trip: TripPrediction(live), index: index, time: at)
            return CandidateDepartures.fromLive(
                candidate, route: CandidateDepartures.unknownRoute("R"), headsign: fallback, platforms: [:], origin: 0
            ).departure.headsign
        }
        #expect(headsign(live, 0, "Static") == "Trip")
        #expect(headsign(live, 1, "Static") == "Stop")
        live.tripHeadsign = nil
        #expect(headsign(live, 0, "Static") == "Static")
        #expect(headsign(live, 0, nil) == nil)
    }

    @Test func aReplacementOfNoScheduledTripIsAdded() {
        func converted(_ staticTripId: String?) -> TripPrediction {
            TripPrediction(
                LiveTrip(
                    instance: TripInstanceKey(tripId: "R", serviceDate: 20_251_222), relationship: .replacement,
                    staticTripId: staticTripId,
                    stops: [LiveStop(stopId: "a", stopSequence: 1, predictedDeparture: at, status: .predicted)],
                    source: "tu"))
        }
        #expect(converted(nil).added)
        #expect(!converted("R").added)
    }
}
