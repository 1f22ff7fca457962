// Swift value -> bytes -> Swift value must give back the same value, for every query and result kind.
import Testing
import TransitModel
import TransitProto
import TransitTesting

@Suite struct RequestRoundTripTests {
    @Test(arguments: Fixtures.queryCases)
    func roundTrips(_ c: Case<StaticQuery>) throws {
        let label = c.label
        let request = StaticRequest(requestId: 0xDEAD_BEEF_0000_0001, query: c.value)
        let bytes = StaticCodec.encode(request)
        #expect(try StaticCodec.decodeRequest(bytes) == request, "\(label)")
        // The raw-buffer overload is what the nng layer uses.
        let viaBuffer = try bytes.withUnsafeBytes { try StaticCodec.decodeRequest($0) }
        #expect(viaBuffer == request, "\(label)")
    }

    /// known_pattern_ids is declared packed; a writer that does not pack (proto2 allows both) is read the same.
    @Test func knownPatternIdsPackedOrNot() throws {
        let query = TripSchedulesQuery(
            tripIds: ["t"], fromDate: 20250101, toDate: 20250101,
            knownPatternIds: [5, 300, 70_000], knownDatabaseVersion: "v")
        let packed = StaticCodec.encode(StaticRequest(requestId: 1, query: .tripSchedules(query)))
        var w = WireWriter()
        w.varint(1, 1)
        w.message(16) { q in
            q.string(1, "t")
            q.varint(2, 20250101)
            q.varint(3, 20250101)
            for id in [5, 300, 70_000] as [UInt64] { q.varint(4, id) }
            q.string(5, "v")
        }
        #expect(packed.count < w.bytes.count)  // three ids: one tag and length instead of three tags
        for bytes in [packed, w.bytes] {
            #expect(try StaticCodec.decodeRequest(bytes) == StaticRequest(requestId: 1, query: .tripSchedules(query)))
        }
    }

    @Test func requestIdExtremes() throws {
        for id in [UInt64.min, 1, UInt64.max] {
            let request = StaticRequest(requestId: id, query: .feedInfo)
            #expect(try StaticCodec.decodeRequest(StaticCodec.encode(request)) == request)
        }
    }

    @Test func emptyOptionalStringStaysPresent() throws {
        // "" and nil are different on the wire (empty string vs absent field) and must stay different.
        let withEmpty = StaticRequest(requestId: 1, query: .routes(RoutesQuery(mode: "")))
        let withNil = StaticRequest(requestId: 1, query: .routes(RoutesQuery(mode: nil)))
        #expect(StaticCodec.encode(withEmpty) != StaticCodec.encode(withNil))
        #expect(try StaticCodec.decodeRequest(StaticCodec.encode(withEmpty)) == withEmpty)
        #expect(try StaticCodec.decodeRequest(StaticCodec.encode(withNil)) == withNil)
    }

    @Test func outOfRangeLimitsAreClampedNotTrapped() throws {
        // Ranges are the service's job; the codec must only not crash on them.
        let negative = StaticRequest(requestId: 1, query: .search(SearchQuery(query: "x", limit: -5)))
        let huge = StaticRequest(requestId: 1, query: .search(SearchQuery(query: "x", limit: Int.max)))
        guard case .search(let a) = try StaticCodec.decodeRequest(StaticCodec.encode(negative)).query,
            case .search(let b) = try StaticCodec.decodeRequest(StaticCodec.encode(huge)).query
        else { Issue.record("not a search query"); return }
        #expect(a.limit == 0)
        #expect(b.limit == Int(UInt32.max))
    }
}

@Suite struct ResponseRoundTripTests {
    @Test(arguments: Fixtures.resultCases)
    func roundTrips(_ c: Case<StaticResult>) throws {
        let label = c.label
        let response = StaticResponse(requestId: 77, result: .success(c.value))
        let bytes = StaticCodec.encode(response)
        #expect(try StaticCodec.decodeResponse(bytes) == response, "\(label)")
        let viaBuffer = try bytes.withUnsafeBytes { try StaticCodec.decodeResponse($0) }
        #expect(viaBuffer == response, "\(label)")
    }

    @Test(arguments: [
        ServiceStatus.notFound, .invalidArgument, .unavailable, .internal, .badRequest,
    ])
    func errorResponsesRoundTrip(_ status: ServiceStatus) throws {
        for message in ["unknown stop 'x'", "", Fixtures.unicodeName] {
            let response = StaticResponse(requestId: 9, result: .failure(ServiceError(status, message)))
            #expect(try StaticCodec.decodeResponse(StaticCodec.encode(response)) == response)
        }
    }

    @Test func tenThousandDepartures() throws {
        let board = Fixtures.fullBoard(departures: 10_000)
        let response = StaticResponse(requestId: 1, result: .success(.departures(board)))
        let bytes = StaticCodec.encode(response)
        #expect(bytes.count > 10_000 * 100)
        let decoded = try StaticCodec.decodeResponse(bytes)
        guard case .success(.departures(let back)) = decoded.result else {
            Issue.record("expected a departure board, got \(decoded.result)")
            return
        }
        #expect(back.departures.count == 10_000)
        #expect(back.departures.last == board.departures.last)
        #expect(back == board)
    }

    @Test func extremeNumbersSurvive() throws {
        let stop = Stop(
            stopId: "x", name: "y", lat: -Double.greatestFiniteMagnitude, lon: Double.leastNonzeroMagnitude,
            locationType: Int(Int32.min), wheelchairBoarding: Int(Int32.max), primaryRouteType: 0,
            distanceMetres: .infinity
        )
        let response = StaticResponse(requestId: 1, result: .success(.stops([stop])))
        #expect(try StaticCodec.decodeResponse(StaticCodec.encode(response)) == response)
    }

    @Test func differentValuesGiveDifferentBytes() {
        // Guards against an encoder that drops fields (a round trip of a constant would still pass).
        let a = StaticResponse(requestId: 1, result: .success(.stops([Fixtures.fullStop(1)])))
        let b = StaticResponse(requestId: 1, result: .success(.stops([Fixtures.fullStop(2)])))
        #expect(StaticCodec.encode(a) != StaticCodec.encode(b))
        var c = Fixtures.fullStop(1)
        c.distanceMetres = nil
        #expect(
            StaticCodec.encode(a) != StaticCodec.encode(StaticResponse(requestId: 1, result: .success(.stops([c])))))
    }
}
