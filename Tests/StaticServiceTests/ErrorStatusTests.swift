import Foundation
import NNGKit
import SQLiteKit
import StaticService
import Testing
import TransitModel
import TransitProto
import TransitTesting

/// Failures become statuses with messages, never a crash or a silent reply.
@Suite struct ErrorStatusTests {
    let service: ServiceFixture

    init() throws { service = try ServiceFixture() }

    @Test(arguments: [
        [UInt8](),  // an empty message decodes as a request without a query
        [0xFF, 0xFF, 0xFF],
        Array("{\"op\":\"stop\"}".utf8),
        [0x0A, 0x05, 0x0A, 0x03],  // truncated sub-message
    ])
    func badRequestBytes(_ bytes: [UInt8]) throws {
        let reply = try service.client.request(bytes)
        let response = try StaticCodec.decodeResponse(reply)
        #expect(response.failure?.status == .badRequest)
        #expect(response.failure?.message.contains("cannot decode") == true)
        #expect(response.requestId == 0)
        // The service still answers afterwards.
        #expect(try service.ask(.feedInfo).failure == nil)
    }

    @Test func unknownIdsAreNotFound() throws {
        let stop = try service.ask(.stop(StopQuery(stopId: "NOPE")), id: 9)
        #expect(stop.requestId == 9)
        #expect(stop.failure?.status == .notFound)
        #expect(stop.failure?.message.contains("NOPE") == true)
        #expect(
            try service.ask(.departures(DeparturesQuery(stopId: "NOPE", at: SampleTimes.mondayMorning))).failure?.status
                == .notFound)
        #expect(
            try service.ask(.trip(TripQuery(tripId: "NOPE", at: SampleTimes.mondayMorning))).failure?.status
                == .notFound)
    }

    @Test func tripNotRunningOnTheDateIsNotFound() throws {
        let response = try service.ask(
            .trip(TripQuery(tripId: "TA", serviceDate: 20350101, at: SampleTimes.mondayMorning)))
        #expect(response.failure?.status == .notFound)
    }

    @Test(arguments: [
        (StaticQuery.search(SearchQuery(query: "x", limit: 0)), "limit"),
        (.search(SearchQuery(query: "x", limit: 101)), "limit"),
        (.departures(DeparturesQuery(stopId: "STA", at: SampleTimes.mondayMorning, limit: 500)), "limit"),
        (.departures(DeparturesQuery(stopId: "STA", at: -5)), "at"),
        (.departures(DeparturesQuery(stopId: "", at: SampleTimes.mondayMorning)), "stop_id"),
        (.departures(DeparturesQuery(stopId: "STA", at: SampleTimes.mondayMorning, cursor: "garbage")), "cursor"),
        (.nearby(NearbyQuery(lat: 91, lon: 151, radiusMetres: 100)), "lat"),
        (.nearby(NearbyQuery(lat: -33, lon: -181, radiusMetres: 100)), "lon"),
        (.nearby(NearbyQuery(lat: .nan, lon: 151, radiusMetres: 100)), "lat"),
        (.nearby(NearbyQuery(lat: -33, lon: 151, radiusMetres: 0)), "radius_m"),
        (.nearby(NearbyQuery(lat: -33, lon: 151, radiusMetres: 5001)), "radius_m"),
        (.routes(RoutesQuery(mode: "hovercraft")), "hovercraft"),
        (.trip(TripQuery(tripId: "TA", serviceDate: 20250230, at: SampleTimes.mondayMorning)), "date"),
        (
            .trip(
                TripQuery(tripId: "BUSF", serviceDate: 20251222, startTime: "8 o'clock", at: SampleTimes.mondayMorning)),
            "start_time"
        ),
        (.tripSchedules(TripSchedulesQuery(tripIds: ["TA"], fromDate: 20251223, toDate: 20251222)), "after"),
        (.tripSchedules(TripSchedulesQuery(tripIds: [], fromDate: 20251222, toDate: 20251222)), "trip_ids"),
        (.tripSchedules(TripSchedulesQuery(tripIds: ["TA"], fromDate: 20251301, toDate: 20251302)), "from_date"),
        (
            .tripSchedules(
                TripSchedulesQuery(tripIds: ["TA"], fromDate: 20251222, toDate: 20251222, knownPatternIds: [1])),
            "known_database_version"
        ),
        (
            .tripSchedules(
                TripSchedulesQuery(
                    tripIds: ["TA"], fromDate: 20251222, toDate: 20251222, knownPatternIds: [1],
                    knownDatabaseVersion: "")), "known_database_version"
        ),
        (
            .tripSchedules(
                TripSchedulesQuery(
                    tripIds: ["TA"], fromDate: 20251222, toDate: 20251222, knownPatternIds: [1],
                    knownDatabaseVersion: String(repeating: "v", count: 256))), "known_database_version"
        ),
        (
            .tripSchedules(
                TripSchedulesQuery(
                    tripIds: [], fromDate: 20251222, toDate: 20251222,
                    descriptors: [
                        TripStartDescriptor(routeId: "R1", directionId: 0, startDate: 20251322, startTime: "08:00:00")
                    ])),
            "descriptors[0].start_date"
        ),
        (
            .tripSchedules(
                TripSchedulesQuery(
                    tripIds: [], fromDate: 20251222, toDate: 20251222,
                    descriptors: [
                        TripStartDescriptor(routeId: "", directionId: 0, startDate: 20251222, startTime: "08:00:00")
                    ])),
            "descriptors[0].route_id"
        ),
        (
            .tripSchedules(
                TripSchedulesQuery(
                    tripIds: [], fromDate: 20251222, toDate: 20251222,
                    descriptors: [
                        TripStartDescriptor(routeId: "R1", directionId: 0, startDate: 20251222, startTime: "8am")
                    ])),
            "descriptors[0].start_time"
        ),
    ])
    func outOfRangeArgumentsAreInvalid(_ query: StaticQuery, _ field: String) throws {
        let response = try service.ask(query)
        #expect(response.failure?.status == .invalidArgument, "\(query)")
        #expect(
            response.failure?.message.contains(field) == true,
            "message \(response.failure?.message ?? "-") names \(field)")
    }

    @Test func limitsAtTheBoundsAreAccepted() throws {
        #expect(try service.ask(.search(SearchQuery(query: "central", limit: 1))).failure == nil)
        #expect(try service.ask(.search(SearchQuery(query: "central", limit: 100))).failure == nil)
        #expect(
            try service.ask(.nearby(NearbyQuery(lat: -90, lon: 180, radiusMetres: 5000, limit: 100))).failure == nil)
    }

    /// A database the catalog loads but a query cannot read: the failure is INTERNAL and logged with the request.
    @Test func databaseFailureIsInternalAndLogged() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("broken.db")
        try importFeed(TestFeed(), folder: folder, into: db)
        try Database(path: db).exec("DROP TABLE stop_routes")
        let log = LogRecorder()
        let url = "ipc://\(folder.path("s.sock"))"
        let server = try StaticServer(
            configuration: .init(databasePath: db, listenURL: url, contexts: 2), logger: log.logger)
        defer { server.stop() }
        let client = try NNGRequester(dialing: url, defaultTimeout: .seconds(10))
        defer { client.close() }

        let reply = try client.request(
            StaticCodec.encode(StaticRequest(requestId: 77, query: .stop(StopQuery(stopId: "STA")))))
        let response = try StaticCodec.decodeResponse(reply)
        #expect(response.requestId == 77)
        #expect(response.failure?.status == .internal)
        #expect(response.failure?.message.contains("stop_routes") == true)
        let logged = try #require(log.all.first { $0.level == .error })
        #expect(logged.metadata["request_id"] == "77")
        #expect(logged.metadata["query"]?.contains("STA") == true)
    }
}
