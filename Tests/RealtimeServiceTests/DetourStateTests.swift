// Trip modifications (detours) in the live state: applied to the static trips they select and published
// on `dt`; updates naming a modified trip resolved against it, also when another source carries the
// TripModifications; problems counted as drops; removal, re-application after a new database.
import GTFSRealtime
import RealtimeCore
import Testing
import TransitModel
import TransitProto

@testable import RealtimeService

@Suite struct DetourStateTests {
    typealias F = StateFixture

    /// "M1" detours T1 around S2: R1 (a Stop entity) instead, 200 s after S1; alert "A1" describes it.
    static func detourEntities(trips: [String] = ["T1"], dates: [String] = [F.dayText]) -> [FeedEntity] {
        [
            FeedEntity(id: "R1", stop: RealtimeStop(stopId: "R1", stopLat: -33.87, stopLon: 151.2)),
            FeedEntity(
                id: "M1",
                tripModifications: TripModifications(
                    selectedTrips: [.init(tripIds: trips, shapeId: "SH1")], serviceDates: dates,
                    modifications: [
                        .init(
                            startStopSelector: StopSelector(stopSequence: 2),
                            endStopSelector: StopSelector(stopSequence: 2),
                            replacementStops: [ReplacementStop(travelTimeToStop: 200, stopId: "R1")],
                            serviceAlertId: "A1")
                    ])),
            FeedEntity(id: "SH1", shape: RealtimeShape(shapeId: "SH1", encodedPolyline: "_p~iF~ps|U_ulLnnqC_mqNvxq`@")),
        ]
    }

