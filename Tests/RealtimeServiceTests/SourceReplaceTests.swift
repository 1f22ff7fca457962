import GTFSRealtime
import Testing
import TransitModel

@testable import RealtimeService

/// A re-read config (`LiveState.replaceSources`): what unchanged sources hold stays, what removed or changed
/// sources said leaves the merged view.
@Suite struct SourceReplaceTests {
    typealias F = StateFixture

    private func settings(_ name: String, staleAfterSecs: Int64? = nil) -> SourceSettings {
        SourceSettings(name: name, staleAfterSecs: staleAfterSecs, timeZone: "UTC")
    }

    @Test func unchangedSourceKeepsItsStateAndRemovedSourceLeaves() throws {
        var state = F.state([settings("a"), settings("b")])
        _ = try mustApply(&state, F.feed([F.entity("x", F.tripUpdate("T1")), F.vehicle("v", trip: "T1")]), source: 0)
        _ = try mustApply(&state, F.feed([F.entity("y", F.tripUpdate("T2")), F.alert("al")]), source: 1)
        let applied = state.statuses(now: F.now)[0].updatesApplied

        let changes = try state.replaceSources(with: [settings("a"), settings("c")])
        #expect(changes.sourcesChanged)
        #expect(changes.removedTripIds == ["T2"])
        #expect(changes.removedAlerts == ["b/al"])
        #expect(changes.trips.isEmpty && changes.vehicles.isEmpty && changes.removedVehicles.isEmpty)
        #expect(state.trips[F.key(1)] != nil && state.trips[F.key(2)] == nil)
        #expect(state.vehicles.keys.sorted() == ["a/v"])
        #expect(state.alerts.isEmpty)
        let statuses = state.statuses(now: F.now)
        #expect(statuses.map(\.name) == ["a", "c"])
        #expect(statuses[0].updatesApplied == applied)
        #expect(statuses[1].updatesApplied == 0)
        #expect(state.sourceIndex(named: "c") == 1 && state.sourceIndex(named: "b") == nil)
        // The new source is fed like any other.
        let fromC = try mustApply(&state, F.feed([F.entity("z", F.tripUpdate("T3"))]), source: 1)
        #expect(fromC.trips.first?.source == "c")
    }

    @Test func changedSettingsStartEmpty() throws {
        var state = F.state([settings("a")])
        _ = try mustApply(&state, F.feed([F.entity("x", F.tripUpdate("T1")), F.vehicle("v", trip: "T1")]))
        let changes = try state.replaceSources(with: [settings("a", staleAfterSecs: 30)])
        #expect(changes.removedTripIds == ["T1"])
        #expect(changes.removedVehicles == ["a/v"])
        #expect(state.trips.isEmpty && state.vehicles.isEmpty)
        let status = try #require(state.statuses(now: F.now).first)
        #expect(status.updatesApplied == 0 && status.staleAfterSecs == 30)
    }

    @Test func aTripAnotherSourceHoldsFallsBackToItsVersion() throws {
        var state = F.state([settings("a"), settings("b")])
        state.ingest(F.feed([F.entity("x", F.tripUpdate("T1", delay: 60))], timestamp: 1000), source: 0)
        state.ingest(F.feed([F.entity("y", F.tripUpdate("T1", delay: 300))], timestamp: 2000), source: 1)
        #expect(state.trips[F.key(1)]?.source == "b")
        let changes = try state.replaceSources(with: [settings("a")])
        #expect(changes.removedTrips.isEmpty)
        #expect(changes.trips.map(\.source) == ["a"])
        #expect(state.trips[F.key(1)]?.stops.first?.departureDelay == 60)
    }

    @Test func refusedListChangesNothing() throws {
        var state = F.state([settings("a")])
        _ = try mustApply(&state, F.feed([F.entity("x", F.tripUpdate("T1"))]))
        #expect(throws: LiveStateError.self) { try state.replaceSources(with: [settings("b"), settings("b")]) }
        #expect(state.statuses(now: F.now).map(\.name) == ["a"])
        #expect(state.trips[F.key(1)] != nil)
        #expect(state.sourceIndex(named: "a") == 0)
    }
}
