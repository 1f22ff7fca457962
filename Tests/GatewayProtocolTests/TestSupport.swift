import Foundation
import Testing
import TransitModel
import TransitTesting

@testable import GatewayProtocol

// Helpers: parse answers back with JSONSerialization (an independent parser) and tell JSON kinds apart.

enum Kind: Equatable, CustomStringConvertible {
    case string, int, double, bool, null, object, array

    var description: String {
        switch self {
        case .string: return "string"
        case .int: return "int"
        case .double: return "double"
        case .bool: return "bool"
        case .null: return "null"
        case .object: return "object"
        case .array: return "array"
        }
    }
}

func kind(_ value: Any?) -> Kind? {
    guard let value else { return nil }
    if value is NSNull { return .null }
    if value is String { return .string }
    if value is [String: Any] { return .object }
    if value is [Any] { return .array }
    if let number = value as? NSNumber {
        switch String(cString: number.objCType) {
        case "c", "B": return .bool
        case "d", "f": return .double
        default: return .int
        }
    }
    return nil
}

/// Parses one answer line (must end with exactly one "\n") into a dictionary.
func parseLine(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    #expect(bytes.last == UInt8(ascii: "\n"), "an answer line ends with a newline", sourceLocation: sourceLocation)
    #expect(!bytes.dropLast().contains(UInt8(ascii: "\n")), "one line only", sourceLocation: sourceLocation)
    let object = try JSONSerialization.jsonObject(with: Data(bytes))
    return try #require(object as? [String: Any], sourceLocation: sourceLocation)
}

/// Parses the bytes of one JSON value written by a JSONWriter.
func parseValue(_ bytes: [UInt8]) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
}

/// Checks that `object` has exactly `fields` with these kinds (a field listed with several kinds may be any).
func expectFields(
    _ object: [String: Any], _ fields: [String: [Kind]], sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(Set(object.keys) == Set(fields.keys), "field names", sourceLocation: sourceLocation)
    for (name, kinds) in fields {
        let actual = kind(object[name])
        #expect(
            actual.map { kinds.contains($0) } ?? false, "\(name): \(String(describing: actual)) not in \(kinds)",
            sourceLocation: sourceLocation)
    }
}

func sub(_ object: [String: Any], _ key: String) throws -> [String: Any] {
    try #require(object[key] as? [String: Any], "\(key) is an object")
}

func list(_ object: [String: Any], _ key: String) throws -> [[String: Any]] {
    try #require(object[key] as? [[String: Any]], "\(key) is an array of objects")
}

func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

/// The success line of a data writer, with fixed meta.
func answer(_ op: GatewayOpKind, live: LiveMeta? = nil, _ data: (inout JSONWriter) -> Void) throws -> [String: Any] {
    let line = GatewayResponse.success(
        id: RawJSON(bytes: Array("1".utf8)), meta: ResponseMeta(op: op, elapsedMicros: 5, live: live), data: data)
    return try parseLine(line)
}

// MARK: GATEWAY.md and the encoder's examples

/// Example blocks of a Markdown file: the fenced JSON block after `<!-- example:NAME:PART -->` (PART is
/// request or answer).
struct ExampleBlocks: Sendable {
    let url: URL

    /// protocol/GATEWAY.md: the launcher's real answers (scripts/gateway-examples writes them).
    static let gatewayDoc = ExampleBlocks(url: Repository.url("protocol/GATEWAY.md"))
    /// What the encoder writes for `Fixtures` (the values GATEWAY.md's examples had before they were the
    /// launcher's).
    static let encoder = ExampleBlocks(url: Repository.url("Tests/GatewayProtocolTests/EncoderExamples.md"))