    @Test func aTripModificationsIsPublishedAsTheDetourOfEachTripItSelects() throws {
        var state = F.state()
        let changes = try mustApply(&state, F.feed(Self.detourEntities()))
        let detour = try #require(changes.detours.first)
        #expect(changes.detours.count == 1 && changes.removedDetours.isEmpty)
        #expect(detour.key == "tu/M1/T1")
        #expect(detour.tripId == "T1" && detour.modificationsId == "M1" && detour.serviceDates == [F.day])
        #expect(detour.alertIds == ["A1"])
        #expect(detour.shapeId == "SH1" && detour.shapePolyline == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        #expect(detour.tripStartSecs == Int32(8 * 3600))
        #expect(
            detour.stops.map { "\($0.stopId):\($0.role.rawValue)" } == [
                "S1:kept", "S2:detoured", "R1:replacement", "S3:kept", "S4:kept",
            ])
        #expect(detour.stops.map(\.stopSequence) == [1, nil, 2, 3, 4])
        #expect(detour.stops.map(\.originalSequence) == [1, 2, nil, 3, 4])
        #expect(detour.stops[2].arrivalOffset == 200)
        #expect(detour.stops[2].lat == Double(Float(-33.87)))  // the Stop entity's float, as sent
        #expect(detour.applies(serviceDate: F.day, runStartSecs: nil))
        #expect(!detour.applies(serviceDate: F.day + 1, runStartSecs: nil))
        #expect(state.detours["tu/M1/T1"] == detour)
        // Unchanged in the next feed: nothing republished.
        let again = try mustApply(&state, F.feed(Self.detourEntities(), timestamp: UInt64(F.now + 30)))
        #expect(!again.hasDetours)
        // Gone from the next full feed: removed.
        let gone = try mustApply(&state, F.feed([], timestamp: UInt64(F.now + 60)))
        #expect(gone.removedDetours == ["tu/M1/T1"])
        #expect(state.detours.isEmpty)
    }

    /// Spec: a TripUpdate whose TripDescriptor has a ModifiedTripSelector is about the modified trip; its
    /// stop_sequence is the modified trip's (2 = R1 here). The instance is T1's own.
    @Test func anUpdateNamingTheModifiedTripIsNumberedAsIt() throws {
        var state = F.state()
        let update = TripUpdate(
            trip: TripDescriptor(
                modifiedTrip: ModifiedTripSelector(modificationsId: "M1", affectedTripId: "T1", startDate: F.dayText)),
            stopTimeUpdates: [StopTimeUpdate(stopSequence: 2, departure: StopTimeEvent(delay: 90))])
        _ = try mustApply(&state, F.feed(Self.detourEntities() + [F.entity("u1", update)]))
        let trip = try #require(state.trips[F.key(1)])
        #expect(trip.modificationsId == "M1")
        #expect(trip.stops.map(\.stopId) == ["S1", "R1", "S3", "S4"])
        #expect(trip.stops.map(\.stopSequence) == [1, 2, 3, 4])
        // R1 is scheduled 200 s after 08:00 and leaves 90 s late; the delay carries on.
        #expect(trip.stops[1].scheduledDeparture == F.dayUnix + 8 * 3600 + 200)
        #expect(trip.stops[1].predictedDeparture == F.dayUnix + 8 * 3600 + 290)
        #expect(trip.stops[2].departureDelay == 90)
        #expect(state.statuses(now: F.now)[0].drops.isEmpty)
    }

    /// The TripModifications in one feed, the trip updates naming the modified trip in another source's.
    @Test func anUpdateMayNameTheModifiedTripOfAnotherSource() throws {
        var state = F.state([
            SourceSettings(name: "detours", timeZone: "UTC"), SourceSettings(name: "tu", timeZone: "UTC"),
        ])
        _ = try mustApply(&state, F.feed(Self.detourEntities()), source: 0)
        let update = TripUpdate(
            trip: TripDescriptor(
                modifiedTrip: ModifiedTripSelector(modificationsId: "M1", affectedTripId: "T1", startDate: F.dayText)),
            stopTimeUpdates: [StopTimeUpdate(stopSequence: 2, departure: StopTimeEvent(delay: 30))])
        _ = try mustApply(&state, F.feed([F.entity("u1", update)]), source: 1)
        #expect(state.trips[F.key(1)]?.modificationsId == "M1")
        #expect(state.trips[F.key(1)]?.stops[1].stopId == "R1")
    }

    /// Bad input: a selected trip the schedule does not know and an unparsable shape are counted, the rest
    /// of the entity applied; an update naming modifications the feed does not have is dropped.
    @Test func detourProblemsAreCountedAndTheRestApplied() throws {
        var state = F.state()
        var entities = Self.detourEntities(trips: ["T1", "NOPE"])
        entities[2] = FeedEntity(id: "SH1", shape: RealtimeShape(shapeId: "SH1", encodedPolyline: "?"))
        let stray = TripUpdate(
            trip: TripDescriptor(
                modifiedTrip: ModifiedTripSelector(modificationsId: "M9", affectedTripId: "T2", startDate: F.dayText)),
            stopTimeUpdates: [StopTimeUpdate(stopSequence: 1, departure: StopTimeEvent(delay: 30))])
        let changes = try mustApply(&state, F.feed(entities + [F.entity("u9", stray)]))
        #expect(changes.detours.map(\.key) == ["tu/M1/T1"])
        #expect(changes.detours.first?.shapePolyline == nil)
        let drops = state.statuses(now: F.now)[0].drops
        #expect(drops["detour_unknown_trip"] == 1)
        #expect(drops["unparsable_shape"] == 1)
        #expect(drops["unknown_trip"] == 1)
        #expect(state.trips[F.key(2)] == nil)
    }

    /// A new static database: the detours are applied to its schedules again (here T1 is gone from it).
    @Test func detoursAreAppliedAgainAfterANewDatabase() throws {
        var state = F.state()
        _ = try mustApply(&state, F.feed(Self.detourEntities()))
        var schedules = ScheduleCache()
        schedules.use(dates: 20250313...20250315)
        schedules.add(TripSchedules(databaseVersion: "db2", patterns: [], trips: [], unknownTripIds: ["T1"]))
        let changes = state.resolveAgain(schedules: schedules, now: F.now)
        #expect(changes.removedDetours == ["tu/M1/T1"])
    }

    /// `dt` carries detours through the codec unchanged, and a snapshot holds them all.
    @Test func detoursTravelOnTheirTopic() throws {
        var state = F.state()
        let changes = try mustApply(&state, F.feed(Self.detourEntities()))
        var published = PublishedState()
        var retired: [LiveTrip] = []
        let payloads = published.apply(changes, sources: nil, retired: &retired)
        #expect(payloads.first?.topic == .detours)
        let message = PubMessage(epoch: 7, seq: 1, sentUnixMs: 0, payload: payloads[0])
        let decoded = try RealtimeCodec.decodeFramed(RealtimeCodec.encodeFramed(message))
        #expect(decoded == message)
        guard case .detours(let batch)? = published.payload(.detours) else {
            Issue.record("no dt snapshot")
            return
        }
        #expect(batch.detours == changes.detours)
    }
}

