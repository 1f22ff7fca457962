// RealtimeCodec: Swift value -> bytes -> the same value, for every payload, envelope and optional; framing;
// bad bytes give errors, never a crash.
import Testing
import TransitModel
import TransitProto

enum CodecSamples {
    static let fullStop: LiveStop = {
        var stop = LiveStop(
            stopId: "20006016", stopSequence: 7, assignedStopId: "20006017", scheduledArrival: 1_766_394_000,
            scheduledDeparture: 1_766_394_060, predictedArrival: 1_766_394_090, predictedDeparture: 1_766_394_150,
            arrivalDelay: 90, departureDelay: 90, status: .predicted, predictionSource: .vehicle,
            departureOccupancy: "FEW_SEATS_AVAILABLE",
            stopHeadsign: "Via Strathfield",
            carriages: [
                LiveCarriage(position: 1, departureOccupancy: "MANY_SEATS_AVAILABLE"),
                LiveCarriage(
                    position: -2, name: "DTC1", occupancy: "FULL", departureOccupancy: "", quiet: false,
                    toilet: "ACCESSIBLE", luggageRack: true),
                LiveCarriage(),
            ])
        stop.assignedPlatform = "17"
        stop.pickupType = 1
        stop.dropOffType = 3
        return stop
    }()
    static let bareStop = LiveStop(stopId: "S", stopSequence: 0, status: .noData)

    static let fullTrip = LiveTrip(
        instance: TripInstanceKey(tripId: "B:T1.WKD.0.0510", serviceDate: 20_251_222, startSecs: 18_600),
        relationship: .duplicated, staticTripId: "B:T1", routeId: "B:ST_T1", directionId: 1, vehicleId: "A42",
        vehicleLabel: "A42 Waratah", timestamp: 1_766_393_990, tripDelay: -30,
        stops: [fullStop, bareStop, LiveStop(stopId: "X", stopSequence: 9, status: .skipped)], source: "tu-trains",
        entityId: "e1", tripHeadsign: "Emu Plains")
    static let bareTrip = LiveTrip(
        instance: TripInstanceKey(tripId: "T", serviceDate: 20_250_101), relationship: .deleted, source: "s")

    static let fullVehicle = LiveVehicle(
        key: "vp/v1", source: "vp", entityId: "v1", trip: TripInstanceKey(tripId: "T", serviceDate: 20_251_222),
        tripId: "T", routeId: "R", directionId: 0, startTime: "08:10:00", startDate: "20251222",
        tripRelationship: "SCHEDULED", vehicleId: "A42", label: "Waratah", licensePlate: "ABC123",
        position: LivePosition(lat: -33.8735, lon: 151.2069, bearing: 185.5, speed: 11.25, odometer: 1234.5),
        currentStopSequence: 12, stopId: "2000331", currentStatus: "IN_TRANSIT_TO", timestamp: 1_766_394_000,
        congestionLevel: "RUNNING_SMOOTHLY", occupancyStatus: "MANY_SEATS_AVAILABLE", occupancyPercentage: 35,
        wheelchairAccessible: "WHEELCHAIR_ACCESSIBLE",
        carriages: [
            LiveCarriage(
                position: 1, name: "D6123", occupancy: "MANY_SEATS_AVAILABLE", quiet: true, toilet: "NONE",
                luggageRack: false),
            LiveCarriage(position: 2, name: "N5123"),
        ],
        features: LiveVehicleFeatures(
            airConditioned: true, wheelchairAccessible: false, model: "A", performingPriorTrip: false,
            specialAttributes: 0))
    static let bareVehicle = LiveVehicle(key: "vp/v2", source: "vp", entityId: "v2")

