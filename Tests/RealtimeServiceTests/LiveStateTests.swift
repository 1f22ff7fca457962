// The live state's rules: full vs differential, older headers, failures, staleness, kinds, drops, merging.
import GTFSRealtime
import RealtimeCore
import Testing
import TransitModel

@testable import RealtimeService

@Suite struct LiveStateTests {
    typealias F = StateFixture

    @Test func fullDatasetReplacesEverythingTheSourceSaid() throws {
        var state = F.state()
        let first = try mustApply(
            &state, F.feed([F.entity("a", F.tripUpdate("T1")), F.entity("b", F.tripUpdate("T2"))]))
        #expect(first.tripIds == ["T1", "T2"])
        #expect(first.removedTrips.isEmpty)
        // Resolved once, on apply: stop 1 of T1 departs 60 s late, the delay propagates.
        let t1 = try #require(state.trips[F.key(1)])
        #expect(t1.stops.map(\.predictedDeparture) == (0..<4).map { F.scheduled(1, $0) + 60 })
        #expect(t1.stops.allSatisfy { $0.status == .predicted })

        // The next full feed no longer lists T2: it disappears; T1 changed delay: republished.
        let second = try mustApply(
            &state, F.feed([F.entity("a", F.tripUpdate("T1", delay: 120))], timestamp: UInt64(F.now + 30)))
        #expect(second.tripIds == ["T1"])
        #expect(second.removedTripIds == ["T2"])
        #expect(state.trips.keys.map(\.tripId).sorted() == ["T1"])
        #expect(state.trips[F.key(1)]?.stops.first?.departureDelay == 120)
    }

