// Feeds written by Google's official bindings (Fixtures/make_fixtures.py): another encoder than ours.
import Foundation
import GTFSRealtime
import Testing
import TransitModel

enum FixtureFile {
    static func bytes(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
        return [UInt8](try Data(contentsOf: url))
    }
}

@Suite struct OfficialFixtureTests {
    @Test func tripUpdates() throws {
        let feed = try GTFSRealtimeCodec.decode(FixtureFile.bytes("official-trip-updates.pb"))
        #expect(feed.problems.isEmpty)
        #expect(
            feed.header
                == FeedHeader(
                    gtfsRealtimeVersion: "2.0", incrementality: .fullDataset, timestamp: 1767225600,
                    feedVersion: "static-2026-01"))
        #expect(feed.entities.map(\.id) == ["tu-1", "tu-2", "tu-3"])

        let tu = try #require(feed.entities[0].tripUpdate)
        #expect(
            tu.trip
                == TripDescriptor(
                    tripId: "T1", routeId: "R1", directionId: 1, startTime: "25:10:00", startDate: "20260101",
                    scheduleRelationship: .scheduled,
                    modifiedTrip: ModifiedTripSelector(
                        modificationsId: "M1", affectedTripId: "T1", startTime: "25:10:00", startDate: "20260101")))
        #expect(
            tu.vehicle
                == VehicleDescriptor(
                    id: "V1", label: "Bus 1", licensePlate: "AB-123", wheelchairAccessible: .wheelchairAccessible))
        #expect(tu.timestamp == 1767225590)
        #expect(tu.delay == 120)
        #expect(
            tu.tripProperties
                == TripProperties(
                    tripId: "T1-dup", startDate: "20260102", startTime: "08:00:00", shapeId: "SH1",
                    tripHeadsign: "Airport", tripShortName: "X1"))
        #expect(
            tu.stopTimeUpdates == [
                StopTimeUpdate(
                    stopSequence: 1, stopId: "S1", arrival: StopTimeEvent(delay: 60, uncertainty: 30),
                    departure: StopTimeEvent(delay: 90, time: 1767225700, scheduledTime: 1767225610),
                    departureOccupancyStatus: .manySeatsAvailable, scheduleRelationship: .scheduled,
                    stopTimeProperties: StopTimeProperties(
                        assignedStopId: "S1b", stopHeadsign: "City", pickupType: .phoneAgency,
                        dropOffType: .notAvailable)),
                StopTimeUpdate(stopSequence: 2, scheduleRelationship: .skipped),
                StopTimeUpdate(stopId: "S3", scheduleRelationship: .noData),
                StopTimeUpdate(stopSequence: 4, arrival: StopTimeEvent(delay: -30)),
            ])
        #expect(
            feed.entities[1]
                == FeedEntity(
                    id: "tu-2",
                    tripUpdate: TripUpdate(trip: TripDescriptor(tripId: "T2", scheduleRelationship: .canceled))))
        #expect(feed.entities[2] == FeedEntity(id: "tu-3", isDeleted: true))
    }

    @Test func vehiclePositionsWithAnExtension() throws {
        let feed = try GTFSRealtimeCodec.decode(FixtureFile.bytes("official-vehicle-positions.pb"))
        #expect(feed.problems.isEmpty)
        #expect(feed.header.timestamp == 1767225601)
        let v = try #require(feed.entities.first?.vehicle)
        #expect(v.trip == TripDescriptor(tripId: "T1", startDate: "20260101"))
        // The extension 1007 inside the descriptor holds none of Transport for NSW's fields (field 1 is a
        // string, TfNSW's is a bool): nothing is read from it; the known fields around it are intact.
        #expect(v.vehicle == VehicleDescriptor(id: "V1", label: "Train 7"))
        #expect(
            v.position
                == Position(latitude: -33.8688, longitude: 151.2093, bearing: 90.5, odometer: 12345.25, speed: 12.5))
        #expect(v.currentStopSequence == 5)
        #expect(v.stopId == "S5")
        #expect(v.currentStatus == .stoppedAt)
        #expect(v.timestamp == 1767225595)
        #expect(v.congestionLevel == .stopAndGo)
        #expect(v.occupancyStatus == .standingRoomOnly)
        #expect(v.occupancyPercentage == 85)
        #expect(
            v.multiCarriageDetails == [
                CarriageDetails(
                    id: "C1", label: "1", occupancyStatus: .full, occupancyPercentage: 100, carriageSequence: 1),
                CarriageDetails(id: "C2", carriageSequence: 2),
            ])
        #expect(
            feed.entities[1] == FeedEntity(id: "vp-2", vehicle: VehiclePosition(trip: TripDescriptor(tripId: "T2"))))
    }

    @Test func alerts() throws {
        let feed = try GTFSRealtimeCodec.decode(FixtureFile.bytes("official-alerts.pb"))
        #expect(feed.problems.isEmpty)
        let a = try #require(feed.entities.first?.alert)
        #expect(a.activePeriods == [TimeRange(start: 1767225000), TimeRange(end: 1767300000)])
        #expect(a.communicationPeriods == [TimeRange(start: 1767200000, end: 1767300000)])
        #expect(a.impactPeriods == [TimeRange(start: 1767225000, end: 1767290000)])
        #expect(
            a.informedEntities == [
                EntitySelector(stopId: "S1"), EntitySelector(routeId: "R1", directionId: 0),
                EntitySelector(agencyId: "A1", routeType: 3), EntitySelector(trip: TripDescriptor(tripId: "T1")),
            ])
        #expect(a.cause == .maintenance)
        #expect(a.effect == .detour)
        #expect(a.severityLevel == .warning)
        #expect(a.url == TranslatedText("https://example.org/a1"))
        #expect(
            a.headerText?.translations == [
                .init(text: "Stop closed", language: "en"), .init(text: "Haltestelle geschlossen", language: "de"),
            ])
        #expect(a.headerText?.text(in: "DE") == "Haltestelle geschlossen")
        #expect(a.descriptionText?.text(in: nil) == "Use stop S2.")
        #expect(a.ttsHeaderText == TranslatedText([.init(text: "Stop closed", language: "en")]))
        #expect(a.ttsDescriptionText == TranslatedText([.init(text: "Use stop S 2", language: "en")]))
        #expect(
            a.image
                == TranslatedImage(localizedImages: [
                    .init(url: "https://example.org/map.png", mediaType: "image/png", language: "en")
                ]))
        #expect(a.imageAlternativeText == TranslatedText("Map of the detour"))
        #expect(a.causeDetail == TranslatedText("Track work"))
        #expect(a.effectDetail == TranslatedText("Buses detour via King St"))
    }

    /// Both encoders write fields in number order, so re-encoding what the official one wrote gives the
    /// same bytes (for fixtures without unknown fields, which we do not keep).
    @Test(arguments: ["official-trip-updates.pb", "official-alerts.pb"])
    func reEncodingGivesTheOfficialBytes(name: String) throws {
        let bytes = try FixtureFile.bytes(name)
        #expect(GTFSRealtimeCodec.encode(try GTFSRealtimeCodec.decode(bytes)) == bytes)
    }
}
