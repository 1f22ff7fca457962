import Testing
import TransitModel

@testable import GatewayProtocol

@Suite struct GatewayRequestTests {
    private func ok(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> GatewayRequest {
        switch GatewayRequest.parse(line) {
        case .success(let request): return request
        case .failure(let failure):
            Issue.record("\(line) failed: \(failure.error)", sourceLocation: sourceLocation)
            throw failure.error
        }
    }

    private func fail(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> GatewayRequestError {
        switch GatewayRequest.parse(line) {
        case .success(let request):
            Issue.record("\(line) parsed as \(request)", sourceLocation: sourceLocation)
            throw GatewayError(.internal, "unexpected success")
        case .failure(let failure): return failure
        }
    }

    /// The error of a line: its code and message.
    private func expectError(
        _ line: String, _ code: GatewayErrorCode, _ fragments: String...,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let failure = try fail(line, sourceLocation: sourceLocation)
        #expect(failure.error.code == code, "\(line): \(failure.error)", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(
                failure.error.message.contains(fragment), "\(line): \(failure.error.message)",
                sourceLocation: sourceLocation)
        }
    }

    // MARK: id

    @Test(arguments: [
        "12345678901234567890123", "\"abc\"", "null", "1.5e300", "-0", "true", "\"a\\u00e9\\\"\"", "1E+2", "\"\"",
    ])
    func idIsEchoedByteForByte(id: String) throws {
        let request = try ok(#"{"id":\#(id),"op":"health"}"#)
        #expect(request.id.description == id)
        let line = GatewayResponse.error(id: request.id, GatewayError(.notFound, "x"))
        #expect(string(line).hasPrefix(#"{"id":\#(id),"ok":false"#))
    }

    @Test func idWithSpacesAroundIsTrimmedToTheValue() throws {
        let request = try ok(#"{ "op":"health" , "id" :  42  }"#)
        #expect(request.id.description == "42")
    }

    @Test func absentIdIsNull() throws {
        #expect(try ok(#"{"op":"health"}"#).id == .null)
    }

    @Test func idIsEchoedOnArgumentErrors() throws {
        let failure = try fail(#"{"id":12345678901234567890123,"op":"stop"}"#)
        #expect(failure.id.description == "12345678901234567890123")
        #expect(failure.op == .stop)
        let unknown = try fail(#"{"id":"x","op":"nope"}"#)
        #expect(unknown.id.description == "\"x\"")
    }

    @Test func containerIdIsRejected() throws {
        try expectError(#"{"id":{"a":1},"op":"health"}"#, .invalidArgument, "field \"id\"", "scalar", "got an object")
        try expectError(#"{"id":[1],"op":"health"}"#, .invalidArgument, "got an array")
        #expect(try fail(#"{"id":[1],"op":"health"}"#).id == .null)
    }

    // MARK: BAD_JSON and UNKNOWN_OP

    @Test func badJSON() throws {
        try expectError("hello", .badJSON, "column 1")
        try expectError(#"{"op":"health""#, .badJSON, "column 15", "expected ',' or '}'")
        try expectError(#"{"op":"health",}"#, .badJSON, "column 16")
        try expectError("[1,2]", .badJSON, "expected a JSON object, got an array")
        try expectError("\"health\"", .badJSON, "got a string")
        try expectError("", .badJSON, "empty")
        #expect(try fail("[1]").id == .null)
    }

    @Test func unknownOpSuggestsTheNearest() throws {
        try expectError(#"{"op":"departure"}"#, .unknownOp, "unknown op \"departure\"", "did you mean \"departures\"?")
        try expectError(#"{"op":"feedinfo"}"#, .unknownOp, "did you mean \"feed_info\"?")
        try expectError(#"{"op":"Stop"}"#, .unknownOp, "did you mean \"stop\"?")
        try expectError(#"{"op":"launch_rocket"}"#, .unknownOp, "ops: health, feed_info, stop")
    }

    @Test func missingOrMistypedOp() throws {
        try expectError(#"{"id":1}"#, .invalidArgument, "missing field \"op\"", "departures")
        try expectError(#"{"op":null}"#, .invalidArgument, "missing field \"op\"")
        try expectError(#"{"op":7}"#, .invalidArgument, "field \"op\": expected a string, got 7")
    }

    // MARK: fields

    @Test func unknownFieldsAreNamed() throws {
        try expectError(
            #"{"op":"departures","stop_id":"1","limt":5}"#, .invalidArgument,
            "unknown field \"limt\" for op \"departures\"", "stop_id, at, direction, limit, cursor")
        try expectError(
            #"{"op":"health","verbose":true}"#, .invalidArgument, "unknown field \"verbose\"", "takes no fields")
    }

    @Test func missingAndMistypedFields() throws {
        try expectError(#"{"op":"stop"}"#, .invalidArgument, "missing field \"stop_id\": expected a non-empty string")
        try expectError(
            #"{"op":"stop","stop_id":200060}"#, .invalidArgument, "field \"stop_id\": expected a string, got 200060")
        try expectError(
            #"{"op":"stop","stop_id":""}"#, .invalidArgument, "field \"stop_id\": expected a non-empty string")
        try expectError(#"{"op":"stop","stop_id":null}"#, .invalidArgument, "missing field \"stop_id\"")
        try expectError(
            #"{"op":"search","q":"x","include_platforms":1}"#, .invalidArgument,
            "field \"include_platforms\": expected true or false, got 1")
    }

    /// An escaped NUL (or any control character) in an id or a text is refused, naming the field and where:
    /// "200060\u0000anything" once answered as Central while the gateway cached it under the whole string.
    @Test func controlCharactersInIdsAndTextsAreRefused() throws {
        try expectError(
            #"{"op":"stop","stop_id":"200060\u0000anything"}"#, .invalidArgument,
            "field \"stop_id\": control character U+0000 at byte 6")
        try expectError(
            #"{"op":"departures","stop_id":"200060","cursor":"ab\u001fc"}"#, .invalidArgument,
            "field \"cursor\": control character U+001F at byte 2")
        try expectError(
            #"{"op":"search","q":"town\u0007hall"}"#, .invalidArgument, "field \"q\": control character U+0007")
        try expectError(#"{"op":"trip","trip_id":"T1\u007f"}"#, .invalidArgument, "field \"trip_id\"", "U+007F")
        try expectError(#"{"op":"search","q":"\ttown hall"}"#, .invalidArgument, "field \"q\"", "U+0009")
        // Printable text beyond ASCII stays welcome.
        _ = try ok(#"{"op":"search","q":"Köln Hbf — λ"}"#)
        _ = try ok(#"{"op":"stop","stop_id":"200060"}"#)
    }

    /// An `at` in milliseconds or as an ISO 8601 string says "unix seconds" and what it probably meant.
    @Test func atInMillisecondsOrISOGetsTheSecondsItMeant() throws {
        try expectError(
            #"{"op":"departures","stop_id":"200060","at":1766394000000}"#, .invalidArgument,
            "expected unix seconds", "milliseconds? In seconds that is 1766394000")
        try expectError(
            #"{"op":"departures","stop_id":"200060","at":"2025-12-22T20:00:00+11:00"}"#, .invalidArgument,
            "expected unix seconds", "that instant is 1766394000")
        try expectError(#"{"op":"departures","stop_id":"200060","at":"tomorrow"}"#, .invalidArgument, "field \"at\"")
        try expectError(#"{"op":"departures","stop_id":"200060","at":-5}"#, .invalidArgument, "got -5")
    }

    @Test func limitIsCheckedNotClamped() throws {
        let base = #"{"op":"departures","stop_id":"200060","limit":"#
        try expectError(base + "0}", .invalidArgument, "field \"limit\": expected an integer from 1 to 100, got 0")
        try expectError(base + "101}", .invalidArgument, "got 101")
        try expectError(base + "10.5}", .invalidArgument, "got 10.5")
        try expectError(base + "\"10\"}", .invalidArgument, "got the string \"10\"")
        try expectError(base + "true}", .invalidArgument, "got true")
        try expectError(base + "12345678901234567890123}", .invalidArgument, "got 12345678901234567890123")
        guard case .departures(let q) = try ok(base + "100}").op else { Issue.record("op"); return }
        #expect(q.limit == 100)
        guard case .departures(let q1) = try ok(base + "1e1}").op else { Issue.record("op"); return }
        #expect(q1.limit == 10)
        guard case .departures(let q2) = try ok(base + "2.0}").op else { Issue.record("op"); return }
        #expect(q2.limit == 2)
    }

    @Test func departuresDefaultsAndFields() throws {
        let request = try ok(#"{"id":1,"op":"departures","stop_id":"200060","at":1766394000,"limit":10}"#)
        #expect(
            request.op
                == .departures(DeparturesQuery(stopId: "200060", at: 1_766_394_000, direction: .future, limit: 10)))
        #expect(request.op.staticQuery == .departures(DeparturesQuery(stopId: "200060", at: 1_766_394_000, limit: 10)))
        let past = try ok(
            #"{"op":"departures","stop_id":"2","direction":"past","cursor":"abc","at":null,"limit":null}"#)
        #expect(
            past.op == .departures(DeparturesQuery(stopId: "2", at: nil, direction: .past, limit: 10, cursor: "abc")))
        try expectError(
            #"{"op":"departures","stop_id":"2","direction":"later"}"#, .invalidArgument,
            "field \"direction\": expected \"future\" or \"past\", got the string \"later\"")
        try expectError(
            #"{"op":"departures","stop_id":"2","at":-1}"#, .invalidArgument,
            "field \"at\": expected an integer from 0 to 4102444800, got -1")
        try expectError(#"{"op":"departures","stop_id":"2","at":1766394000.5}"#, .invalidArgument, "got 1766394000.5")
        try expectError(#"{"op":"departures","stop_id":"2","cursor":""}"#, .invalidArgument, "field \"cursor\"")
    }

    @Test func searchText() throws {
        #expect(try ok(#"{"op":"search","q":"  Central  "}"#).op == .search(SearchQuery(query: "Central")))
        let filtered = try ok(#"{"op":"search","q":"NEAR(\"x","limit":5,"mode":"ferry","include_platforms":true}"#)
        #expect(filtered.op == .search(SearchQuery(query: "NEAR(\"x", limit: 5, mode: "ferry", includePlatforms: true)))
        try expectError(#"{"op":"search"}"#, .invalidArgument, "missing field \"q\"")
        try expectError(#"{"op":"search","q":"   "}"#, .invalidArgument, "field \"q\"", "not only spaces")
        try expectError(
            #"{"op":"search","q":"\#(String(repeating: "a", count: 201))"}"#, .invalidArgument,
            "at most 200 characters, got 201")
        try expectError(
            #"{"op":"search","q":"x","mode":"rail"}"#, .invalidArgument,
            "field \"mode\": expected one of train, metro, tram, ferry, bus, coach, cable, other, got the string \"rail\""
        )
    }

    @Test func nearbyRanges() throws {
        #expect(
            try ok(#"{"op":"nearby","lat":-33.8612,"lon":151.2108}"#).op
                == .nearby(NearbyQuery(lat: -33.8612, lon: 151.2108, radiusMetres: 500, limit: 10)))
        #expect(
            try ok(#"{"op":"nearby","lat":90,"lon":-180,"radius_m":5000,"mode":"bus"}"#).op
                == .nearby(NearbyQuery(lat: 90, lon: -180, radiusMetres: 5000, limit: 10, mode: "bus")))
        try expectError(
            #"{"op":"nearby","lat":91,"lon":0}"#, .invalidArgument,
            "field \"lat\": expected a number from -90 to 90, got 91")
        try expectError(
            #"{"op":"nearby","lat":0,"lon":-180.5}"#, .invalidArgument,
            "field \"lon\": expected a number from -180 to 180, got -180.5")
        try expectError(#"{"op":"nearby","lon":0}"#, .invalidArgument, "missing field \"lat\"")
        try expectError(
            #"{"op":"nearby","lat":"1","lon":0}"#, .invalidArgument, "field \"lat\"", "got the string \"1\"")
        try expectError(
            #"{"op":"nearby","lat":0,"lon":0,"radius_m":0}"#, .invalidArgument, "greater than 0 and at most 5000, got 0"
        )
        try expectError(#"{"op":"nearby","lat":0,"lon":0,"radius_m":5001}"#, .invalidArgument, "got 5001")
        try expectError(#"{"op":"nearby","lat":0,"lon":0,"radius_m":1e999}"#, .invalidArgument, "got 1e999")
    }

    @Test func departureFilters() throws {
        #expect(
            try ok(#"{"op":"departures","stop_id":"1","route_id":"T1","direction_id":1,"mode":"train"}"#).op
                == .departures(DeparturesQuery(stopId: "1", routeId: "T1", directionId: 1, mode: "train")))
        try expectError(
            #"{"op":"departures","stop_id":"1","mode":"spaceship"}"#, .invalidArgument, "field \"mode\"", "train")
        try expectError(#"{"op":"departures","stop_id":"1","direction_id":2}"#, .invalidArgument, "\"direction_id\"")
        try expectError(#"{"op":"departures","stop_id":"1","direction_id":"0"}"#, .invalidArgument, "\"direction_id\"")
        try expectError(#"{"op":"departures","stop_id":"1","route_id":7}"#, .invalidArgument, "\"route_id\"")
        // The board's identity for caches holds its filters.
        let plain = DeparturesQuery(stopId: "1")
        #expect(plain.boardKey == "1" && !plain.isFiltered)
        let keys = Set(
            [
                plain, DeparturesQuery(stopId: "1", routeId: "T1"), DeparturesQuery(stopId: "1", directionId: 0),
                DeparturesQuery(stopId: "1", directionId: 1), DeparturesQuery(stopId: "1", mode: "bus"),
                DeparturesQuery(stopId: "1", routeId: "T1", mode: "bus"),
            ].map(\.boardKey))
        #expect(keys.count == 6)
    }

    @Test func tripDateAndStartTime() throws {
        #expect(try ok(#"{"op":"trip","trip_id":"T1"}"#).op == .trip(TripQuery(tripId: "T1")))
        #expect(
            try ok(#"{"op":"trip","trip_id":"T1","date":"20240229","start_time":"7:05:00","at":5}"#).op
                == .trip(TripQuery(tripId: "T1", serviceDate: 20_240_229, startTime: "07:05:00", at: 5)))
        #expect(
            try ok(#"{"op":"trip","trip_id":"T1","date":20251222,"start_time":"25:10:00"}"#).op
                == .trip(TripQuery(tripId: "T1", serviceDate: 20_251_222, startTime: "25:10:00")))
        // A board row's own fields: service_date is an alias of date; the same date twice is fine.
        #expect(
            try ok(#"{"op":"trip","trip_id":"T1","service_date":"20251222","start_time":"08:16:00"}"#).op
                == .trip(TripQuery(tripId: "T1", serviceDate: 20_251_222, startTime: "08:16:00")))
        #expect(
            try ok(#"{"op":"trip","trip_id":"T1","service_date":"20251222","date":20251222}"#).op
                == .trip(TripQuery(tripId: "T1", serviceDate: 20_251_222)))
        try expectError(
            #"{"op":"trip","trip_id":"T1","service_date":"20251222","date":"20251223"}"#, .invalidArgument,
            "\"date\" and \"service_date\"", "20251223")
        try expectError(
            #"{"op":"trip","trip_id":"T1","service_date":"2025-12-22"}"#, .invalidArgument, "field \"service_date\"")
        try expectError(
            #"{"op":"trip","trip_id":"T1","date":"2025-12-22"}"#, .invalidArgument,
            "field \"date\": expected a date \"YYYYMMDD\", got the string \"2025-12-22\"")
        try expectError(
            #"{"op":"trip","trip_id":"T1","date":"20250229"}"#, .invalidArgument, "20250229 is not a calendar date")
        try expectError(#"{"op":"trip","trip_id":"T1","date":"20251301"}"#, .invalidArgument, "not a calendar date")
        try expectError(#"{"op":"trip","trip_id":"T1","date":"20250431"}"#, .invalidArgument, "not a calendar date")
        try expectError(#"{"op":"trip","trip_id":"T1","date":"20250100"}"#, .invalidArgument, "not a calendar date")
        try expectError(#"{"op":"trip","trip_id":"T1","date":2025122}"#, .invalidArgument, "expected a date")
        try expectError(
            #"{"op":"trip","trip_id":"T1","date":true}"#, .invalidArgument, "expected a date \"YYYYMMDD\", got true")
        try expectError(
            #"{"op":"trip","trip_id":"T1","start_time":"7:5:00"}"#, .invalidArgument, "field \"start_time\"",
            "\"7:5:00\"")
        try expectError(#"{"op":"trip","trip_id":"T1","start_time":"12:60:00"}"#, .invalidArgument, "below 60")
        try expectError(
            #"{"op":"trip","trip_id":"T1","start_time":"123:00:00"}"#, .invalidArgument, "field \"start_time\"")
        #expect(
            try ok(#"{"op":"trip","trip_id":"T1","date":"19000228"}"#).op
                == .trip(TripQuery(tripId: "T1", serviceDate: 19_000_228)))
        try expectError(#"{"op":"trip","trip_id":"T1","date":"19000229"}"#, .invalidArgument, "not a calendar date")
        #expect(
            try ok(#"{"op":"trip","trip_id":"T1","date":"20000229"}"#).op
                == .trip(TripQuery(tripId: "T1", serviceDate: 20_000_229)))
    }

    @Test func alertsAndVehiclesNeedExactlyOneSelector() throws {
        #expect(
            try ok(#"{"op":"alerts","route_id":"T1","lang":"zh-Hans"}"#).op
                == .alerts(AlertsQuery(selector: .route("T1"), lang: "zh-Hans")))
        #expect(
            try ok(#"{"op":"alerts","trip_id":"x","stop_id":null}"#).op == .alerts(AlertsQuery(selector: .trip("x"))))
        try expectError(
            #"{"op":"alerts"}"#, .invalidArgument,
            "needs exactly one of \"stop_id\", \"route_id\", \"trip_id\"; got none")
        try expectError(
            #"{"op":"alerts","stop_id":"1","trip_id":"2"}"#, .invalidArgument, "got \"stop_id\" and \"trip_id\"")
        try expectError(#"{"op":"alerts","stop_id":"1","lang":"en US"}"#, .invalidArgument, "field \"lang\"")
        #expect(try ok(#"{"op":"vehicles","trip_id":"x"}"#).op == .vehicles(VehiclesQuery(selector: .trip("x"))))
        try expectError(
            #"{"op":"vehicles","route_id":"1","trip_id":"2"}"#, .invalidArgument,
            "exactly one of \"route_id\", \"trip_id\"")
        try expectError(#"{"op":"vehicles","stop_id":"1"}"#, .invalidArgument, "unknown field \"stop_id\"")
    }

    @Test func subscriptions() throws {
        #expect(
            try ok(#"{"op":"subscribe","topic":"departures","stop_id":"200060"}"#).op
                == .subscribe(SubscribeQuery(stopId: "200060", limit: 10)))
        try expectError(
            #"{"op":"subscribe","stop_id":"1"}"#, .invalidArgument,
            "missing field \"topic\": expected \"departures\" or \"plan\"")
        try expectError(
            #"{"op":"subscribe","topic":"vehicles","stop_id":"1"}"#, .invalidArgument,
            "got the string \"vehicles\"")
        // A plan subscription takes plan's fields (checked as plan checks them), not a board's nor a cursor.
        guard
            case .subscribe(let planned) = try ok(
                #"{"op":"subscribe","topic":"plan","from":{"stop_id":"A"},"to":{"stop_id":"C"},"max_transfers":2}"#
            ).op
        else {
            Issue.record("not a subscribe")
            return
        }
        #expect(planned.topic == .plan && planned.plan?.from == .stop("A") && planned.plan?.maxTransfers == 2)
        try expectError(
            #"{"op":"subscribe","topic":"plan","from":{"stop_id":"A"},"to":{"stop_id":"C"},"stop_id":"1"}"#,
            .invalidArgument, "unknown field \"stop_id\"")
        try expectError(
            #"{"op":"subscribe","topic":"plan","from":{"stop_id":"A"},"to":{"stop_id":"C"},"cursor":"x"}"#,
            .invalidArgument, "unknown field \"cursor\"")
        try expectError(
            #"{"op":"subscribe","topic":"plan","from":{"stop_id":"A"},"to":{"stop_id":"A"}}"#, .invalidArgument,
            "the same place")
        try expectError(
            #"{"op":"subscribe","topic":"plan","from":{"stop_id":"A"},"to":{"stop_id":"C"},"max_transfers":9}"#,
            .invalidArgument, "field \"max_transfers\"")
        try expectError(
            #"{"op":"subscribe","topic":"departures","stop_id":"1","limit":101}"#, .invalidArgument, "field \"limit\"")
        #expect(try ok(#"{"op":"unsubscribe","sub":3}"#).op == .unsubscribe(sub: 3))
        try expectError(#"{"op":"unsubscribe","sub":0}"#, .invalidArgument, "field \"sub\"")
        try expectError(#"{"op":"unsubscribe"}"#, .invalidArgument, "missing field \"sub\"")
    }

    @Test func staticOpsMapToStaticQueries() throws {
        #expect(try ok(#"{"op":"stop","stop_id":"1"}"#).op.staticQuery == .stop(StopQuery(stopId: "1")))
        #expect(try ok(#"{"op":"routes"}"#).op.staticQuery == .routes(RoutesQuery()))
        #expect(try ok(#"{"op":"feed_info"}"#).op.staticQuery == .feedInfo)
        #expect(try ok(#"{"op":"search","q":"a"}"#).op.staticQuery == .search(SearchQuery(query: "a")))
        for line in [
            #"{"op":"health"}"#, #"{"op":"stats"}"#, #"{"op":"alerts","stop_id":"1"}"#,
            #"{"op":"unsubscribe","sub":1}"#,
        ] {
            #expect(try ok(line).op.staticQuery == nil)
        }
        let staticNames = GatewayOpKind.allCases.filter(\.isStatic).map(\.name)
        #expect(
            staticNames == [
                "feed_info", "stop", "search", "nearby", "routes", "route", "shape", "stops_in_bbox", "departures",
                "trip",
            ])
    }

    @Test func lineEndingsAndBlankLines() throws {
        #expect(try ok("{\"op\":\"health\"}\r\n").op == .health)
        #expect(try ok("{\"op\":\"health\"}\n").op == .health)
        for blank in ["", " ", "\r", "\t \r\n"] {
            #expect(Array(blank.utf8).withUnsafeBytes { GatewayRequest.isBlank($0) })
        }
        #expect(!Array("{}".utf8).withUnsafeBytes { GatewayRequest.isBlank($0) })
    }

    @Test func duplicateKeysAreBadJSON() throws {
        try expectError(#"{"op":"stop","op":"health"}"#, .badJSON, "duplicate key \"op\"")
    }
}
