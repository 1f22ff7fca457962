// The whole service over real sockets: the static service in-process on the sample database, fixtures
// written by the fixtures code and served from file:// sources, a late subscriber doing the snapshot
// handshake, REP queries.
import Foundation
import GTFSRealtime
import Logging
import NNGKit
import ProcessSupport
import RealtimeSources
import ServiceLifecycle
import StaticService
import Testing
import TransitModel
import TransitProto
import TransitTesting

@testable import RealtimeFixtures
@testable import RealtimeService

@Suite(.serialized) struct EndToEndTests {
    let quiet = quietLogger
    /// The service of `setup`, with fast heartbeats and ticks.
    static func fastConfiguration(_ setup: Setup, sourcesConfig: String) -> RealtimeServiceConfiguration {
        RealtimeServiceConfiguration(
            sourcesConfigPath: sourcesConfig, staticURL: setup.url.static, listenURL: setup.url.rep,
            publishURL: setup.url.pub, defaultTimeZone: SampleDatabase.timeZone,
            heartbeatInterval: .milliseconds(200), tickInterval: .milliseconds(200))
    }

    /// Sockets and files of one test run.
    struct Setup {
        let temporary: TemporaryFolder
        var folder: String { temporary.path }
        var url: (static: String, rep: String, pub: String) {
            ("ipc://\(folder)/s.sock", "ipc://\(folder)/r.sock", "ipc://\(folder)/p.sock")
        }

        init() throws {
            temporary = try TemporaryFolder("rte")
            try FileManager.default.createDirectory(atPath: folder + "/fx", withIntermediateDirectories: true)
        }