    func example(_ name: String, _ part: String) throws -> String {
        let text = try String(contentsOf: url, encoding: .utf8)
        let marker = "<!-- example:\(name):\(part) -->"
        let afterMarker = try #require(text.range(of: marker), "\(url.lastPathComponent) has \(marker)")
        let open = try #require(text.range(of: "```json\n", range: afterMarker.upperBound..<text.endIndex))
        let close = try #require(text.range(of: "\n```", range: open.upperBound..<text.endIndex))
        return String(text[open.upperBound..<close.lowerBound])
    }

    /// The example's answer (the first, when the block holds several lines' answers).
    func answer(_ name: String) throws -> NSDictionary {
        try #require(try answers(name).first)
    }

    /// Every answer line of the block: each starts a line with `{` (continuation lines are indented).
    func answers(_ name: String) throws -> [NSDictionary] {
        var values: [String] = []
        for line in try example(name, "answer").split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("{") || values.isEmpty {
                values.append(String(line))
            } else {
                values[values.count - 1] += "\n" + line
            }
        }
        return try values.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? NSDictionary) }
    }

    func request(_ name: String) throws -> String {
        try example(name, "request")
    }

    /// The names of the examples in the file, in order.
    func names() throws -> [String] {
        let text = try String(contentsOf: url, encoding: .utf8)
        let suffix = ":request -->"
        return text.components(separatedBy: "<!-- example:").dropFirst().compactMap { part in
            part.range(of: suffix).map { String(part[..<$0.lowerBound]) }
        }
    }
}

/// The field names of every object in a JSON value by where it is (`data.departures[]` → `trip_id`, …; an
/// array's elements together).
func fieldNames(_ value: Any, at path: String = "") -> [String: Set<String>] {
    var out: [String: Set<String>] = [:]
    func walk(_ value: Any, _ path: String) {
        if let object = value as? [String: Any] {
            out[path, default: []].formUnion(object.keys)
            for (key, inner) in object { walk(inner, path.isEmpty ? key : "\(path).\(key)") }
        } else if let array = value as? [Any] {
            for element in array { walk(element, "\(path)[]") }
        }
    }
    walk(value, path)
    return out
}

// MARK: fixtures (the values of GATEWAY.md's examples)

enum Fixtures {
    static let sydney = "Australia/Sydney"
    /// 2025-12-22 20:00:00 AEDT.
    static let at: Int64 = 1_766_394_000
    /// Noon minus 12 h of service day 20251222 in Sydney.
    static let origin: Int64 = 1_766_322_000

    static let central = Stop(
        stopId: "200060", name: "Central Station", lat: -33.883193, lon: 151.206339, locationType: 1,
        wheelchairBoarding: 1, primaryRouteType: 2, mode: "train", timezone: sydney)
    static let platform1 = Stop(
        stopId: "2000331", name: "Central Station Platform 1", lat: -33.882844, lon: 151.206601, locationType: 0,
        parentStation: "200060", platformCode: "1", wheelchairBoarding: 1, primaryRouteType: 2, mode: "train",
        timezone: sydney)
    static let metroPlatform = Stop(
        stopId: "2000391", name: "Central Station Metro Platform", lat: -33.884058, lon: 151.205862, locationType: 0,
        parentStation: "200060", platformCode: "M1", wheelchairBoarding: 1, primaryRouteType: 1, mode: "metro",
        timezone: sydney)
    static let railwaySquare = Stop(
        stopId: "2000421", code: "2000421", name: "Central Station, Railway Square, Stand A", lat: -33.88353,
        lon: 151.20379, locationType: 0, platformCode: "A", wheelchairBoarding: 1, primaryRouteType: 700, mode: "bus",
        timezone: sydney)
    static let circularQuay = Stop(
        stopId: "10101100", name: "Circular Quay", lat: -33.861239, lon: 151.210736, locationType: 1,
        wheelchairBoarding: 1, primaryRouteType: 4, mode: "ferry", distanceMetres: 7.2, timezone: sydney)

