import GatewayProtocol
import Testing

@testable import GatewayHTTP

/// The pure parts of the HTTP port: query strings, query parameters typed by the op's schema, POST bodies,
/// Accept-Encoding and Bearer credentials.
@Suite struct HTTPTranslationTests {
    let fields = RequestFieldTypes(types: [
        "departures": ["stop_id": .string, "limit": .integer, "at": .integer],
        "nearby": ["lat": .number, "lon": .number],
        "search": ["q": .string, "include_platforms": .boolean],
        "journey": ["from": .structured],
    ])

    func get(_ op: String, _ query: String?) -> String {
        switch RequestLineFromHTTP.get(op: op, query: query, fields: fields) {
        case .success(let line): String(decoding: line, as: UTF8.self)
        case .failure(let error): "error: \(error.message)"
        }
    }

    @Test func queryParametersBecomeTypedFields() {
        #expect(get("departures", "stop_id=200060&limit=3") == #"{"op":"departures","stop_id":"200060","limit":3}"#)
        #expect(get("nearby", "lat=-33.87&lon=1.512e2") == #"{"op":"nearby","lat":-33.87,"lon":1.512e2}"#)
        #expect(
            get("search", "q=Town+Hall%20%C3%A9&include_platforms=true")
                == #"{"op":"search","q":"Town Hall é","include_platforms":true}"#)
        // Unknown parameters go on as strings (the op's parser names them), `id` is a string.
        #expect(get("departures", "id=7&limt=3") == #"{"op":"departures","id":"7","limt":"3"}"#)
        #expect(get("health", nil) == #"{"op":"health"}"#)
        // A quote or backslash in a string value stays inside the string.
        #expect(get("search", #"q=a%22b%5C"#) == #"{"op":"search","q":"a\"b\\"}"#)
    }

    @Test func parametersOfTheWrongTypeAreRefused() {
        #expect(
            get("departures", "limit=three") == #"error: query parameter "limit": expected an integer, got "three""#)
        // Not a way to smuggle JSON in.
        #expect(get("departures", "limit=1,%22x%22:2").hasPrefix(#"error: query parameter "limit""#))
        #expect(get("nearby", "lat=") == #"error: query parameter "lat": expected a number, got """#)
        #expect(get("search", "include_platforms=1").contains("expected true or false"))
        #expect(get("departures", "limit=1&limit=2") == #"error: query parameter "limit" given more than once"#)
        #expect(get("departures", "op=stop").contains("the path names the op"))
        #expect(get("journey", "from=x").contains("send the request by POST /v1/journey"))
    }

    func post(_ op: String, _ body: String) -> String {
        switch RequestLineFromHTTP.post(op: op, body: Array(body.utf8)) {
        case .success(let line): String(decoding: line, as: UTF8.self)
        case .failure(let error): "error: \(error.message)"
        }
    }

    @Test func postBodiesGetThePathsOp() {
        #expect(post("stop", #"{"stop_id":"1"}"#) == #"{"op":"stop","stop_id":"1"}"#)
        #expect(post("health", " { } ") == #"{"op":"health" } "#)
        #expect(post("stop", #"{"op":"stop","stop_id":"1"}"#) == #"{"op":"stop","stop_id":"1"}"#)
        #expect(post("stop", #"{"op":"trip"}"#).hasPrefix("error: field \"op\""))
        // Not an object: passed on as it is, for the parser's BAD_JSON.
        #expect(post("stop", "[1]") == "[1]")
        #expect(post("stop", #"{"stop_id":"#) == #"{"stop_id":"#)
        // The result parses as a request of the path's op.
        guard case .success(let request) = GatewayRequest.parse(post("stop", #"{"id":3,"stop_id":"1"}"#)) else {
            Issue.record("not a request")
            return
        }
        #expect(request.op.kind == .stop)
        #expect(request.id.description == "3")
    }

    @Test func acceptEncodingAndBearer() {
        #expect(AcceptEncoding.acceptsGzip("gzip, deflate, br"))
        #expect(AcceptEncoding.acceptsGzip("br;q=1.0, GZIP;q=0.5"))
        #expect(!AcceptEncoding.acceptsGzip("gzip;q=0"))
        #expect(AcceptEncoding.acceptsGzip("*"))
        #expect(!AcceptEncoding.acceptsGzip("*, gzip;q=0"))
        #expect(!AcceptEncoding.acceptsGzip("identity"))
        #expect(!AcceptEncoding.acceptsGzip(nil))
        #expect(Bearer.token(in: "Bearer s3cret") == "s3cret")
        #expect(Bearer.token(in: "bearer  s3cret") == "s3cret")
        #expect(Bearer.token(in: "Basic czNjcmV0") == nil)
        #expect(Bearer.token(in: "Bearer ") == nil)
    }

    @Test func everyErrorCodeHasAnHTTPStatus() {
        let statuses = Dictionary(uniqueKeysWithValues: GatewayErrorCode.allCases.map { ($0, $0.httpStatus.code) })
        #expect(statuses[.badJSON] == 400 && statuses[.unknownOp] == 400 && statuses[.invalidArgument] == 400)
        #expect(statuses[.unauthenticated] == 401 && statuses[.notFound] == 404 && statuses[.lineTooLong] == 413)
        #expect(statuses[.overloaded] == 429 && statuses[.rateLimited] == 429 && statuses[.internal] == 500)
        #expect(statuses[.staticUnavailable] == 503 && statuses[.realtimeUnavailable] == 503)
        #expect(statuses[.timeout] == 504)
    }
}