extension DetourStateTests {
    /// A replacement stop whose Stop entity has no coordinates is left out (counted); one no Stop entity
    /// defines is taken for a static stop and kept without a location (the service does not know static
    /// stops' coordinates).
    @Test func replacementStopsWithoutCoordinates() throws {
        var state = F.state()
        var entities = Self.detourEntities()
        entities[0] = FeedEntity(id: "R1", stop: RealtimeStop(stopId: "R1"))  // no stop_lat/stop_lon
        guard var modifications = entities[1].tripModifications else { return }
        modifications.modifications[0].replacementStops.append(ReplacementStop(travelTimeToStop: 250, stopId: "S9"))
        entities[1] = FeedEntity(id: "M1", tripModifications: modifications)
        _ = try mustApply(&state, F.feed(entities))
        let detour = try #require(state.detours["tu/M1/T1"])
        #expect(detour.stops.filter { $0.role == .replacement }.map(\.stopId) == ["S9"])
        #expect(detour.stops.first { $0.stopId == "S9" }?.lat == nil)
        #expect(state.statuses(now: F.now)[0].drops["detour_stop_without_coordinates"] == 1)
    }
}

extension DetourStateTests {
    /// A vehicle whose descriptor names the modified trip is on T1's instance; its current_stop_sequence is the
    /// modified trip's (2 = R1, a replacement stop), and its estimate predicts the stops after it, numbered
    /// as the modified trip's.
    @Test func aVehicleOnTheModifiedTripEstimatesItsStops() throws {
        var state = F.state()
        let scheduledAtR1 = F.dayUnix + 8 * 3600 + 200
        let vehicle = FeedEntity(
            id: "v1",
            vehicle: VehiclePosition(
                trip: TripDescriptor(
                    modifiedTrip: ModifiedTripSelector(
                        modificationsId: "M1", affectedTripId: "T1", startDate: F.dayText)),
                vehicle: VehicleDescriptor(id: "bus-1"), currentStopSequence: 2, stopId: "R1",
                currentStatus: .stoppedAt, timestamp: UInt64(scheduledAtR1 + 120)))
        _ = try mustApply(&state, F.feed(Self.detourEntities() + [vehicle]), now: scheduledAtR1 + 130)
        #expect(state.vehicles["tu/v1"]?.trip == F.key(1))
        let estimate = try #require(state.trips[F.key(1)])
        #expect(estimate.modificationsId == "M1")
        #expect(estimate.stops.map(\.stopId) == ["S1", "R1", "S3", "S4"])
        // Stopped at R1 two minutes late: S3 is predicted two minutes late too.
        #expect(estimate.stops[2].predictedDeparture.map { $0 - (F.dayUnix + 8 * 3600 + 600) } == 120)
    }
}

extension DetourStateTests {
    /// DIFFERENTIAL: a trip update leaves the held detours alone; is_deleted on the TripModifications removes
    /// its detours.
    @Test func aDifferentialFeedChangesDetoursEntityByEntity() throws {
        var state = F.state()
        _ = try mustApply(&state, F.feed(Self.detourEntities(), differential: true))
        let update = try mustApply(
            &state, F.feed([F.entity("u", F.tripUpdate("T2"))], timestamp: UInt64(F.now + 30), differential: true))
        #expect(!update.hasDetours && state.detours.count == 1)
        let deleted = try mustApply(
            &state, F.feed([FeedEntity(id: "M1", isDeleted: true)], timestamp: UInt64(F.now + 60), differential: true))
        #expect(deleted.removedDetours == ["tu/M1/T1"])
        #expect(state.detours.isEmpty)
    }
}