    /// Fields the decoder skipped for their wire type are counted per source by path, over the applied feeds,
    /// with the first feed's account; a feed screened out (identical body) adds nothing.
    @Test func skippedFieldsAreCountedPerSourceByPath() throws {
        var state = F.state()
        func feed(_ skips: [SkippedField], at: UInt64) -> FeedMessage {
            var feed = F.feed([F.entity("a", F.tripUpdate("T1"))], timestamp: at)
            feed.skippedFields = skips
            return feed
        }
        let six = SkippedField(
            path: "entity.trip_update.stop_time_update.6", count: 3, firstOffset: 40, wireType: 0,
            expectedWireType: 2)
        let other = SkippedField(
            path: "entity.vehicle.position.1", count: 1, firstOffset: 7, wireType: 2, expectedWireType: 5)
        _ = try mustApply(&state, feed([six], at: UInt64(F.now)))
        var six2 = six
        six2.firstOffset = 99
        _ = try mustApply(&state, feed([six2, other], at: UInt64(F.now + 30)))
        let status = state.statuses(now: F.now + 30)[0]
        #expect(
            status.skippedFields == [
                LiveSkippedField(path: "entity.trip_update.stop_time_update.6", count: 6, first: six.description),
                LiveSkippedField(path: "entity.vehicle.position.1", count: 1, first: other.description),
            ])
        #expect(
            status.skippedFields[0].first.contains("first at byte 40 (varint where the schema has length-delimited)"))
        #expect(state.statuses(now: F.now + 30)[0].drops.isEmpty)
    }

    @Test func unchangedTripsAreNotRepublished() throws {
        var state = F.state()
        state.ingest(F.feed([F.entity("a", F.tripUpdate("T1")), F.entity("b", F.tripUpdate("T2"))]))
        let again = try mustApply(
            &state,
            F.feed(
                [F.entity("a", F.tripUpdate("T1")), F.entity("b", F.tripUpdate("T2", delay: 0))],
                timestamp: UInt64(F.now + 30)))
        #expect(again.tripIds == ["T2"])
        #expect(again.removedTrips.isEmpty)
    }

    @Test func differentialAppliesEntityByEntity() throws {
        var state = F.state()
        state.ingest(
            F.feed([F.entity("a", F.tripUpdate("T1")), F.entity("b", F.tripUpdate("T2")), F.vehicle("v", trip: "T1")]))
        // T3 added, T2 deleted (is_deleted), T1 and the vehicle not mentioned: they stay.
        let diff = try mustApply(
            &state,
            F.feed(
                [
                    F.entity("c", F.tripUpdate("T3")), FeedEntity(id: "b", isDeleted: true),
                    FeedEntity(id: "v", isDeleted: true),
                ],
                timestamp: UInt64(F.now + 30), differential: true))
        #expect(diff.tripIds == ["T3"])
        #expect(diff.removedTripIds == ["T2"])
        #expect(diff.removedVehicles == ["tu/v"])
        #expect(Set(state.trips.keys.map(\.tripId)) == ["T1", "T3"])
        // An entity sent again replaces its own previous content.
        let replace = try mustApply(
            &state, F.feed([F.entity("c", F.tripUpdate("T4"))], timestamp: UInt64(F.now + 60), differential: true))
        #expect(replace.tripIds == ["T4"])
        #expect(replace.removedTripIds == ["T3"])
    }

    @Test func olderHeaderIsIgnoredAndCounted() throws {
        var state = F.state()
        state.ingest(F.feed([F.entity("a", F.tripUpdate("T1"))], timestamp: 1000))
        let older = state.ingest(F.feed([F.entity("b", F.tripUpdate("T2"))], timestamp: 999))
        #expect(older == nil)
        #expect(state.trips.keys.map(\.tripId) == ["T1"])
        let status = state.statuses(now: F.now)[0]
        #expect(status.olderIgnored == 1)
        #expect(status.updatesApplied == 1)
        #expect(status.feedTimestamp == 1000)
        // The same timestamp with other content is applied (a producer that does not bump it).
        let same = state.ingest(F.feed([F.entity("b", F.tripUpdate("T2"))], timestamp: 1000))
        #expect(same != nil)
    }

    @Test func identicalBodyCountsAsNotModified() throws {
        var state = F.state()
        let feed = F.feed([F.entity("a", F.tripUpdate("T1"))])
        state.ingest(feed)
        let again = state.ingest(feed)
        #expect(again == nil)
        #expect(state.statuses(now: F.now)[0].notModified == 1)
        _ = state.recordNotModified(source: 0, at: F.now + 5)
        #expect(state.statuses(now: F.now)[0].notModified == 2)
    }

    @Test func failureKeepsTheLastGoodState() throws {
        var state = F.state()
        state.ingest(F.feed([F.entity("a", F.tripUpdate("T1"))]))
        let changes = state.recordFailure(source: 0, message: "HTTP 503 Service Unavailable", at: F.now + 30)
        #expect(changes.sourcesChanged)
        #expect(!changes.hasTrips)
        #expect(state.trips.count == 1)
        let status = state.statuses(now: F.now + 30)[0]
        #expect(status.errors == 1)
        #expect(status.lastError == "HTTP 503 Service Unavailable")
        #expect(status.lastErrorUnix == F.now + 30)
        #expect(status.entities == 1)
    }

    @Test func failuresInARowAndTheRecoveryAreTimed() throws {
        var state = F.state()
        state.ingest(F.feed([F.entity("a", F.tripUpdate("T1"))]))
        #expect(state.statuses(now: F.now)[0].consecutiveErrors == 0)
        #expect(state.statuses(now: F.now)[0].recoveredUnix == nil)  // nothing to recover from
        _ = state.recordFailure(source: 0, message: "garbage", at: F.now + 10)
        _ = state.recordFailure(source: 0, message: "garbage again", at: F.now + 20)
        var status = state.statuses(now: F.now + 20)[0]
        #expect(status.consecutiveErrors == 2)
        #expect(status.lastErrorUnix == F.now + 20)
        #expect(status.recoveredUnix == nil)
        // A good feed ends the run: the error and its time stay, with when it recovered.
        state.ingest(
            F.feed([F.entity("a", F.tripUpdate("T1", delay: 120))], timestamp: UInt64(F.now + 30)), now: F.now + 30)
        status = state.statuses(now: F.now + 30)[0]
        #expect(status.consecutiveErrors == 0)
        #expect(status.recoveredUnix == F.now + 30)
        #expect(status.lastError == "garbage again" && status.lastErrorUnix == F.now + 20)
        #expect(status.errors == 2)
        // A failure after the recovery starts a new run.
        _ = state.recordFailure(source: 0, message: "garbage", at: F.now + 40)
        status = state.statuses(now: F.now + 40)[0]
        #expect(status.consecutiveErrors == 1 && status.recoveredUnix == nil)
    }

    @Test func staleAfterTheLimitFromTheHeaderTimestamp() throws {
        var state = F.state([
            SourceSettings(name: "tu", timeZone: "UTC"), SourceSettings(name: "al", kind: .alerts, timeZone: "UTC"),
        ])
        #expect(state.statuses(now: F.now).allSatisfy { $0.stale })  // nothing received yet
        state.ingest(F.feed([F.entity("a", F.tripUpdate("T1"))], timestamp: UInt64(F.now - 30)))
        state.ingest(F.feed([F.alert("x")], timestamp: UInt64(F.now - 30)), source: 1)
        let fresh = state.refreshStaleness(now: F.now)
        #expect(fresh)  // both became fresh
        #expect(!state.statuses(now: F.now + 60)[0].stale)
        #expect(state.statuses(now: F.now + 61)[0].stale)  // 91 s after the header
        #expect(state.statuses(now: F.now + 61)[0].staleAfterSecs == 90)
        #expect(!state.statuses(now: F.now + 570)[1].stale)  // alerts: 10 minutes
        #expect(state.statuses(now: F.now + 571)[1].stale)
        let unchanged = state.refreshStaleness(now: F.now + 30)
        let flipped = state.refreshStaleness(now: F.now + 100)
        #expect(!unchanged)
        #expect(flipped)
        // Stale data stays in the state (the gateway decides not to use it).
        #expect(state.trips.count == 1)
    }

    @Test func headerTimestampInTheFutureCountsFromTheFetch() throws {
        var state = F.state()
        state.ingest(F.feed([F.entity("a", F.tripUpdate("T1"))], timestamp: UInt64(F.now + 3600)))
        #expect(state.statuses(now: F.now + 91)[0].stale)
    }

    @Test func configuredStaleLimitWins() throws {
        var state = F.state([SourceSettings(name: "tu", staleAfterSecs: 5, timeZone: "UTC")])
        state.ingest(F.feed([F.entity("a", F.tripUpdate("T1"))]))
        #expect(!state.statuses(now: F.now + 5)[0].stale)
        #expect(state.statuses(now: F.now + 6)[0].stale)
    }

    @Test func autoDetectsMixedKinds() throws {
        var state = F.state([
            SourceSettings(name: "mix", timeZone: "UTC"),
            SourceSettings(name: "only-tu", kind: .tripUpdates, timeZone: "UTC"),
        ])
        let mixed = F.feed([F.entity("a", F.tripUpdate("T1")), F.vehicle("v", trip: "T1"), F.alert("x")])
        let changes = try mustApply(&state, mixed)
        #expect(changes.tripIds == ["T1"])
        #expect(changes.vehicles.map(\.key) == ["mix/v"])
        #expect(changes.alerts.map(\.key) == ["mix/x"])
        #expect(state.statuses(now: F.now)[0].detectedKinds == [.tripUpdates, .vehiclePositions, .alerts])
        // The vehicle's trip instance is resolved like a trip update's.
        #expect(changes.vehicles.first?.trip == TripInstanceKey(tripId: "T1", serviceDate: F.day))
        #expect(changes.vehicles.first?.occupancyStatus == "MANY_SEATS_AVAILABLE")

        // A source configured for trip updates takes only those and counts the rest.
        let only = try mustApply(&state, mixed, source: 1)
        #expect(only.vehicles.isEmpty && only.alerts.isEmpty)
        #expect(state.statuses(now: F.now)[1].drops["wrong_kind"] == 2)
        #expect(state.statuses(now: F.now)[1].detectedKinds == [.tripUpdates, .vehiclePositions, .alerts])
    }

    @Test func dropsAreCountedByReasonWithTheLastMessage() throws {
        var state = F.state()
        let feed = F.feed([
            F.entity("known", F.tripUpdate("T1")),
            F.entity("unknown", F.tripUpdate("GONE")),
            F.entity("absurd", F.tripUpdate("T2", delay: 90_000)),
            F.entity("dup-instance", F.tripUpdate("T1", delay: 30)),
            F.entity("no-trip-id", TripUpdate(trip: TripDescriptor(routeId: "R1"))),
        ])
        let changes = try mustApply(&state, feed)
        #expect(changes.tripIds == ["T1"])
        let drops = state.statuses(now: F.now)[0].drops
        #expect(drops["unknown_trip"] == 2)  // GONE, and the update without a trip id
        #expect(drops["absurd_delay"] == 1)
        #expect(drops["duplicate_trip_instance"] == 1)
        #expect(state.statuses(now: F.now)[0].lastDrop?.hasPrefix("unknown_trip") == true)
    }

    @Test func scheduleUnavailableKeepsThePreviousPrediction() throws {
        var state = F.state()
        state.ingest(F.feed([F.entity("a", F.tripUpdate("T1")), F.entity("b", F.tripUpdate("T2"))]))
        // The static service is down: a cache without T2 (and not knowing T2 is unknown).
        var partial = ScheduleCache()
        partial.use(dates: 20250313...20250315)
        partial.add(
            TripSchedules(
                databaseVersion: "db1", patterns: [try #require(F.schedules.pattern(id: 1))],
                trips: [try #require(F.schedules.schedule(tripId: "T1"))], unknownTripIds: []))
        let changes = try mustApply(
            &state,
            F.feed(
                [F.entity("a", F.tripUpdate("T1", delay: 10)), F.entity("b", F.tripUpdate("T2", delay: 10))],
                timestamp: UInt64(F.now + 30)),
            schedules: partial)
        #expect(changes.tripIds == ["T1"])
        #expect(changes.removedTrips.isEmpty)
        #expect(state.trips[F.key(2)]?.stops.first?.departureDelay == 60)  // the previous prediction
        #expect(state.statuses(now: F.now)[0].drops["schedule_unavailable"] == 1)
    }

    @Test func cancelledStaysVisibleDeletedBecomesATombstone() throws {
        var state = F.state()
        let changes = try mustApply(
            &state,
            F.feed([
                F.entity("c", F.tripUpdate("T1", delay: nil, relationship: .canceled)),
                F.entity("d", F.tripUpdate("T2", delay: nil, relationship: .deleted)),
            ]))
        #expect(changes.tripIds == ["T1", "T2"])
        #expect(state.trips[F.key(1)]?.relationship == .canceled)
        #expect(state.trips[F.key(1)]?.stops.count == 4)
        #expect(state.trips[F.key(2)]?.relationship == .deleted)
        #expect(state.trips[F.key(2)]?.stops.isEmpty == true)
    }

    @Test func newestHeaderWinsBetweenSources() throws {
        var state = F.state([SourceSettings(name: "a", timeZone: "UTC"), SourceSettings(name: "b", timeZone: "UTC")])
        state.ingest(F.feed([F.entity("x", F.tripUpdate("T1", delay: 60))], timestamp: 1000), source: 0)
        let fromB = try mustApply(
            &state, F.feed([F.entity("y", F.tripUpdate("T1", delay: 300))], timestamp: 2000), source: 1)
        #expect(fromB.trips.first?.source == "b")
        #expect(state.trips[F.key(1)]?.stops.first?.departureDelay == 300)
        // b stops naming T1: a's version comes back instead of a removal.
        let gone = try mustApply(&state, F.feed([], timestamp: 2030), source: 1)
        #expect(gone.removedTrips.isEmpty)
        #expect(gone.trips.first?.source == "a")
        #expect(state.trips[F.key(1)]?.stops.first?.departureDelay == 60)
    }

    @Test func resolveAgainUsesTheNewSchedule() throws {
        var state = F.state()
        state.ingest(F.feed([F.entity("a", F.tripUpdate("T1"))]))
        // A new import moved T1 to 09:00.
        var moved = ScheduleCache()
        moved.use(dates: 20250313...20250315)
        var t1 = try #require(F.schedules.schedule(tripId: "T1"))
        t1.startSecs = 9 * 3600
        moved.add(
            TripSchedules(
                databaseVersion: "db2", patterns: [try #require(F.schedules.pattern(id: 1))], trips: [t1],
                unknownTripIds: []))
        let changes = state.resolveAgain(schedules: moved, now: F.now)
        #expect(changes.tripIds == ["T1"])
        #expect(state.trips[F.key(1)]?.stops.first?.scheduledDeparture == F.dayUnix + 9 * 3600)
        #expect(state.statuses(now: F.now)[0].drops.isEmpty)
    }

    @Test func duplicateNamesAreRefused() {
        #expect(throws: LiveStateError.self) {
            try LiveState(sources: [
                SourceSettings(name: "x", timeZone: "UTC"), SourceSettings(name: "x", timeZone: "UTC"),
            ])
        }
        #expect(throws: LiveStateError.self) { try LiveState(sources: [SourceSettings(name: "", timeZone: "UTC")]) }
    }

    @Test func decoderProblemsAreCounted() throws {
        // Bytes with a duplicate entity id and an alert without informed entity, through the real decoder.
        var bad = F.feed([F.entity("a", F.tripUpdate("T1")), F.entity("a", F.tripUpdate("T2"))])
        bad.entities.append(FeedEntity(id: "al", alert: Alert(headerText: TranslatedText("no entity"))))
        let decoded = try GTFSRealtimeCodec.decode(GTFSRealtimeCodec.encode(bad))
        var state = F.state()
        let changes = try mustApply(&state, decoded)
        #expect(changes.tripIds == ["T1"])
        let drops = state.statuses(now: F.now)[0].drops
        #expect(drops["duplicate_entity_id"] == 1)
        #expect(drops["alert_without_informed_entity"] == 1)
    }
}

/// A vehicle names its trip instance completely: start_time from the resolved trip when the feed has none.
@Suite struct VehicleStartTimeTests {
    typealias F = StateFixture

    @Test func aResolvedVehicleTakesItsTripsFirstDeparture() throws {
        var state = F.state()
        let changes = try mustApply(&state, F.feed([F.vehicle("v2", trip: "T2"), F.vehicle("gone", trip: "GONE")]))
        let byId = Dictionary(uniqueKeysWithValues: changes.vehicles.map { ($0.entityId, $0) })
        #expect(byId["v2"]?.trip == F.key(2))
        #expect(byId["v2"]?.startTime == "08:10:00")
        // A trip the static service does not know: nothing to take it from.
        #expect(byId["gone"]?.trip == nil && byId["gone"]?.startTime == nil)
    }

    @Test func theFeedsOwnStartTimeIsKept() throws {
        var state = F.state()
        let vehicle = FeedEntity(
            id: "v",
            vehicle: VehiclePosition(
                trip: TripDescriptor(tripId: "T3", startTime: "08:20:00", startDate: F.dayText),
                vehicle: VehicleDescriptor(id: "bus-v"), timestamp: UInt64(F.now)))
        let changes = try mustApply(&state, F.feed([vehicle]))
        #expect(changes.vehicles.first?.startTime == "08:20:00")
    }
}