        /// A config polling the three fixture files every 0.2 s.
        func writeConfig() throws -> String {
            let path = folder + "/realtime.json"
            let json = """
                {"sources": [
                  {"name": "tu", "kind": "trip_updates", "url": "file://\(folder)/fx/TripUpdates.pb", "poll_interval_s": 0.2},
                  {"name": "vp", "kind": "vehicle_positions", "url": "file://\(folder)/fx/VehiclePositions.pb", "poll_interval_s": 0.2},
                  {"name": "al", "kind": "auto", "url": "file://\(folder)/fx/Alerts.pb", "poll_interval_s": 0.2}
                ]}
                """
            try Data(json.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    /// `configuration` with the service's clock stopped at `at`.
    func pinned(_ configuration: RealtimeServiceConfiguration, at: Int64) -> RealtimeServiceConfiguration {
        var configuration = configuration
        configuration.clock = ServiceClock(start: Double(at), rate: 0)
        return configuration
    }

    /// Asks `query` until `done` accepts the answer (or 10 s pass).
    func poll(_ requester: NNGRequester, _ query: RealtimeQuery, until done: (RealtimeResult) -> Bool) async throws
        -> RealtimeResult
    {
        let deadline = ContinuousClock.now + .seconds(10)
        var last: RealtimeResult?
        while ContinuousClock.now < deadline {
            let reply = try await requester.request(RealtimeCodec.encode(RealtimeRequest(requestId: 1, query: query)))
            if case .success(let result) = try RealtimeCodec.decodeResponse(reply).result {
                last = result
                if done(result) { return result }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("condition not met in 10 s; last answer: \(String(describing: last).prefix(500))")
        throw CancellationError()
    }

    @Test func fixturesThroughTheWholeService() async throws {
        let setup = try Setup()
        // The fixtures and the service's clock at a fixed time the sample feed runs trips, not the machine's
        // (which trips run, and whether any does after the feed's calendar ends, would depend on it).
        let now = SampleTimes.mondayMorning
        let schedule = try FixtureSchedule.read(databasePath: try SampleDatabase.path(), at: now)
        try #require(!schedule.instances.isEmpty, "the sample feed runs nothing at \(now)")
        let written = try FixtureWriter.write(schedule, to: setup.folder + "/fx")
        // Every trip update's trip, and the one whose vehicle comes without a trip update (estimated from it).
        let expectedTrips = written[0].tripUpdates.entities.count + 1

        let staticServer = try StaticServer(
            configuration: .init(databasePath: SampleDatabase.path(), listenURL: setup.url.static, contexts: 2),
            logger: quiet)
        defer { staticServer.stop() }
        let service = try await RealtimeServiceRunner(
            configuration: pinned(Self.fastConfiguration(setup, sourcesConfig: try setup.writeConfig()), at: now),
            logger: quiet)
        #expect(service.timeZone == "Australia/Sydney")  // from the static service's feed_info
        service.start()
        let requester = try NNGRequester(dialing: setup.url.rep, defaultTimeout: .seconds(2), maxReplySize: 256 << 20)
        defer { requester.close() }

        // Everything the fixtures hold is resolved, nothing dropped.
        let sourcesReady = try await poll(requester, .sources) { result in
            guard case .sources(let list, _, _) = result else { return false }
            return list.count == 3 && list.allSatisfy { $0.updatesApplied >= 1 }
        }
        guard case .sources(let statuses, let failedSends, let residentBytes) = sourcesReady else { return }
        #expect(failedSends == 0)  // the PUB socket took every message
        #expect((residentBytes ?? 0) > 1 << 20)  // through the REP socket too
        for status in statuses {
            #expect(status.drops.isEmpty, "\(status.name): \(status.drops) \(status.lastDrop ?? "")")
            #expect(status.errors == 0 && !status.stale, "\(status.name)")
        }
        #expect(statuses.map(\.detectedKinds) == [[.tripUpdates], [.vehiclePositions], [.alerts]])

        // A late subscriber: subscribe first, then the snapshot, then continue from its sequence.
        let subscriber = try NNGSubscriber(
            dialing: setup.url.pub, topics: [RealtimeTopic.tripUpdates.prefix, RealtimeTopic.heartbeat.prefix])
        defer { subscriber.close() }
        // A heartbeat arrives (≤ 5 s apart; here 0.2 s) with the current sequence of tu.
        var beat: LiveHeartbeat?
        for _ in 0..<50 where beat == nil {
            let message = try RealtimeCodec.decodeFramed(try await subscriber.receive(timeout: .seconds(5)))
            if case .heartbeat(let h) = message.payload { beat = h }
        }
        let heartbeat = try #require(beat)
        #expect(heartbeat.sequences[.tripUpdates] ?? 0 >= 1)
        #expect(heartbeat.databaseVersion == staticServer.databaseVersion)

        guard case .snapshot(let snapshot) = try await poll(requester, .snapshot(.tripUpdates), until: { _ in true })
        else { return }
        var replica = SubscriberReplica()
        replica.apply(snapshot: snapshot)
        #expect(replica.trips.count == expectedTrips)

        // The producer moves on: new files (delays moved, a newer header), the file sources pick them up.
        let moved = try FixtureGenerator(schedule: schedule).feeds(step: 2, at: now + 60)
        try Data(GTFSRealtimeCodec.encode(moved.tripUpdates)).write(
            to: URL(fileURLWithPath: setup.folder + "/fx/TripUpdates.pb"), options: .atomic)
        var received = 0
        let deadline = ContinuousClock.now + .seconds(10)
        while replica.applied[.tripUpdates]! <= snapshot.seq, ContinuousClock.now < deadline {
            let message = try RealtimeCodec.decodeFramed(try await subscriber.receive(timeout: .seconds(5)))
            guard message.topic == .tripUpdates else { continue }
            received += 1
            let accepted = replica.receive(message)
            #expect(accepted, "seq \(message.seq) after snapshot seq \(snapshot.seq)")
        }
        #expect(replica.gaps == 0)
        #expect(replica.applied[.tripUpdates] == snapshot.seq + 1)
        guard case .snapshot(let after) = try await poll(requester, .snapshot(.tripUpdates), until: { _ in true })
        else { return }
        #expect(after.seq == snapshot.seq + 1)
        #expect(replica.trips == Dictionary(uniqueKeysWithValues: snapshotTrips(after).map { ($0.instance, $0) }))
        let late = try #require(written[0].cases.first { $0.name == "late" })
        let lateTrip = try #require(replica.trips.values.first { $0.instance.tripId == late.tripId })
        #expect(lateTrip.stops.contains { $0.departureDelay == 300 + FixtureGenerator.drift[2] })

        // REP queries.
        let anyStop = lateTrip.stops.last!.stopId
        guard
            case .visits(let visits) = try await poll(
                requester, .stop(LiveStopQuery(stopId: anyStop)), until: { _ in true })
        else { return }
        #expect(visits.contains { $0.trip == lateTrip.instance })
        guard
            case .trips(let trips) = try await poll(
                requester, .trip(LiveTripQuery(tripId: late.tripId)), until: { _ in true })
        else { return }
        #expect(trips.map(\.instance) == [lateTrip.instance])
        guard case .vehicles(let vehicles) = try await poll(requester, .vehicles(.all), until: { _ in true }) else {
            return
        }
        #expect(vehicles.count == written[0].vehiclePositions.entities.count)
        guard
            case .alerts(let alerts) = try await poll(
                requester, .alerts(LiveAlertQuery(activeAt: now)), until: { _ in true })
        else { return }
        #expect(alerts.count == 4)
        let notFound = try RealtimeCodec.decodeResponse(
            try await requester.request(
                RealtimeCodec.encode(RealtimeRequest(requestId: 9, query: .trip(LiveTripQuery(tripId: "no-such-trip"))))
            ))
        guard case .failure(let error) = notFound.result else { Issue.record("no-such-trip answered"); return }
        #expect(error.status == .notFound)
        #expect(notFound.requestId == 9)

        await service.stop()
    }

    @Test func replayOfFixtureSnapshotsIsRestampedAndApplied() async throws {
        let setup = try Setup()
        // Snapshots made for an hour ago: played, they are re-stamped with the service clock's time (not the
        // machine's). Recorded an hour before the service's now, at a time the sample feed runs trips; the clock
        // runs from there (a frozen one would stamp every pass alike, and an unchanged alerts body is not applied
        // twice).
        let now = SampleTimes.mondayMorning
        let past = now - 3600
        let schedule = try FixtureSchedule.read(databasePath: try SampleDatabase.path(), at: past)
        try #require(!schedule.instances.isEmpty, "the sample feed runs nothing at \(past)")
        try FixtureWriter.write(schedule, to: setup.folder + "/replay", replay: 3)
        let config = setup.folder + "/replay.json"
        try Data(#"{"sources": [{"name": "demo", "replay": "replay", "pace_s": 0.2, "loop": true}]}"#.utf8)
            .write(to: URL(fileURLWithPath: config))
        let staticServer = try StaticServer(
            configuration: .init(databasePath: SampleDatabase.path(), listenURL: setup.url.static, contexts: 2),
            logger: quiet)
        defer { staticServer.stop() }
        var configuration = Self.fastConfiguration(setup, sourcesConfig: config)
        configuration.clock = ServiceClock(start: Double(now))
        // Hang detection: each poll loop, the publisher and the engine's ticks advance the watchdog.
        let watchdog = Watchdog(grace: 1.5)
        configuration.watchdog = watchdog
        let service = try await RealtimeServiceRunner(configuration: configuration, logger: quiet)
        #expect(service.sourceNames == ["demo.trip_updates", "demo.vehicle_positions", "demo.alerts"])
        service.start()
        let requester = try NNGRequester(dialing: setup.url.rep, defaultTimeout: .seconds(2))
        defer { requester.close() }
        let result = try await poll(requester, .sources) { result in
            guard case .sources(let list, _, _) = result else { return false }
            return list.count == 3 && list.allSatisfy { $0.updatesApplied >= 2 }
        }
        guard case .sources(let list, _, _) = result else { return }
        for status in list {
            #expect(!status.stale, "\(status.name)")
            let stamp = status.feedTimestamp ?? 0
            #expect(
                stamp >= UInt64(now) && stamp < UInt64(now + 60), "\(status.name) not re-stamped to the service clock")
            #expect(status.errors == 0, "\(status.name): \(status.lastError ?? "")")
            #expect(status.drops.isEmpty, "\(status.name): \(status.drops) \(status.lastDrop ?? "")")
            #expect(status.entities > 0, "\(status.name)")
        }
        #expect(
            watchdog.componentNames == [
                "engine ticks", "poll demo.alerts", "poll demo.trip_updates", "poll demo.vehicle_positions",
                "publisher",
            ])
        #expect(watchdog.late().isEmpty)
        await service.stop()
        #expect(watchdog.componentNames.isEmpty)
    }

    /// SIGHUP's work (`reloadSources`), called directly: the sources of the rewritten config are the ones
    /// polled and reported; a broken config changes nothing. (What each source keeps or loses is
    /// SourceReplaceTests'; the feeds here are made for a fixed moment, so whether their trips resolve now
    /// does not matter.)
    @Test func reloadSourcesTakesTheRewrittenConfig() async throws {
        let setup = try Setup()
        try FixtureWriter.write(
            try FixtureSchedule.read(databasePath: try SampleDatabase.path(), at: SampleTimes.mondayMorning),
            to: setup.folder + "/fx")
        let staticServer = try StaticServer(
            configuration: .init(databasePath: try SampleDatabase.path(), listenURL: setup.url.static, contexts: 2),
            logger: quiet)
        defer { staticServer.stop() }
        let configPath = try setup.writeConfig()
        let service = try await RealtimeServiceRunner(
            configuration: Self.fastConfiguration(setup, sourcesConfig: configPath), logger: quiet)
        service.start()
        let requester = try NNGRequester(dialing: setup.url.rep, defaultTimeout: .seconds(2), maxReplySize: 256 << 20)
        defer { requester.close() }
        _ = try await poll(requester, .sources) { result in
            guard case .sources(let list, _, _) = result else { return false }
            return list.count == 3 && list.allSatisfy { $0.updatesApplied >= 1 }
        }

        // "vp" goes, "tu" stays as it was, "tu2" (the same file) comes.
        let rewritten = """
            {"sources": [
              {"name": "tu", "kind": "trip_updates", "url": "file://\(setup.folder)/fx/TripUpdates.pb", "poll_interval_s": 0.2},
              {"name": "al", "kind": "auto", "url": "file://\(setup.folder)/fx/Alerts.pb", "poll_interval_s": 0.2},
              {"name": "tu2", "kind": "trip_updates", "url": "file://\(setup.folder)/fx/TripUpdates.pb", "poll_interval_s": 0.2}
            ]}
            """
        try Data(rewritten.utf8).write(to: URL(fileURLWithPath: configPath))
        try await service.reloadSources()
        #expect(service.sourceNames == ["tu", "al", "tu2"])
        _ = try await poll(requester, .sources) { result in
            guard case .sources(let list, _, _) = result else { return false }
            return list.map(\.name) == ["tu", "al", "tu2"] && list[2].updatesApplied >= 1
        }

        // A broken config: an error, the sources stay.
        try Data("{\"sources\": ".utf8).write(to: URL(fileURLWithPath: configPath))
        await #expect(throws: RealtimeConfigError.self) { try await service.reloadSources() }
        #expect(service.sourceNames == ["tu", "al", "tu2"])
        await service.stop()
    }

    /// As a `Service` in a `ServiceGroup` (how `transit-realtime serve` runs it): it serves until graceful
    /// shutdown, then `run` returns and the sockets are closed.
    @Test func runsInAServiceGroupUntilGracefulShutdown() async throws {
        let setup = try Setup()
        let staticServer = try StaticServer(
            configuration: .init(databasePath: try SampleDatabase.path(), listenURL: setup.url.static, contexts: 2),
            logger: quiet)
        defer { staticServer.stop() }
        let service = try await RealtimeServiceRunner(
            configuration: Self.fastConfiguration(setup, sourcesConfig: try setup.writeConfig()), logger: quiet)
        let group = ServiceGroup(
            services: [service], gracefulShutdownSignals: [], cancellationSignals: [], logger: quiet)
        let running = Task { try await group.run() }
        let requester = try NNGRequester(dialing: setup.url.rep, defaultTimeout: .seconds(2))
        defer { requester.close() }
        _ = try await poll(requester, .sources) { result in
            guard case .sources(let list, _, _) = result else { return false }
            return list.count == 3
        }
        await group.triggerGracefulShutdown()
        try await running.value
        await #expect(throws: NNGError.self) {
            _ = try await requester.request(
                RealtimeCodec.encode(RealtimeRequest(requestId: 2, query: .sources)),
                timeout: .milliseconds(300))
        }
    }

    @Test func garbageRequestGetsBadRequest() async throws {
        let setup = try Setup()
        let sockets = try RealtimeSockets(listen: setup.url.rep, publish: setup.url.pub)
        defer { sockets.stop() }
        let requester = try NNGRequester(dialing: setup.url.rep, defaultTimeout: .seconds(2))
        defer { requester.close() }
        let reply = try RealtimeCodec.decodeResponse(try await requester.request(Array("<html>".utf8)))
        guard case .failure(let error) = reply.result else { Issue.record("garbage answered"); return }
        #expect(error.status == .badRequest)
        #expect(reply.requestId == 0)
    }
}
