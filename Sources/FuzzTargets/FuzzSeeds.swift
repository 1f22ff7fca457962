// Seed inputs made by the encoders, for the targets whose inputs no fixture file holds: the internal messages,
// and GTFS-Realtime feeds naming the fixed schedule's trips and stops. `transit-fuzz --write-seeds DIR` writes
// them; scripts/fuzz adds the fixtures (and real captures, when present) at run time.
import GTFSRealtime
import TransitModel
import TransitProto

extension FuzzTarget {
    /// Encoded example inputs of this target (named), to start the fuzzer from valid messages.
    public var generatedSeeds: [(name: String, bytes: [UInt8])] {
        switch self {
        case .gtfsRealtime: FuzzSeeds.feeds
        case .csv, .gatewayRequest: []
        case .transitProto: FuzzSeeds.staticMessages
        case .realtimeProto: FuzzSeeds.realtimeMessages
        }
    }
}

enum FuzzSeeds {
    static let day = FuzzGTFSRealtime.day
    static let dayStart: Int64 = 1_741_910_400

    static var feeds: [(name: String, bytes: [UInt8])] {
        var stops: [StopTimeUpdate] = []
        for k in 1...6 {
            let departure: Int64 = dayStart + 28_800 + Int64(k) * 300 + 60
            let relationship: StopTimeScheduleRelationship? = k == 4 ? .skipped : nil
            stops.append(
                StopTimeUpdate(
                    stopSequence: UInt32(k * 10), stopId: "S\(k)", arrival: StopTimeEvent(delay: Int32(k * 30)),
                    departure: StopTimeEvent(time: departure), scheduleRelationship: relationship))
        }
        let t1 = TripUpdate(
            trip: TripDescriptor(tripId: "T1", startDate: "20250314"), vehicle: VehicleDescriptor(id: "V1"),
            stopTimeUpdates: stops, timestamp: UInt64(dayStart + 29_000), delay: 60)
        let t2 = TripUpdate(
            trip: TripDescriptor(tripId: "T2", startTime: "07:10:00", startDate: "20250314"),
            stopTimeUpdates: Array(stops.prefix(3)))
        let cancelled = TripUpdate(
            trip: TripDescriptor(tripId: "T1", startDate: "20250314", scheduleRelationship: .canceled))
        let header = FeedHeader(timestamp: UInt64(dayStart + 29_000))
        func feed(_ updates: [TripUpdate]) -> [UInt8] {
            GTFSRealtimeCodec.encode(
                FeedMessage(
                    header: header,
                    entities: updates.enumerated().map { FeedEntity(id: "e\($0.offset)", tripUpdate: $0.element) }))
        }
        return [("schedule-trips.pb", feed([t1, t2])), ("schedule-cancelled.pb", feed([cancelled]))]
    }

    static var staticMessages: [(name: String, bytes: [UInt8])] {
        let queries: [(String, StaticQuery)] = [
            ("stop", .stop(StopQuery(stopId: "200060"))),
            ("search", .search(SearchQuery(query: "central", limit: 5, mode: "train", includePlatforms: true))),
            ("nearby", .nearby(NearbyQuery(lat: -33.88, lon: 151.2, radiusMetres: 300))),
            ("routes", .routes(RoutesQuery(mode: "bus"))),
            ("departures", .departures(DeparturesQuery(stopId: "200060", at: 1_766_394_000, limit: 3))),
            ("trip", .trip(TripQuery(tripId: "T1", serviceDate: day, startTime: "08:00:00"))),
            ("feed-info", .feedInfo),
            ("shape", .shape(ShapeQuery(tripId: "T1"))),
            ("route", .route(RouteQuery(routeId: "ST_T1"))),
            (
                "stops-in-bbox",
                .stopsInBBox(StopsInBBoxQuery(minLat: -33.9, minLon: 151.1, maxLat: -33.8, maxLon: 151.3, mode: "bus"))
            ),
        ]
        var seeds = queries.map {
            ("request-\($0.0).bin", StaticCodec.encode(StaticRequest(requestId: 7, query: $0.1)))
        }
        let failure = StaticResponse(requestId: 7, result: .failure(ServiceError(.notFound, "unknown stop_id")))
        seeds.append(("response-error.bin", StaticCodec.encode(failure)))
        let shape = Shape(
            shapeId: "S1", source: .shapes, polyline: "_p~iF~ps|U_ulLnnqC_mqNvxq`@", pointCount: 3,
            distances: [0, 250.5, 900])
        seeds.append(
            ("response-shape.bin", StaticCodec.encode(StaticResponse(requestId: 7, result: .success(.shape(shape))))))
        return seeds
    }

    static var realtimeMessages: [(name: String, bytes: [UInt8])] {
        let requests: [(String, RealtimeQuery)] = [
            ("snapshot", .snapshot(.tripUpdates)),
            ("trip", .trip(LiveTripQuery(tripId: "T1", serviceDate: day, startSecs: 28_800))),
            ("stop", .stop(LiveStopQuery(stopId: "S1", fromUnix: dayStart, toUnix: dayStart + 3_600, limit: 5))),
            ("sources", .sources),
        ]
        var seeds = requests.map {
            ("request-\($0.0).bin", RealtimeCodec.encode(RealtimeRequest(requestId: 9, query: $0.1)))
        }
        seeds.append(
            (
                "response-sources.bin",
                RealtimeCodec.encode(RealtimeResponse(requestId: 9, result: .success(.sources([], failedSends: 2))))
            ))
        let payloads: [(String, LivePayload)] = [
            ("heartbeat", .heartbeat(LiveHeartbeat(sources: [], sequences: [.tripUpdates: 4], databaseVersion: "v1"))),
            ("trips", .tripUpdates(LiveTripBatch(trips: [], removed: []))),
            ("vehicles", .vehicles(LiveVehicleBatch(vehicles: [], removed: ["V1"]))),
            ("alerts", .alerts(LiveAlertBatch(alerts: [], removed: ["A1"]))),
        ]
        for (name, payload) in payloads {
            let message = PubMessage(epoch: 1, seq: 5, sentUnixMs: 1_741_939_200_000, payload: payload)
            seeds.append(("pub-\(name).bin", RealtimeCodec.encodeFramed(message)))
        }
        return seeds
    }
}