    static let m1 = Route(
        routeId: "M1", agencyId: "SM", shortName: "M1", longName: "Metro North West & Bankstown Line", routeType: 1,
        mode: "metro", color: "#168388", textColor: "#FFFFFF", section: "M", feed: "sample")
    static let t1 = Route(
        routeId: "T1", agencyId: "ST", shortName: "T1", longName: "North Shore & Western Line", routeType: 2,
        mode: "train", color: "#F99D1C", textColor: "#FFFFFF", section: "T", feed: "sample")
    static let bus333 = Route(
        routeId: "333", agencyId: "SB", shortName: "333", longName: "Circular Quay to North Bondi", routeType: 700,
        mode: "bus", color: "#00B5EF", textColor: "#FFFFFF", section: "#", feed: "sample")
    static let busL90 = Route(
        routeId: "L90", agencyId: "SB", shortName: "L90", longName: "Railway Square to Palm Beach", routeType: 700,
        mode: "bus", color: "#00B5EF", textColor: "#FFFFFF", section: "L", feed: "sample")

    static let stopResult = StopResult(
        stop: central, parent: nil, platforms: [platform1, metroPlatform], routes: [m1, t1])

    static func departure(
        _ tripId: String, start: String, _ route: Route, _ headsign: String, _ stop: Stop, seq: UInt32, secs: Int32,
        direction: Int
    ) -> Departure {
        Departure(
            tripId: tripId, startTime: start, route: route, headsign: headsign, stopId: stop.stopId, stopSequence: seq,
            stopIndex: seq - 1, serviceDate: 20_251_222, scheduledSecs: secs, scheduledUnix: origin + Int64(secs),
            platform: stop.platformCode, wheelchairAccessible: 1, directionId: direction)
    }

    static let lateT1 = departure(
        "T1.1234.20251222", start: "19:40:00", t1, "Emu Plains", platform1, seq: 12, secs: 72240, direction: 1)
    static let metro = departure(
        "M1.0871", start: "19:12:00", m1, "Tallawong", metroPlatform, seq: 9, secs: 72360, direction: 0)
    static let cancelledT1 = departure(
        "T1.1240.20251222", start: "19:46:00", t1, "Hornsby", platform1, seq: 4, secs: 72600, direction: 0)

    static let departuresAnswer = DeparturesAnswer(
        stopId: "200060", timezone: sydney,
        rows: [
            DepartureRow(
                departure: lateT1,
                realtime: {
                    var rt = DepartureRealtime(
                        predictedUnix: 1_766_394_330, occupancyStatus: "MANY_SEATS_AVAILABLE",
                        carriages: carriagesOnDeparture)
                    rt.predictionSource = .stopUpdate
                    rt.predictionAgeSeconds = 12
                    return rt
                }()),
            DepartureRow(departure: metro),
            {
                var row = DepartureRow(departure: cancelledT1, realtime: DepartureRealtime(cancelled: true))
                row.alertIds = ["alert-21"]
                return row
            }(),
        ].enumerated().map { index, row in
            var row = row
            switch index {
            case 0:  // predicted: the figures, no band
                row.typicalDelay = TypicalDelayView(
                    TypicalDelay(p10: 30, p50: 120, p90: 300, samples: 12, level: .route),
                    scheduledUnix: row.departure.scheduledUnix, predicted: true)
            case 1:  // no live prediction: the band it will likely leave in
                row.typicalDelay = TypicalDelayView(
                    TypicalDelay(p10: 0, p50: 60, p90: 240, samples: 41, level: .stop),
                    scheduledUnix: row.departure.scheduledUnix, predicted: false)
            default: break
            }
            return row
        },
        page: BoardPage(
            direction: .future, hasMorePast: true, hasMoreFuture: true,
            earlierCursor: "b1.20251222.72240.T1.1234.20251222", laterCursor: "f1.20251222.72600.T1.1240.20251222"))

    /// The departures example's board with its alerts.
    static let departuresAnswerWithAlerts = {
        var answer = departuresAnswer
        answer.alerts = [reducedT1Alert]
        return answer
    }()