    static let fullAlert = LiveAlert(
        key: "al/a1", source: "al", entityId: "a1",
        activePeriods: [LivePeriod(start: 100, end: nil), LivePeriod(start: nil, end: 300), LivePeriod()],
        communicationPeriods: [LivePeriod(start: 50, end: 60)], impactPeriods: [LivePeriod(start: 70)],
        informedEntities: [
            LiveInformedEntity(stopId: "200060"),
            LiveInformedEntity(
                agencyId: "A", routeId: "R", routeType: 2, directionId: 1, tripId: "T",
                tripStartDate: "20251222", tripStartTime: "25:10:00"),
        ],
        cause: "MAINTENANCE", effect: "ACCESSIBILITY_ISSUE", severity: "WARNING",
        headerText: TranslatedText([.init(text: "Lifts out", language: "en"), .init(text: "电梯停用", language: "zh-Hans")]
        ),
        descriptionText: TranslatedText([.init(text: "Use the other lifts.")]),
        url: TranslatedText([.init(text: "https://x")]),
        ttsHeaderText: TranslatedText([.init(text: "Lifts out")]), ttsDescriptionText: TranslatedText([]),
        causeDetail: TranslatedText([.init(text: "c")]), effectDetail: TranslatedText([.init(text: "e")]),
        image: TranslatedImage(localizedImages: [
            .init(url: "https://x/map.png", mediaType: "image/png"),
            .init(url: "https://x/karte.svg", mediaType: "image/svg+xml", language: "de"),
        ]),
        imageAlternativeText: TranslatedText([.init(text: "Detour map")]))
    static let bareAlert = LiveAlert(key: "al/a2", source: "al", entityId: "a2")

    static let fullSource: LiveSourceStatus = {
        var status = LiveSourceStatus(
            name: "tu-trains", kind: .auto, detectedKinds: [.tripUpdates, .vehiclePositions],
            feedTimestamp: 1_766_394_000,
            lastFetchUnix: 1_766_394_002, lastSuccessUnix: 1_766_394_001, stale: false, staleAfterSecs: 90,
            updatesApplied: 12, notModified: 3, olderIgnored: 1, errors: 2, lastError: "timeout", lastErrorUnix: 5,
            entities: 41, drops: ["unknown_trip": 4, "absurd_delay": 1], lastDrop: "unknown_trip: T9", statusUnix: 6,
            skippedFields: [
                LiveSkippedField(path: "entity.trip_update.stop_time_update.6", count: 1901, first: "first"),
                LiveSkippedField(path: "x", count: 0, first: ""),
            ])
        status.stopMismatches = 7
        status.firstStopMismatch = "entity 'e', trip T: stop_sequence 2 is stop A, stop_id B is stop_sequence 4"
        return status
    }()
    static let bareSource = LiveSourceStatus(name: "x", kind: .alerts)

    static let payloads: [LivePayload] = [
        .tripUpdates(
            LiveTripBatch(
                trips: [fullTrip, bareTrip], removed: [TripInstanceKey(tripId: "R", serviceDate: 1, startSecs: -5)])),
        .tripUpdates(LiveTripBatch()),
        .vehicles(LiveVehicleBatch(vehicles: [fullVehicle, bareVehicle], removed: ["vp/v3"])),
        .alerts(LiveAlertBatch(alerts: [fullAlert, bareAlert], removed: ["al/a3", "al/a4"])),
        .sources([fullSource, bareSource]),
        .heartbeat(
            LiveHeartbeat(
                sources: [fullSource], sequences: [.tripUpdates: 7, .vehicles: 0, .alerts: 3, .sources: 9],
                databaseVersion: "v1", residentBytes: 319 << 20)),
        .heartbeat(LiveHeartbeat(sources: [], sequences: [:])),
    ]
}

@Suite struct CodecTests {
    @Test(arguments: CodecSamples.payloads.indices)
    func pubMessageRoundTrips(_ index: Int) throws {
        let message = PubMessage(
            epoch: .max, seq: UInt64(index + 1), sentUnixMs: 1_766_394_000_123,
            payload: CodecSamples.payloads[index])
        let framed = RealtimeCodec.encodeFramed(message)
        // Frame: topic bytes, one 0x00, then protobuf.
        let topic = Array(message.topic.rawValue.utf8)
        #expect(Array(framed.prefix(topic.count + 1)) == topic + [0])
        #expect(framed.starts(with: message.topic.prefix))
        #expect(try RealtimeCodec.decodeFramed(framed) == message)
    }

    @Test func frameTopicMustMatchPayload() throws {
        var framed = RealtimeCodec.encodeFramed(PubMessage(epoch: 1, seq: 1, sentUnixMs: 0, payload: .sources([])))
        framed[0] = UInt8(ascii: "h")
        framed[1] = UInt8(ascii: "b")  // "hb" frame around an "st" payload
        #expect(throws: ProtoDecodeError.self) { try RealtimeCodec.decodeFramed(framed) }
        #expect(throws: ProtoDecodeError.self) { try RealtimeCodec.decodeFramed(Array("tu".utf8)) }  // no separator
    }

