/// The planned network: stops, routes and stop patterns. Small enough to hold in memory (a few
/// thousand patterns); the trips and their ten million stop times are streamed from it.

/// What kind of vehicle a route uses; decides its route_type, speed, services and timetable.
enum Mode: Sendable {
    case train, metro, lightRail, ferry, bus, nightBus, schoolBus, railReplacement, coach

    var routeType: Int {
        switch self {
        case .train: 2
        case .metro: 401
        case .lightRail: 900
        case .ferry: 4
        case .bus, .nightBus: 700
        case .schoolBus: 712
        case .railReplacement: 714
        case .coach: 204
        }
    }

    /// Average speed between stops including dwell, metres per second.
    var speed: Double {
        switch self {
        case .train: 14
        case .metro: 16
        case .lightRail: 6
        case .ferry: 7
        case .bus, .nightBus, .schoolBus, .railReplacement: 6
        case .coach: 20
        }
    }
}

/// The services (service_id) the generated feed uses.
enum Service: Int, CaseIterable, Sendable {
    case weekday, saturday, sunday, school, trackwork, event

    var id: String {
        switch self {
        case .weekday: "WKD"
        case .saturday: "SAT"
        case .sunday: "SUN"
        case .school: "SCHOOL"
        case .trackwork: "TRACKWORK"
        case .event: "EVENT"
        }
    }
}

/// How a route's trips are written: one trip per departure, or frequency templates.
enum TimetableKind: Sendable {
    case scheduled
    case frequencyExact  // frequencies.txt exact_times=1
    case frequencyHeadway  // frequencies.txt exact_times=0
}

struct Point {
    var lat: Int  // millionths of a degree
    var lon: Int

    /// Metres between two points (flat-earth approximation, fine at city scale).
    func metres(to other: Point) -> Double {
        let dy = Double(other.lat - lat) * 0.1112
        let dx = Double(other.lon - lon) * 0.0925
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Moves `metres` towards one of 16 compass directions (0 = east, 4 = north).
    func moved(direction: Int, metres: Double) -> Point {
        let (c, s) = Point.compass[((direction % 16) + 16) % 16]
        return Point(lat: lat + Int(s * metres / 0.1112), lon: lon + Int(c * metres / 0.0925))
    }

    /// Sydney's coast runs north-south near 151.29° E: nothing but ferries' wharves lies east of it.
    static let coastLongitude = 151_290_000

    var isAtSea: Bool { lon > Point.coastLongitude }

    /// Mirrors a point that fell into the sea back onto land.
    var onLand: Point {
        isAtSea ? Point(lat: lat, lon: 2 * Point.coastLongitude - lon) : self
    }

    /// cos and sin of k × 22.5°, written out so the output never depends on the host's libm.
    static let compass: [(Double, Double)] = [
        (1.0, 0.0), (0.92388, 0.382683), (0.707107, 0.707107), (0.382683, 0.92388), (0.0, 1.0),
        (-0.382683, 0.92388), (-0.707107, 0.707107), (-0.92388, 0.382683), (-1.0, 0.0),
        (-0.92388, -0.382683), (-0.707107, -0.707107), (-0.382683, -0.92388), (0.0, -1.0),
        (0.382683, -0.92388), (0.707107, -0.707107), (0.92388, -0.382683),
    ]
}

struct GenStop {
    var id: Int
    var name: String
    var position: Point
    var locationType: Int  // 0 stop/platform, 1 station, 2 entrance, 3 generic node
    var parent: Int  // index into the stop list, -1 for none
    var wheelchair: Int
    var platformCode: String
    var hasCode: Bool  // stop_code is written (the id, as Transport for NSW does)
}

struct GenRoute {
    var id: String
    var agency: Int
    var shortName: String
    var longName: String
    var desc: String
    var mode: Mode
    var color: String
    var textColor: String
    var timetable: TimetableKind
    var services: [Service]
    /// Weekday departures per direction per unit of the global trip multiplier.
    var weight: Double
    /// Fixed departures per direction and service instead of `weight` (night, school, event trips).
    var fixedTrips: Int
    var patterns: [Int] = []
}

struct GenPattern {
    var route: Int
    var direction: Int
    var stops: [Int]
    /// Arrival and departure offsets from the trip's first departure, in seconds.
    var arrival: [Int]
    var departure: [Int]
    var pickup: [Int]
    var dropOff: [Int]
    var headsign: String
    /// Share of its route and direction's departures (shares of one direction sum to 1).
    var share: Double
}
