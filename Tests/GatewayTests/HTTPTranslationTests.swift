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
        "plan": [
            "from": .object(["stop_id": .string, "lat": .number, "lon": .number]),
            "to": .object(["stop_id": .string, "lat": .number, "lon": .number]), "modes": .array(.string),
            "at": .integer, "wheelchair": .boolean,
        ],
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

    /// Objects member by member (`deepObject`), arrays comma-separated (`form`, not exploded): GATEWAY.md §8.
    @Test func objectsComeByTheirMembersAndArraysCommaSeparated() {
        #expect(
            get("plan", "from[stop_id]=200060&to%5Blat%5D=-33.9&modes=train,bus&to%5Blon%5D=151.2&at=1766394000")
                == #"{"op":"plan","from":{"stop_id":"200060"},"to":{"lat":-33.9,"lon":151.2},"modes":["train","bus"],"#
                + #""at":1766394000}"#)
        #expect(get("plan", "modes=") == #"{"op":"plan","modes":[]}"#)
        // A member the object has not goes on (the op's parser names it); so does a bracket on another field.
        #expect(get("plan", "from[stop]=1&at[x]=2") == #"{"op":"plan","from":{"stop":"1"},"at[x]":"2"}"#)
        #expect(get("plan", "to[lat]=south") == #"error: query parameter "to[lat]": expected a number, got "south""#)
        #expect(get("plan", "from[stop_id]=1&from[stop_id]=2").contains("given more than once"))
        #expect(get("plan", "from=200060").contains(#"query parameter "from": an object: give its members"#))
        #expect(get("plan", "from[stop_id]=1&from=2").contains("not as well whole"))
    }

    /// The types come from the document the gateway serves: plan's places are objects, its modes an array.
    @Test func theServedDocumentTypesPlansObjectsAndArrays() throws {
        let served = try RequestFieldTypes(openAPI: OpenAPIDocument.bytes)
        let place = RequestFieldTypes.FieldType.object(["stop_id": .string, "lat": .number, "lon": .number])
        #expect(served.type(of: "from", op: "plan") == place)
        #expect(served.type(of: "to", op: "plan") == place)
        #expect(served.type(of: "modes", op: "plan") == .array(.string))
        #expect(served.type(of: "stop_id", op: "departures") == .string)
        // A oneOf of scalars and null stays a scalar: trip's date (YYYYMMDD as a string or an integer).
        #expect(served.type(of: "date", op: "trip") == .string)
        #expect(served.type(of: "service_date", op: "trip") == .string)
        #expect(served.type(of: "limit", op: "departures") == .integer)
        #expect(served.type(of: "include_platforms", op: "search") == .boolean)
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