    /// T1 towards Hornsby (direction 0) only, tonight.
    static let reducedT1Alert = AlertView(
        id: "alert-21", header: "Fewer T1 trains towards Hornsby tonight", description: nil, url: nil,
        cause: "TECHNICAL_PROBLEM", effect: "REDUCED_SERVICE", severity: "WARNING",
        activePeriods: [.init(start: 1_766_390_400, end: 1_766_404_800)],
        informedEntities: [.init(routeId: "T1", directionId: 0)])

    /// A four-carriage train's predicted occupancy on departure (TfNSW sends only position and occupancy).
    static let carriagesOnDeparture = [
        LiveCarriage(position: 1, departureOccupancy: "FEW_SEATS_AVAILABLE"),
        LiveCarriage(position: 2, departureOccupancy: "MANY_SEATS_AVAILABLE"),
        LiveCarriage(position: 3, departureOccupancy: "MANY_SEATS_AVAILABLE"),
        LiveCarriage(position: 4, departureOccupancy: "EMPTY"),
    ]

    static let liveMeta12 = LiveMeta(at: at, source: .staticAndRealtime, stale: false, feedAgeSeconds: 12)

    /// The trip example's typical delays: its first stop's.
    static let tripTypicalDelays: [TypicalDelayView?] = [
        TypicalDelayView(
            TypicalDelay(p10: 0, p50: 90, p90: 330, samples: 23, level: .stop), scheduledUnix: 1_766_394_240,
            predicted: true)
    ]

    /// The reliability example: 40 departures of T1 at platform 1 of Central at 19:00 on weekdays.
    static let reliabilityWindow: DelayWindowHistogram = {
        var h = DelayHistogram()
        for (delay, count) in [(-90, 1), (30, 10), (90, 12), (150, 5), (210, 2), (330, 4), (450, 5), (2000, 1)] {
            for _ in 0..<count { h.add(delay: delay) }
        }
        return DelayWindowHistogram(histogram: h, firstDate: 20_251_204, lastDate: 20_251_222)
    }()

    static let trip = TripDetail(
        tripId: "T1.1234.20251222", route: t1, headsign: "Emu Plains", directionId: 1, serviceDate: 20_251_222,
        startTime: "19:40:00", frequencyBased: false, wheelchairAccessible: 1, bikesAllowed: 0, shapeId: "ST_T1.2",
        timezone: sydney,
        stops: [
            TripStop(
                stopId: "2000331", stopName: "Central Station Platform 1", stopSequence: 12, arrivalSecs: 72180,
                departureSecs: 72240, arrivalUnix: origin + 72180, departureUnix: origin + 72240, lat: -33.882844,
                lon: 151.206601, platformCode: "1", wheelchairBoarding: 1, parentStation: "200060"),
            TripStop(
                stopId: "2000441", stopName: "Redfern Station Platform 4", stopSequence: 13, arrivalSecs: 72420,
                departureSecs: 72450, arrivalUnix: origin + 72420, departureUnix: origin + 72450, lat: -33.891667,
                lon: 151.198889, platformCode: "4", wheelchairBoarding: 1, parentStation: "200070"),
        ])

    static let vehicle = VehicleSnapshot(
        vehicleId: "A42", label: "A42 Waratah", tripId: "T1.1234.20251222", routeId: "T1", serviceDate: 20_251_222,
        startTime: "19:40:00", lat: -33.8735, lon: 151.2069, bearing: 185.5, speedMetresPerSecond: 11.2,
        currentStopSequence: 12, stopId: "2000331", currentStatus: "IN_TRANSIT_TO",
        occupancyStatus: "MANY_SEATS_AVAILABLE", timestamp: 1_766_393_990,
        carriages: [
            LiveCarriage(
                position: 1, name: "D6123", occupancy: "FEW_SEATS_AVAILABLE", quiet: false, toilet: "ACCESSIBLE",
                luggageRack: false),
            LiveCarriage(position: 2, name: "N5123", quiet: true, toilet: "NONE", luggageRack: true),
        ],
        airConditioned: true, wheelchairAccessible: true, model: "A", routeShortName: "T1", routeColor: "#F99D1C",
        mode: "train", headsign: "Emu Plains")