    @Test func truncatedFramesNeverCrash() throws {
        let framed = RealtimeCodec.encodeFramed(
            PubMessage(epoch: 3, seq: 4, sentUnixMs: 5, payload: CodecSamples.payloads[0]))
        var failures = 0
        for cut in 0..<framed.count {
            do { _ = try RealtimeCodec.decodeFramed(Array(framed.prefix(cut))) } catch { failures += 1 }
        }
        // Every cut must fail: the framing, the required epoch/seq/payload or the unpack.
        #expect(failures == framed.count)
    }

    static let queries: [RealtimeQuery] = [
        .snapshot(.tripUpdates), .snapshot(.sources),
        .trip(LiveTripQuery(tripId: "T")),
        .trip(LiveTripQuery(tripId: "T", serviceDate: 20_251_222, startSecs: 30_000)),
        .stop(LiveStopQuery(stopId: "200060")),
        .stop(LiveStopQuery(stopId: "200060", fromUnix: 1, toUnix: 2, limit: 5)),
        .vehicles(.all), .vehicles(.trip("T")), .vehicles(.route("R")), .vehicles(.vehicle("V")),
        .alerts(LiveAlertQuery()),
        .alerts(LiveAlertQuery(stopId: "S", routeId: "R", routeType: 3, tripId: "T", agencyId: "A", activeAt: 7)),
        .sources,
        .delayHistograms([
            DelaySlice(routeId: "R", stopId: nil), DelaySlice(routeId: nil, stopId: "S", hour: 0, dayType: .sunday),
            DelaySlice(routeId: "R", stopId: "S", hour: 23, dayType: .weekday),
        ]),
    ]

    @Test(arguments: queries)
    func requestRoundTrips(_ query: RealtimeQuery) throws {
        let request = RealtimeRequest(requestId: 42, query: query)
        #expect(try RealtimeCodec.decodeRequest(RealtimeCodec.encode(request)) == request)
    }

    static let results: [Result<RealtimeResult, ServiceError>] = [
        .success(.snapshot(RealtimeSnapshot(epoch: 9, seq: 0, payload: CodecSamples.payloads[0]))),
        .success(.snapshot(RealtimeSnapshot(epoch: 9, seq: 3, payload: CodecSamples.payloads[2]))),
        .success(.snapshot(RealtimeSnapshot(epoch: 9, seq: 3, payload: CodecSamples.payloads[3]))),
        .success(.snapshot(RealtimeSnapshot(epoch: 9, seq: 3, payload: CodecSamples.payloads[4]))),
        .success(.trips([CodecSamples.fullTrip, CodecSamples.bareTrip])), .success(.trips([])),
        .success(
            .visits([
                LiveStopVisit(
                    trip: CodecSamples.fullTrip.instance, relationship: .scheduled, routeId: "R", source: "s",
                    stop: CodecSamples.fullStop, stopIndex: 3, isLastStop: true)
            ])),
        .success(.vehicles([CodecSamples.fullVehicle])), .success(.alerts([CodecSamples.fullAlert])),
        .success(.sources([CodecSamples.fullSource], failedSends: 3)),
        .success(.sources([], failedSends: 0, residentBytes: 125 << 20)),
        .failure(ServiceError(.notFound, "no trip T")), .failure(ServiceError(.invalidArgument, "limit")),
        .success(
            .delayHistograms([
                DelayWindowHistogram(histogram: DelayHistogram(), firstDate: 20_251_201, lastDate: 20_251_222),
                DelayWindowHistogram(
                    histogram: {
                        var h = DelayHistogram()
                        for d in [-2000, -60, 0, 59, 60, 1799, 1800, 99_999] { h.add(delay: d) }
                        return h
                    }(), firstDate: 20_251_201, lastDate: 20_251_215),
            ])),
    ]

    @Test(arguments: results.indices)
    func responseRoundTrips(_ index: Int) throws {
        let response = RealtimeResponse(requestId: 7, result: Self.results[index])
        #expect(try RealtimeCodec.decodeResponse(RealtimeCodec.encode(response)) == response)
    }

    @Test func garbageRequestsThrow() {
        for bytes: [UInt8] in [[0xFF, 0xFF, 0xFF], Array("<html>".utf8), [0x08, 0x01]] {
            #expect(throws: ProtoDecodeError.self) { try RealtimeCodec.decodeRequest(bytes) }
        }
    }
}
