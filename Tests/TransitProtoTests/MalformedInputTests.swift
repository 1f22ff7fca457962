// Bad bytes must throw a ProtoDecodeError that says which message and field, and never crash.
import Testing
import TransitModel
import TransitProto
import TransitTesting

@Suite struct MalformedInputTests {
    @Test func emptyRequestLacksRequestId() {
        // Zero bytes are a valid empty protobuf message: the error is the first missing field.
        #expect(throws: ProtoDecodeError(message: "transit.StaticRequest", field: "request_id", reason: .missingField))
        {
            try StaticCodec.decodeRequest([])
        }
    }

    @Test func requestWithoutQuery() {
        var w = WireWriter()
        w.varint(1, 5)
        #expect(throws: ProtoDecodeError(message: "transit.StaticRequest", field: "query", reason: .missingField)) {
            try StaticCodec.decodeRequest(w.bytes)
        }
    }

    @Test func queryWithoutItsIdentifier() {
        var w = WireWriter()
        w.varint(1, 5)
        w.message(14) { d in d.varint(4, 3) }  // departures { limit: 3 }, no stop_id
        #expect(
            throws: ProtoDecodeError(
                message: "transit.StaticRequest", field: "departures.stop_id", reason: .missingField)
        ) {
            try StaticCodec.decodeRequest(w.bytes)
        }
    }

    @Test func absentDocumentedDefaultsTakeTheModelDefaults() throws {
        var w = WireWriter()
        w.varint(1, 5)
        w.message(12) { n in
            n.double(1, -33.5); n.double(2, 151.25)
        }  // nearby { lat lon }
        let request = try StaticCodec.decodeRequest(w.bytes)
        #expect(request == StaticRequest(requestId: 5, query: .nearby(NearbyQuery(lat: -33.5, lon: 151.25))))
        guard case .nearby(let q) = request.query else { return }
        #expect(q.radiusMetres == 500)
        #expect(q.limit == 10)
    }

    @Test func unknownDirectionValue() {
        var w = WireWriter()
        w.varint(1, 5)
        w.message(14) { d in
            d.string(1, "200060"); d.varint(3, 7)
        }  // direction: 7
        #expect(
            throws: ProtoDecodeError(
                message: "transit.StaticRequest", field: "departures.direction", reason: .unknownEnumValue(7))
        ) {
            try StaticCodec.decodeRequest(w.bytes)
        }
    }

    @Test func unknownStatusValue() {
        var w = WireWriter()
        w.varint(1, 5)
        w.varint(2, 42)
        w.string(3, "?")
        #expect(
            throws: ProtoDecodeError(message: "transit.StaticResponse", field: "status", reason: .unknownEnumValue(42))
        ) {
            try StaticCodec.decodeResponse(w.bytes)
        }
    }

    @Test func errorStatusWithoutMessage() {
        var w = WireWriter()
        w.varint(1, 5)
        w.varint(2, 1)  // NOT_FOUND
        #expect(
            throws: ProtoDecodeError(message: "transit.StaticResponse", field: "error_message", reason: .missingField)
        ) {
            try StaticCodec.decodeResponse(w.bytes)
        }
    }

    @Test func okWithoutResult() {
        var w = WireWriter()
        w.varint(1, 5)
        w.varint(2, 0)
        #expect(throws: ProtoDecodeError(message: "transit.StaticResponse", field: "result", reason: .missingField)) {
            try StaticCodec.decodeResponse(w.bytes)
        }
    }

    @Test func aTripsUndatedRangeThatIsNotARangeIsNone() throws {
        // A reply whose trip has the range 10..<20: its last bytes are field 15 = 10 and field 16 = 20. Patched
        // in place (same lengths) to a reversed range, an empty one, and the lower end alone (field 16 renamed
        // to an unknown field 17). None is a range, and the rest of the trip stands: the gateway then asks
        // again rather than reuse the reply for other times.
        var trip = Fixtures.minimalTrip()
        trip.undatedRange = 10..<20
        let valid = StaticCodec.encode(StaticResponse(requestId: 1, result: .success(.trip(trip))))
        let ends: [UInt8] = [0x78, 10, 0x80, 0x01, 20]
        let at = try #require(
            valid.indices.first { valid[$0...].starts(with: ends) }, "the range's bytes are where expected")
        #expect(try StaticCodec.decodeResponse(valid).result == .success(.trip(trip)))
        trip.undatedRange = nil
        for patch: [UInt8] in [[0x78, 20, 0x80, 0x01, 10], [0x78, 10, 0x80, 0x01, 10], [0x78, 10, 0x88, 0x01, 20]] {
            var bytes = valid
            bytes.replaceSubrange(at..<(at + ends.count), with: patch)
            #expect(try StaticCodec.decodeResponse(bytes).result == .success(.trip(trip)), "\(patch)")
        }
    }

    @Test func absentStatusReadsAsOK() throws {
        var w = WireWriter()
        w.varint(1, 5)
        w.message(13) { _ in }  // routes {}
        #expect(try StaticCodec.decodeResponse(w.bytes) == StaticResponse(requestId: 5, result: .success(.routes([]))))
    }

    @Test func missingFieldDeepInsideNamesThePath() throws {
        // departures { departures[0] ok, departures[1] { route { no route_id } } }
        let good = StaticCodec.encode(
            StaticResponse(requestId: 5, result: .success(.departures(Fixtures.fullBoard(departures: 1)))))
        var w = WireWriter()
        w.varint(1, 5)
        w.message(14) { b in
            b.string(1, "200060"); b.varint(2, 1); b.varint(3, 0); b.varint(7, 0); b.varint(8, 0)
            b.message(4) { d in Self.departure(&d, routeId: "R1") }
            b.message(4) { d in Self.departure(&d, routeId: nil) }
        }
        #expect(!good.isEmpty)
        let error = #expect(throws: ProtoDecodeError.self) { try StaticCodec.decodeResponse(w.bytes) }
        #expect(
            error
                == ProtoDecodeError(
                    message: "transit.StaticResponse", field: "departures.departures[1].route.route_id",
                    reason: .missingField
                ))
        #expect(
            error?.description
                == "cannot decode transit.StaticResponse: missing field departures.departures[1].route.route_id")
    }

    @Test func stopWithoutStopId() {
        var w = WireWriter()
        w.varint(1, 5)
        w.message(11) { list in
            list.message(1) { s in
                s.string(3, "Name"); s.double(4, 1); s.double(5, 2); s.varint(6, 0); s.varint(9, 0)
            }
        }
        #expect(
            throws: ProtoDecodeError(
                message: "transit.StaticResponse", field: "stops.stops[0].stop_id", reason: .missingField)
        ) {
            try StaticCodec.decodeResponse(w.bytes)
        }
    }

    @Test func garbageThrowsMalformed() {
        let garbage: [[UInt8]] = [
            [UInt8](repeating: 0xFF, count: 32),  // a varint that never ends
            [0x0A, 0x05, 0x41],  // a length running past the end
            [0x0F],  // wire type 7 does not exist
            Array("{\"stop\": \"200060\"}".utf8),  // JSON sent to the wrong socket
        ]
        for bytes in garbage {
            #expect(
                throws: ProtoDecodeError(
                    message: "transit.StaticRequest", field: "", reason: .malformed(byteCount: bytes.count))
            ) {
                try StaticCodec.decodeRequest(bytes)
            }
            #expect(throws: ProtoDecodeError.self) { try StaticCodec.decodeResponse(bytes) }
        }
    }

    @Test func malformedDescriptionSaysWhat() {
        let error = ProtoDecodeError(message: "transit.StaticRequest", field: "", reason: .malformed(byteCount: 3))
        #expect(
            error.description
                == "cannot decode transit.StaticRequest: 3 bytes are not a valid protobuf message (truncated or garbage)"
        )
    }

    @Test func everyTruncationOfAResponseFailsOrDiffers() throws {
        let response = StaticResponse(requestId: 77, result: .success(.departures(Fixtures.fullBoard(departures: 2))))
        let bytes = StaticCodec.encode(response)
        var malformed = 0
        for length in 0..<bytes.count {
            let prefix = Array(bytes[..<length])
            do {
                // A cut at a field boundary can decode, but never into the whole original.
                #expect(try StaticCodec.decodeResponse(prefix) != response, "prefix of \(length) bytes")
            } catch {
                if case .malformed(let n) = error.reason { #expect(n == length); malformed += 1 }
            }
        }
        // Most cuts land inside a string or a sub-message.
        #expect(malformed > bytes.count / 2)
    }

    @Test func everyTruncationOfARequestFailsOrDiffers() throws {
        for (label, query) in Fixtures.allQueries {
            let request = StaticRequest(requestId: 300, query: query)
            let bytes = StaticCodec.encode(request)
            for length in 0..<bytes.count {
                #expect(
                    (try? StaticCodec.decodeRequest(Array(bytes[..<length]))) != request, "\(label) cut at \(length)")
            }
        }
    }

    @Test func randomBytesNeverCrash() throws {
        var rng = SplitMix64(seed: 0x5EED)
        let valid = StaticCodec.encode(StaticResponse(requestId: 1, result: .success(.trip(Fixtures.fullTrip()))))
        for round in 0..<2_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int(rng.next() % 200)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            } else {
                // Flip a few bytes of a valid message: gets past the first tag far more often.
                bytes = valid
                for _ in 0..<3 { bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next()) }
            }
            // Whatever decodes must survive another round trip. Compared as bytes: a flipped double can be
            // NaN, which is not equal to itself as a Swift value.
            if let response = try? StaticCodec.decodeResponse(bytes) {
                let encoded = StaticCodec.encode(response)
                #expect(try StaticCodec.encode(StaticCodec.decodeResponse(encoded)) == encoded)
            }
            if let request = try? StaticCodec.decodeRequest(bytes) {
                let encoded = StaticCodec.encode(request)
                #expect(try StaticCodec.encode(StaticCodec.decodeRequest(encoded)) == encoded)
            }
        }
    }

    private static func departure(_ d: inout WireWriter, routeId: String?) {
        d.string(1, "trip")
        d.message(3) { r in
            if let routeId { r.string(1, routeId) }
            r.varint(5, 2); r.string(6, "train"); r.string(9, "T")
        }
        d.string(5, "200060"); d.varint(6, 1); d.varint(7, 20250101); d.varint(8, 100); d.varint(9, 1_700_000_000)
        d.varint(11, 0); d.varint(13, 0)
    }
}
