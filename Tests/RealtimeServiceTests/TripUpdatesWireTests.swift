// `tu` messages are written without protobuf-c (TripUpdatesWire); their bytes must be exactly what the
// protobuf-c path writes for every other payload, so the two can never disagree on the wire.
import Testing
import TransitModel
import TransitProto

@Suite struct TripUpdatesWireTests {
    typealias S = CodecSamples

    /// Every optional absent and present (carriages too), values at the edges of each encoding: negative int32s and int64s
    /// (10-byte varints), clamped direction ids, multi-byte lengths, empty and NUL-containing strings
    /// (protobuf-c cuts them at the NUL), every status and relationship.
    static func extremes() -> LiveTripBatch {
        var edgeStop = LiveStop(
            stopId: "", stopSequence: UInt32.max, assignedStopId: "a\u{0}b", scheduledArrival: Int64.min,
            scheduledDeparture: -1, predictedArrival: Int64.max, predictedDeparture: 0, arrivalDelay: Int32.min,
            departureDelay: Int32.max, status: .noPrediction, departureOccupancy: "",
            stopHeadsign: "Bondi Junction via Oxford St — λ",
            carriages: [
                LiveCarriage(
                    position: Int32.min, name: "", occupancy: "x\u{0}y", departureOccupancy: "λ", quiet: true,
                    toilet: "", luggageRack: false),
                LiveCarriage(), LiveCarriage(position: Int32.max),
                LiveCarriage(name: String(repeating: "é", count: 100)),
            ])
        edgeStop.pickupType = Int32.min  // an int32 the schema allows (a GTFS code is 0–3)
        edgeStop.dropOffType = 0
        var trips: [LiveTrip] = []
        for (i, relationship) in LiveTripRelationship.allCases.enumerated() {
            let statuses = LiveStopStatus.allCases
            trips.append(
                LiveTrip(
                    instance: TripInstanceKey(
                        tripId: "t\(i)é", serviceDate: i == 0 ? 0 : UInt32.max, startSecs: i % 2 == 0 ? Int32.min : nil),
                    relationship: relationship, staticTripId: i % 3 == 0 ? nil : "", routeId: "r\u{0}x",
                    directionId: [nil, Int.max, Int.min, -1, 0][i % 5], vehicleId: i % 2 == 0 ? "v" : nil,
                    vehicleLabel: String(repeating: "λ", count: 200), timestamp: i % 2 == 0 ? UInt64.max : nil,
                    tripDelay: i % 2 == 0 ? -1 : nil,
                    stops: [
                        edgeStop, S.fullStop, S.bareStop,
                        LiveStop(
                            stopId: "s", stopSequence: 1, status: statuses[i % statuses.count],
                            predictionSource: LivePredictionSource.allCases[i % LivePredictionSource.allCases.count]),
                    ],
                    source: i == 1 ? "" : "src", entityId: i % 2 == 0 ? nil : "e\u{0}",
                    tripHeadsign: i % 3 == 1 ? nil : (i == 0 ? "" : "City")))
        }
        return LiveTripBatch(
            trips: trips,
            removed: [
                TripInstanceKey(tripId: "", serviceDate: 0),
                TripInstanceKey(tripId: "x", serviceDate: 20250101, startSecs: -300),
            ])
    }

    /// Big enough for multi-byte lengths at every level.
    static func large() -> LiveTripBatch {
        var trips: [LiveTrip] = []
        for t in 0..<300 {
            var stops: [LiveStop] = []
            for k in 0..<(t % 60) {
                stops.append(
                    LiveStop(
                        stopId: "2000\(k)", stopSequence: UInt32(k + 1),
                        scheduledArrival: 1_766_394_000 + Int64(k * 90),
                        scheduledDeparture: 1_766_394_020 + Int64(k * 90),
                        predictedArrival: 1_766_394_060 + Int64(k * 90),
                        predictedDeparture: 1_766_394_080 + Int64(k * 90), arrivalDelay: Int32(k - 30),
                        departureDelay: 60,
                        status: .predicted,
                        carriages: k % 5 == 0
                            ? (1...8).map { LiveCarriage(position: $0, departureOccupancy: "MANY_SEATS_AVAILABLE") }
                            : []))
            }
            trips.append(
                LiveTrip(
                    instance: TripInstanceKey(tripId: "2459_284.WKD.0.\(t)", serviceDate: 20251222),
                    relationship: .scheduled,
                    staticTripId: "2459_284.WKD.0.\(t)", routeId: "2459_284", directionId: t % 2, vehicleId: "bus-\(t)",
                    timestamp: 1_766_394_000, stops: stops, source: "buses", entityId: "e\(t)"))
        }
        return LiveTripBatch(
            trips: trips, removed: (0..<40).map { TripInstanceKey(tripId: "gone-\($0)", serviceDate: 20251222) })
    }

    static let batches: [(String, LiveTripBatch)] = [
        (
            "samples",
            LiveTripBatch(
                trips: [S.fullTrip, S.bareTrip], removed: [TripInstanceKey(tripId: "R", serviceDate: 1, startSecs: -5)])
        ),
        ("empty", LiveTripBatch()),
        ("extremes", extremes()),
        ("large", large()),
    ]

    @Test func bytesEqualTheProtobufCPath() throws {
        for (label, batch) in Self.batches {
            for (epoch, seq, sent) in [
                (UInt64(1), UInt64(1), Int64(0)), (UInt64.max, UInt64.max, Int64.min), (300, 128, -1),
                (77, 5, Int64.max),
            ] {
                let message = PubMessage(epoch: epoch, seq: seq, sentUnixMs: sent, payload: .tripUpdates(batch))
                let direct = RealtimeCodec.encodeFramed(message)
                let reference = RealtimeCodec.encodeFramedWithProtobufC(message)
                #expect(direct == reference, "\(label), seq \(seq): \(direct.count) vs \(reference.count) bytes")
            }
        }
    }

    /// Big batches are sized and written by several threads, each its own share of trips.
    @Test(arguments: [1, 2, 3, 7, 1000])
    func sameBytesWithAnyNumberOfThreads(workers: Int) throws {
        for (label, batch) in Self.batches {
            let message = PubMessage(epoch: 5, seq: 300, sentUnixMs: 1_766_394_000_123, payload: .tripUpdates(batch))
            let reference = RealtimeCodec.encodeFramedWithProtobufC(message)
            #expect(
                RealtimeCodec.encodeFramed(message, tripWorkers: workers) == reference, "\(label), \(workers) threads")
        }
    }

    @Test func decodesBack() throws {
        let message = PubMessage(epoch: 9, seq: 3, sentUnixMs: 1_766_394_000_123, payload: .tripUpdates(Self.large()))
        #expect(try RealtimeCodec.decodeFramed(RealtimeCodec.encodeFramed(message)) == message)
    }

    @Test func otherPayloadsStillGoThroughProtobufC() {
        let message = PubMessage(epoch: 1, seq: 2, sentUnixMs: 3, payload: .sources([S.fullSource]))
        #expect(RealtimeCodec.encodeFramed(message) == RealtimeCodec.encodeFramedWithProtobufC(message))
    }
}
