import GatewayProtocol
import Testing
import TransitModel

@testable import Gateway

/// The gateway's live state fed from PUB payloads: the per-stop index, the changes it reports, conversions.
@Suite struct LiveStateTests {
    private let now: Int64 = 1_766_394_000

    @Test func aSnapshotIndexesEveryVisitByStopAndPlatformChange() throws {
        var assembler = LiveStateAssembler()
        var moved = LiveFixtures.trip("A", stops: [("s1", now, now + 60), ("s2", now + 300, now + 360)])
        moved.stops[1].assignedStopId = "s2b"
        assembler.applySnapshot(
            .tripUpdates(
                LiveTripBatch(trips: [
                    moved, LiveFixtures.trip("B", stops: [("s2", now + 100, nil), ("s3", now + 400, nil)]),
                ])))
        let state = assembler.state
        #expect(state.trips.count == 2)
        #expect(state.tripsByStop["s1"]?.map(\.key.tripId) == ["A"])
        #expect(Set(state.tripsByStop["s2"]?.map(\.key.tripId) ?? []) == ["A", "B"])
        #expect(state.tripsByStop["s2b"]?.map(\.index) == [1])
        #expect(assembler.takeChange() == .everything)
        #expect(assembler.takeChange() == nil)
    }

    @Test func batchesReportTheStopsWhoseBoardsChange() throws {
        var assembler = LiveStateAssembler()
        let a = LiveFixtures.trip("A", stops: [("s1", now, now + 60), ("s2", now + 300, now + 360)])
        let b = LiveFixtures.trip("B", stops: [("s3", now, nil), ("s4", now + 100, nil)])
        assembler.applySnapshot(.tripUpdates(LiveTripBatch(trips: [a, b])))
        _ = assembler.takeChange()

        // A's delay changes: its stops; B unchanged (same content) touches nothing.
        let later = LiveFixtures.trip("A", stops: [("s1", now, now + 120), ("s2", now + 300, now + 420)])
        assembler.apply(.tripUpdates(LiveTripBatch(trips: [later, b])))
        let change = assembler.takeChange()
        #expect(change?.stops == ["s1", "s2"])
        // The trip instances the batch named (plan subscriptions re-plan journeys riding them).
        #expect(change?.trips?.contains(TripInstanceKey(tripId: "A", serviceDate: 20_251_222)) == true)
        #expect(change?.touches(trips: [TripInstanceKey(tripId: "Z", serviceDate: 20_251_222)]) == false)
        #expect(
            assembler.state.trips[TripInstanceKey(tripId: "A", serviceDate: 20_251_222)]?.stops[0].predictedDeparture
                == now
                + 120)

        // B removed: its stops leave the index.
        assembler.apply(.tripUpdates(LiveTripBatch(removed: [TripInstanceKey(tripId: "B", serviceDate: 20_251_222)])))
        #expect(assembler.takeChange()?.stops == ["s3", "s4"])
        #expect(assembler.state.tripsByStop["s3"] == nil)
        #expect(assembler.state.trips.count == 1)

