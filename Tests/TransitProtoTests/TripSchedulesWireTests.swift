// The bulk schedules are written without protobuf-c (TripSchedulesWire); their bytes must be exactly what
// the protobuf-c path writes, so the two can never disagree on the wire.
import Testing
import TransitModel
import TransitProto

@Suite struct TripSchedulesWireTests {
    static let cases: [Case<TripSchedules>] = [
        Case(label: "full", value: Fixtures.fullSchedules()),
        Case(label: "minimal", value: Fixtures.minimalSchedules()),
        Case(label: "extremes", value: extremes()),
        Case(label: "large", value: large()),
    ]

    /// Values at the edges of every encoding: negative int32s (10-byte varints), clamped Ints, multi-byte
    /// varints and lengths, empty and NUL-containing strings (protobuf-c cuts them at the NUL).
    static func extremes() -> TripSchedules {
        TripSchedules(
            databaseVersion: "v\u{0}hidden",
            patterns: [
                Pattern(
                    patternId: UInt32.max,
                    stops: [
                        PatternStop(
                            stopId: "", stopSequence: UInt32.max, arrivalOffset: Int32.min, departureOffset: -1,
                            pickupType: Int.max, dropOffType: Int.min),
                        PatternStop(
                            stopId: String(repeating: "é", count: 100), stopSequence: 0, arrivalOffset: Int32.max,
                            departureOffset: 127, pickupType: 128, dropOffType: -128, timepoint: false),
                    ]),
                Pattern(patternId: 0, stops: []),
            ],
            trips: [
                TripSchedule(
                    tripId: "", routeId: "r\u{0}", routeType: Int.max, directionId: Int.min, patternId: 0,
                    startSecs: Int32.min,
                    frequencies: [
                        FrequencyWindow(startSecs: -1, endSecs: 0, headwaySecs: Int32.max, exactTimes: false)
                    ],
                    serviceDates: [0, UInt32.max], timezone: ""
                ),
                TripSchedule(
                    tripId: "x", routeId: "y", routeType: -1, directionId: 0, patternId: 1, startSecs: 0,
                    serviceDates: [], timezone: "America/New_York"),
            ],
            unknownTripIds: ["", "\u{0}", "a\u{0}b"],
            descriptorMatches: [[], [""], ["x", String(repeating: "é", count: 100)], []]
        )
    }

    /// Big enough for multi-byte lengths at every level.
    static func large() -> TripSchedules {
        let stops = (0..<300).map {
            PatternStop(
                stopId: "stop-\($0)", stopSequence: UInt32($0 * 10), arrivalOffset: Int32($0 * 90),
                departureOffset: Int32($0 * 90 + 30), pickupType: $0 % 4, dropOffType: $0 % 3)
        }
        return TripSchedules(
            databaseVersion: "db",
            patterns: (0..<40).map { Pattern(patternId: UInt32($0 * 1000), stops: Array(stops.prefix(100 + $0 * 5))) },
            trips: (0..<500).map {
                TripSchedule(
                    tripId: "trip-\($0)", routeId: "route-\($0 % 7)", routeType: 700, directionId: $0 % 2,
                    patternId: UInt32($0 % 40 * 1000), startSecs: Int32(20_000 + $0 * 60),
                    serviceDates: [20251222, 20251223], timezone: "Australia/Sydney")
            },
            unknownTripIds: (0..<50).map { "missing-\($0)" },
            descriptorMatches: (0..<200).map { i in (0..<(i % 3)).map { "trip-\(i + $0)" } }
        )
    }

    @Test(arguments: cases)
    func bytesEqualTheProtobufCPath(_ c: Case<TripSchedules>) throws {
        for requestId in [0, 1, 300, UInt64.max] {
            for servedBy in [nil, "static-2", "host.example:4242"] {
                for version in [nil, "", "6F9619FF-8B86-D011-B42D-00CF4FC964FF-1766373300"] {
                    let response = StaticResponse(
                        requestId: requestId, result: .success(.tripSchedules(c.value)), servedBy: servedBy,
                        databaseVersion: version)
                    let direct = StaticCodec.encode(response)
                    let reference = StaticCodec.encodeWithProtobufC(response)
                    #expect(
                        direct == reference,
                        "\(c.label), request \(requestId), served by \(servedBy ?? "-"), version \(version ?? "-"): \(direct.count) vs \(reference.count) bytes"
                    )
                }
            }
        }
    }

    @Test func decodesBack() throws {
        let response = StaticResponse(
            requestId: 9, result: .success(.tripSchedules(Self.large())), servedBy: "replica-b",
            databaseVersion: "v2")
        #expect(try StaticCodec.decodeResponse(StaticCodec.encode(response)) == response)
    }
}
