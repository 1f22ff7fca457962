// Staleness limits per kind (protocol/README.md, `stale`: 90 s for trip updates and vehicle positions, 10 min
// for alerts) and per source (a config's stale_after_s, else `serve --stale-after`, else by kind).
import Foundation
import GTFSRealtime
import RealtimeSources
import Testing
import TransitModel

@testable import RealtimeService

@Suite struct StalenessTests {
    typealias F = StateFixture

    /// The limit each source reports once it has applied `feed`.
    private func limits(_ settings: [SourceSettings], _ feeds: [FeedMessage]) throws -> [UInt32] {
        var state = F.state(settings)
        for (i, feed) in feeds.enumerated() { _ = try mustApply(&state, feed, source: i) }
        return state.statuses(now: F.now).map(\.staleAfterSecs)
    }

    @Test func defaultsGoByKind() throws {
        let settings = [
            SourceSettings(name: "tu", kind: .tripUpdates, timeZone: "UTC"),
            SourceSettings(name: "vp", kind: .vehiclePositions, timeZone: "UTC"),
            SourceSettings(name: "al", kind: .alerts, timeZone: "UTC"),
            SourceSettings(name: "auto-al", kind: .auto, timeZone: "UTC"),
            SourceSettings(name: "auto-vp", kind: .auto, timeZone: "UTC"),
            SourceSettings(name: "auto-mixed", kind: .auto, timeZone: "UTC"),
        ]
        let feeds = [
            F.feed([F.entity("a", F.tripUpdate("T1"))]), F.feed([F.vehicle("v", trip: "T1")]), F.feed([F.alert("x")]),
            F.feed([F.alert("x")]), F.feed([F.vehicle("v", trip: "T1")]),
            F.feed([F.alert("x"), F.vehicle("v", trip: "T1")]),
        ]
        // An auto source holding only alerts is an alerts source; holding anything else, 90 s.
        #expect(try limits(settings, feeds) == [90, 90, 600, 600, 90, 90])
    }

    @Test func anAlertsSourceIsFreshForTenMinutesAVehicleSourceFor90Seconds() throws {
        var state = F.state([
            SourceSettings(name: "vp", kind: .vehiclePositions, timeZone: "UTC"),
            SourceSettings(name: "al", kind: .alerts, timeZone: "UTC"),
        ])
        _ = try mustApply(&state, F.feed([F.vehicle("v", trip: "T1")]))
        _ = try mustApply(&state, F.feed([F.alert("x")]), source: 1)
        #expect(state.statuses(now: F.now + 90).map(\.stale) == [false, false])
        #expect(state.statuses(now: F.now + 91).map(\.stale) == [true, false])
        #expect(state.statuses(now: F.now + 600).map(\.stale) == [true, false])
        #expect(state.statuses(now: F.now + 601).map(\.stale) == [true, true])
    }

    @Test func aSourcesOwnLimitWinsOverTheServiceDefault() throws {
        let own = SourceConfig(
            name: "al", kind: .alerts, location: .file(path: "/x"), pollInterval: .seconds(60),
            prefix: "B:", maxBytes: 1000, staleAfterSecs: 1200)
        let plain = SourceConfig(
            name: "tu", kind: .tripUpdates, location: .file(path: "/y"), pollInterval: .seconds(30))
        let alerts = SourceConfig(name: "al2", kind: .alerts, location: .file(path: "/z"), pollInterval: .seconds(60))

        let a = SourceSettings(own, timeZone: "UTC", defaultStaleAfterSecs: 30)
        #expect(a.staleAfterSecs == 1200)
        #expect(a.idPrefix == "B:" && a.kind == .alerts && a.maxBytes == 1000 && a.timeZone == "UTC")
        #expect(SourceSettings(plain, timeZone: "UTC", defaultStaleAfterSecs: 30).staleAfterSecs == 30)
        #expect(SourceSettings(plain, timeZone: "UTC", defaultStaleAfterSecs: nil).staleAfterSecs == nil)

        // Applied by the live state: 1200 s for the source that says so, by kind for the others.
        let settings = [own, plain, alerts].map { SourceSettings($0, timeZone: "UTC", defaultStaleAfterSecs: nil) }
        var state = F.state(settings)
        _ = try mustApply(&state, F.feed([F.alert("x")]))
        _ = try mustApply(&state, F.feed([F.entity("a", F.tripUpdate("T1"))]), source: 1)
        _ = try mustApply(&state, F.feed([F.alert("y")]), source: 2)
        #expect(state.statuses(now: F.now).map(\.staleAfterSecs) == [1200, 90, 600])
        #expect(state.statuses(now: F.now + 601).map(\.stale) == [false, true, true])
        #expect(state.statuses(now: F.now + 1201).map(\.stale) == [true, true, true])
    }

    @Test func aConfigFilesLimitReachesTheLiveState() throws {
        let json =
            #"{"sources": [{"name": "tu", "kind": "trip_updates", "url": "file:///x.pb", "poll_interval_s": 30, "stale_after_s": 45}]}"#
        let config = try RealtimeConfig.parse(json: Data(json.utf8), environment: [:])
        var state = F.state(config.sources.map { SourceSettings($0, timeZone: "UTC", defaultStaleAfterSecs: 300) })
        _ = try mustApply(&state, F.feed([F.entity("a", F.tripUpdate("T1"))]))
        #expect(!state.statuses(now: F.now + 45)[0].stale)
        #expect(state.statuses(now: F.now + 46)[0].stale)
    }
}