        // A trip whose stops change is re-indexed.
        let rerouted = LiveFixtures.trip("A", stops: [("s1", now, now + 120), ("s9", now + 300, now + 420)])
        assembler.apply(.tripUpdates(LiveTripBatch(trips: [rerouted])))
        #expect(assembler.takeChange()?.stops == ["s1", "s2", "s9"])
        #expect(assembler.state.tripsByStop["s2"] == nil)
        #expect(assembler.state.tripsByStop["s9"]?.count == 1)
        #expect(assembler.state.tripsByStop["s1"]?.count == 1)
    }

    @Test func vehiclesAlertsAndSources() throws {
        var assembler = LiveStateAssembler()
        assembler.applySnapshot(
            .tripUpdates(
                LiveTripBatch(trips: [
                    LiveFixtures.trip("A", stops: [("s1", now, now), ("s2", now + 60, now + 60)])
                ])))
        let instance = TripInstanceKey(tripId: "A", serviceDate: 20_251_222)
        let bus = LiveVehicle(
            key: "vp/1", source: "vp", entityId: "1", trip: instance, tripId: "A", vehicleId: "V1",
            position: LivePosition(lat: Double(Float(-33.91505)), lon: 151.2, bearing: 53.70077),
            occupancyStatus: "FEW_SEATS_AVAILABLE")
        assembler.applySnapshot(.vehicles(LiveVehicleBatch(vehicles: [bus])))
        _ = assembler.takeChange()
        #expect(assembler.state.vehicles.map(\.vehicleId) == ["V1"])
        #expect(assembler.state.vehicles.first?.serviceDate == 20_251_222)
        // Float positions print as the feed gave them, not widened (−33.9150505065918).
        #expect(assembler.state.vehicles.first?.lat == -33.91505)
        #expect(assembler.state.vehicles.first?.lon == 151.2)
        #expect(assembler.state.vehicles.first?.bearing == 53.70077)
        #expect(assembler.state.vehicleByTrip[TripInstanceKey(tripId: "A", serviceDate: 20_251_222)]?.vehicleId == "V1")

        // Occupancy shows on boards: its trip's stops change; a position alone does not.
        var moved = bus
        moved.position = LivePosition(lat: -33.8, lon: 151.2)
        assembler.apply(.vehicles(LiveVehicleBatch(vehicles: [moved])))
        #expect(assembler.takeChange()?.stops == [])
        moved.occupancyStatus = "FULL"
        assembler.apply(.vehicles(LiveVehicleBatch(vehicles: [moved])))
        #expect(assembler.takeChange()?.stops == ["s1", "s2"])
        assembler.apply(.vehicles(LiveVehicleBatch(removed: ["vp/1"])))
        #expect(assembler.state.vehicles.isEmpty)

        let alert = LiveAlert(
            key: "al/x", source: "al", entityId: "x", activePeriods: [LivePeriod(start: 10, end: nil)],
            informedEntities: [LiveInformedEntity(routeType: 2, stopId: "s1")], effect: "DETOUR",
            headerText: TranslatedText([.init(text: "Hallo", language: "de"), .init(text: "Hello", language: "en")]))
        _ = assembler.takeChange()
        assembler.apply(.alerts(LiveAlertBatch(alerts: [alert])))
        #expect(assembler.takeChange() == .everything)  // boards carry their rows' alerts
        let record = try #require(assembler.state.alerts.first)
        #expect(record.id == "x" && record.effect == "DETOUR")
        #expect(record.header?.text(in: "de") == "Hallo" && record.header?.text(in: nil) == "Hello")
        #expect(record.activePeriods == [AlertView.Period(start: 10, end: nil)])
        #expect(record.informedEntities == [AlertView.InformedEntity(routeType: 2, stopId: "s1")])
        assembler.apply(.alerts(LiveAlertBatch(removed: ["al/x"])))
        #expect(assembler.state.alerts.isEmpty)
        #expect(assembler.takeChange() == .everything)

        // Sources: a staleness flip changes every board; a counter does not.
        _ = assembler.takeChange()
        var source = LiveFixtures.freshSource(now: now)
        assembler.setSources([source])
        #expect(assembler.takeChange() == .everything)
        source.errors = 3
        assembler.setSources([source])
        #expect(assembler.takeChange()?.stops == [])
        #expect(assembler.state.sources.first?.errors == 3)
        assembler.setSources([source])
        #expect(assembler.takeChange() == nil)
    }

    @Test func relationshipsBecomeFlags() {
        func converted(_ r: LiveTripRelationship) -> TripPrediction {
            TripPrediction(LiveFixtures.trip("A", startSecs: 69_000, relationship: r, stops: [("s", now, now)]))
        }
        #expect(converted(.canceled).cancelled)
        #expect(converted(.added).added && converted(.new).added && converted(.duplicated).added)
        #expect(converted(.deleted).deleted)
        #expect(!converted(.scheduled).added && !converted(.unscheduled).cancelled)
        #expect(converted(.unscheduled).key.startTime == "19:10:00")
    }

    @Test func aChangeTouchesTheBoardsOfItsStops() {
        #expect(RealtimeChange.everything.touches(["a"]))
        #expect(RealtimeChange(stops: ["a", "b"]).touches(["b", "c"]))
        #expect(!RealtimeChange(stops: ["a"]).touches(["b"]))
        #expect(!RealtimeChange(stops: []).touches(["b"]))
    }
}
