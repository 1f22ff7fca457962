import Testing
import TransitModel

@testable import GatewayProtocol

/// `plan`'s request line (GATEWAY.md "plan"): the places, the defaults, every range as INVALID_ARGUMENT naming
/// it, the combinations refused, the cursor.
@Suite struct PlanRequestTests {
    private func parse(_ fields: String) -> Result<GatewayRequest, GatewayRequestError> {
        GatewayRequest.parse(#"{"id":1,"op":"plan",\#(fields)}"#)
    }

    private func plan(_ fields: String, sourceLocation: SourceLocation = #_sourceLocation) -> PlanRequest? {
        switch parse(fields) {
        case .success(let request):
            guard case .plan(let q) = request.op else {
                Issue.record("not a plan: \(request)", sourceLocation: sourceLocation)
                return nil
            }
            return q
        case .failure(let failure):
            Issue.record("\(fields): \(failure.error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    private func refused(_ fields: String, _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        switch parse(fields) {
        case .success(let request): Issue.record("parsed: \(request)", sourceLocation: sourceLocation)
        case .failure(let failure):
            #expect(failure.error.code == .invalidArgument, "\(failure.error)", sourceLocation: sourceLocation)
            #expect(failure.op == .plan, sourceLocation: sourceLocation)
            #expect(
                failure.error.message.contains(fragment), "\(failure.error.message)", sourceLocation: sourceLocation)
        }
    }

    static let places = #""from":{"stop_id":"A"},"to":{"lat":-33.87,"lon":151.2}"#

    @Test func placesAndDefaults() throws {
        let q = try #require(plan(Self.places))
        #expect(q.from == .stop("A"))
        #expect(q.to == .coordinate(lat: -33.87, lon: 151.2))
        #expect(q.at == nil && q.arriveBy == nil)
        #expect(q.maxTransfers == 4 && q.transferSlackSeconds == 60 && q.walkRadiusMetres == 400)
        #expect(q.walkSpeed == 1.2 && q.accessRadiusMetres == 600 && q.windowSeconds == 0 && q.limit == 5)
        #expect(q.realtime && !q.wheelchair && q.modes.isEmpty)
    }

    @Test func everyRangeIsAnErrorNamingIt() {
        let cases: [(String, String)] = [
            (#""max_transfers":9"#, "\"max_transfers\": expected an integer from 0 to 8"),
            (#""transfer_slack_s":1801"#, "from 0 to 1800"),
            (#""walk_radius_m":2001"#, "\"walk_radius_m\": expected a number from 0 to 2000"),
            (#""walk_speed_mps":0.2"#, "from 0.3 to 3"),
            (#""access_radius_m":-1"#, "\"access_radius_m\""),
            (#""window_s":10801"#, "from 0 to 10800"),
            (#""limit":21"#, "from 1 to 20"),
            (#""limit":0"#, "from 1 to 20"),
            (#""modes":["boat"]"#, "\"modes\""),
            (#""at":-1"#, "\"at\""),
        ]
        for (field, fragment) in cases { refused(Self.places + "," + field, fragment) }
    }

    @Test func combinationsThatMeanNothingAreRefused() {
        refused(#""from":{"stop_id":"A"},"to":{"stop_id":"A"}"#, "the same place")
        refused(Self.places + #","at":1,"arrive_by":2"#, "give one of them")
        refused(Self.places + #","arrive_by":2,"window_s":60"#, "\"window_s\"")
        refused(#""from":{"stop_id":"A","lat":1,"lon":2},"to":{"stop_id":"B"}"#, "not both")
        refused(#""from":{"lat":91,"lon":2},"to":{"stop_id":"B"}"#, "\"from\"")
        refused(#""from":"A","to":{"stop_id":"B"}"#, "\"from\"")
        refused(#""to":{"stop_id":"B"}"#, "missing field \"from\"")
        refused(Self.places + #","via":1"#, "unknown field \"via\"")
    }

    @Test func aCursorSetsTheWindow() throws {
        let cursor = PlanCursor(at: 1_000, windowEnd: 4_600)
        #expect(PlanCursor(cursor.text) == cursor)
        let q = try #require(plan(Self.places + #","cursor":"\#(cursor.text)""#))
        #expect(q.at == 1_000 && q.windowSeconds == 3_600)
        refused(Self.places + #","cursor":"p1-5-1""#, "\"cursor\"")
        refused(Self.places + #","cursor":"\#(cursor.text)","at":5"#, "\"cursor\"")
    }
}
