import GTFSRealtime
import Testing
import TransitModel

@Suite struct RoundTripTests {
    @Test func everyFieldSet() throws {
        let feed = Samples.fullFeed()
        let decoded = try GTFSRealtimeCodec.decode(GTFSRealtimeCodec.encode(feed))
        #expect(decoded == feed)
        #expect(decoded.problems.isEmpty)
    }

    @Test func everyOptionalAbsent() throws {
        let feed = Samples.minimalFeed()
        let bytes = GTFSRealtimeCodec.encode(feed)
        let decoded = try GTFSRealtimeCodec.decode(bytes)
        #expect(decoded == feed)
        // Absent stays absent: nothing decodes to a default value.
        let tu = try #require(decoded.entities[1].tripUpdate)
        #expect(tu.trip.scheduleRelationship == nil)
        #expect(tu.stopTimeUpdates[0].scheduleRelationship == nil)
        #expect(tu.stopTimeUpdates[0].arrival == StopTimeEvent())
        #expect(tu.stopTimeUpdates[0].departure == nil)
        #expect(decoded.header.incrementality == nil)
        #expect(decoded.entities[0].isDeleted == nil)
        #expect(decoded.entities[3].alert?.cause == nil)
        #expect(decoded.entities[3].alert?.headerText == TranslatedText([]))
    }

    @Test func defaultsSentExplicitlyStayPresent() throws {
        var feed = Samples.minimalFeed()
        feed.header.incrementality = .fullDataset
        feed.entities[0].isDeleted = false
        feed.entities[1].tripUpdate?.trip.scheduleRelationship = .scheduled
        feed.entities[1].tripUpdate?.trip.directionId = 0
        feed.entities[1].tripUpdate?.delay = 0
        let decoded = try GTFSRealtimeCodec.decode(GTFSRealtimeCodec.encode(feed))
        #expect(decoded.header.incrementality == .fullDataset)
        #expect(decoded.entities[0].isDeleted == false)
        #expect(decoded.entities[1].tripUpdate?.trip.scheduleRelationship == .scheduled)
        #expect(decoded.entities[1].tripUpdate?.trip.directionId == 0)
        #expect(decoded.entities[1].tripUpdate?.delay == 0)
    }

    struct EntityCase: CustomTestStringConvertible, Sendable {
        let testDescription: String
        let entity: FeedEntity
    }

    @Test(arguments: [
        EntityCase(
            testDescription: "full trip update", entity: FeedEntity(id: "t", tripUpdate: Samples.fullTripUpdate())),
        EntityCase(
            testDescription: "cancelled trip",
            entity: FeedEntity(
                id: "t", tripUpdate: TripUpdate(trip: TripDescriptor(tripId: "x", scheduleRelationship: .canceled)))),
        EntityCase(
            testDescription: "full vehicle", entity: FeedEntity(id: "v", vehicle: Samples.fullVehiclePosition())),
        EntityCase(testDescription: "empty vehicle", entity: FeedEntity(id: "v", vehicle: VehiclePosition())),
        EntityCase(testDescription: "full alert", entity: FeedEntity(id: "a", alert: Samples.fullAlert())),
        EntityCase(
            testDescription: "route type alert",
            entity: FeedEntity(id: "a", alert: Alert(informedEntities: [EntitySelector(routeType: 3)]))),
        EntityCase(testDescription: "deleted entity", entity: FeedEntity(id: "d", isDeleted: true)),
    ])
    func eachMessageAlone(_ c: EntityCase) throws {
        let feed = FeedMessage(header: FeedHeader(timestamp: 5), entities: [c.entity])
        #expect(try GTFSRealtimeCodec.decode(GTFSRealtimeCodec.encode(feed)) == feed)
    }

    @Test func everyEnumCaseAndUnknownNumbers() throws {
        // One stop time update per occupancy value, plus numbers newer than our schema.
        let occupancies = OccupancyStatus.knownCases + [.unknown(9), .unknown(1000), .unknown(-2)]
        let relationships = TripScheduleRelationship.knownCases + [.unknown(4), .unknown(99)]
        var entities: [FeedEntity] = []
        for (i, relationship) in relationships.enumerated() {
            let stops = occupancies.map {
                StopTimeUpdate(departureOccupancyStatus: $0, scheduleRelationship: .unknown(17))
            }
            entities.append(
                FeedEntity(
                    id: "\(i)",
                    tripUpdate: TripUpdate(
                        trip: TripDescriptor(scheduleRelationship: relationship), stopTimeUpdates: stops)))
        }
        let alerts = AlertEffect.knownCases.map { effect in
            FeedEntity(
                id: "a\(effect.rawValue)",
                alert: Alert(
                    informedEntities: [EntitySelector()], cause: .unknown(77), effect: effect,
                    severityLevel: .unknown(0)))
        }
        let feed = FeedMessage(header: FeedHeader(incrementality: .unknown(2)), entities: entities + alerts)
        let decoded = try GTFSRealtimeCodec.decode(GTFSRealtimeCodec.encode(feed))
        #expect(decoded == feed)
        #expect(decoded.header.incrementality == .unknown(2))
        #expect(decoded.entities[0].tripUpdate?.stopTimeUpdates.last?.departureOccupancyStatus == .unknown(-2))
    }

    @Test func largeFeed() throws {
        let feed = Samples.busFeed(trips: 300, stops: 40)
        let bytes = GTFSRealtimeCodec.encode(feed)
        let decoded = try GTFSRealtimeCodec.decode(bytes)
        #expect(decoded == feed)
        #expect(decoded.entities.count == 300)
        #expect(decoded.entities[299].tripUpdate?.stopTimeUpdates.count == 40)
    }

    @Test func decodesFromEveryCollectionKind() throws {
        let feed = Samples.fullFeed()
        let bytes = GTFSRealtimeCodec.encode(feed)
        #expect(try GTFSRealtimeCodec.decode(bytes[...]) == feed)
        #expect(try GTFSRealtimeCodec.decode(ContiguousArray(bytes)) == feed)
        // Not contiguous: decoded from a copy.
        #expect(try GTFSRealtimeCodec.decode(bytes.lazy.map { $0 }) == feed)
        #expect(try bytes.withUnsafeBytes { try GTFSRealtimeCodec.decode($0) } == feed)
    }
}