    static let tripRealtime = TripRealtime(
        stops: [
            LiveStop(
                stopId: "2000331", stopSequence: 12, predictedArrival: origin + 72270,
                predictedDeparture: origin + 72330,
                status: .predicted, predictionSource: .stopUpdate, departureOccupancy: "MANY_SEATS_AVAILABLE",
                carriages: Array(carriagesOnDeparture.prefix(2))),
            LiveStop(stopId: "2000441", stopSequence: 13, status: .skipped),
        ],
        predictionAgeSeconds: 12, vehicle: vehicle)

    /// A stop of `trip` with predicted times (by index: 0 is stop_sequence 12, 1 is 13).
    static func predicted(_ index: Int, arrival: Int64? = nil, departure: Int64? = nil) -> LiveStop {
        LiveStop(
            stopId: index == 0 ? "2000331" : "2000441", stopSequence: index == 0 ? 12 : 13, predictedArrival: arrival,
            predictedDeparture: departure, status: .predicted)
    }

    static let feedInfo = FeedInfo(
        databaseVersion: "20251222T031500Z-5f3a", importedAt: 1_766_373_300,
        feeds: [
            FeedSummary(
                name: "sample", publisher: "Transit Sample", version: "2025.12", startDate: 20_250_101,
                endDate: 20_301_231, timezone: sydney, lang: "en", importedAt: 1_766_373_300, stops: 412, routes: 38,
                trips: 5120, stopTimes: 98765, source: "data/sample-feed")
        ],
        stops: 412, routes: 38, trips: 5120, stopTimes: 98765, patterns: 240)

    static let liftAlert = AlertView(
        id: "alert-17", header: "Lifts out of service at Central", description: "Use the lifts at Eddy Avenue.",
        url: nil, cause: "MAINTENANCE", effect: "ACCESSIBILITY_ISSUE", severity: "WARNING",
        activePeriods: [.init(start: 1_766_350_800, end: nil)],
        informedEntities: [.init(stopId: "200060")])
}

/// Paths where two parsed JSON values differ ("data.departures[0].minutes_until: 5 ≠ 6"), for readable failures.
func differences(_ a: Any, _ b: Any, path: String = "") -> [String] {
    if let a = a as? [String: Any], let b = b as? [String: Any] {
        var out: [String] = []
        for key in Set(a.keys).union(b.keys).sorted() {
            let sub = path.isEmpty ? key : "\(path).\(key)"
            switch (a[key], b[key]) {
            case (let x?, let y?): out += differences(x, y, path: sub)
            case (nil, _): out.append("\(sub): missing on the left")
            case (_, nil): out.append("\(sub): missing on the right")
            }
        }
        return out
    }
    if let a = a as? [Any], let b = b as? [Any] {
        guard a.count == b.count else { return ["\(path): \(a.count) elements ≠ \(b.count)"] }
        return zip(a, b).enumerated().flatMap { differences($0.element.0, $0.element.1, path: "\(path)[\($0.offset)]") }
    }
    let equal: Bool
    switch (a, b) {
    case (let x as String, let y as String): equal = x == y
    case (let x as NSNumber, let y as NSNumber): equal = x == y
    case (is NSNull, is NSNull): equal = true
    default: equal = false
    }
    if kind(a) != kind(b) || !equal {
        return ["\(path): \(a) (\(kind(a).map(\.description) ?? "?")) ≠ \(b) (\(kind(b).map(\.description) ?? "?"))"]
    }
    return []
}
