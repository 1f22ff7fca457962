// Realistic request mixes drawn from the database under test: the busiest stations for departures, random
// stops and trips, name prefixes, words with a typo and word ends for search. Drawn with a fixed seed so two runs ask the same questions.
import SQLiteKit
import TransitModel

struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {  // splitmix64
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

struct Workload {
    var stopIds: [String] = []
    var busyStations: [String] = []
    var searchTerms: [String] = []
    /// Words typed with a letter missing or two neighbours swapped ("centrl", "cnetral"), and the end of a word
    /// ("entral"): answered by the search's in-memory tiers when no name holds the text as a word.
    var typoTerms: [String] = []
    var insideTerms: [String] = []
    var coordinates: [(Double, Double)] = []
    var tripIds: [String] = []
    var databaseVersion = ""

    init(databasePath: String, seed: UInt64 = 42) throws {
        let db = try Database(path: databasePath, mode: .readOnly)
        var rng = SeededGenerator(seed: seed)
        // Stops riders ask for: stations and stops without a parent, with service.
        let stops = try db.prepare(
            "SELECT stop_id, name, lat, lon FROM stops WHERE parent_pk IS NULL AND location_type IN (0,1) AND trip_count > 0"
        )
        var all: [(String, String, Double, Double)] = []
        while try stops.step() {
            all.append((stops.string(0) ?? "", stops.string(1) ?? "", stops.double(2), stops.double(3)))
        }
        guard !all.isEmpty else { throw BenchError("no served stops in \(databasePath)") }
        for _ in 0..<2000 {
            let s = all.randomElement(using: &rng)!
            stopIds.append(s.0)
            coordinates.append((s.2, s.3))
            let word = s.1.split(separator: " ").first.map(String.init) ?? s.1
            searchTerms.append(String(word.prefix(Int.random(in: 3...6, using: &rng))))
            var letters = Array(word.lowercased())
            if letters.count >= 5 {
                let k = Int.random(in: 1..<(letters.count - 1), using: &rng)
                if Bool.random(using: &rng) { letters.remove(at: k) } else { letters.swapAt(k, k + 1) }
                typoTerms.append(String(letters))
                insideTerms.append(String(word.dropFirst(Int.random(in: 1...2, using: &rng))))
            }
        }
        let busy = try db.prepare(
            "SELECT stop_id FROM stops WHERE parent_pk IS NULL ORDER BY trip_count DESC LIMIT 50")
        while try busy.step() { busyStations.append(busy.string(0) ?? "") }
        let tripCount = try db.scalarInt("SELECT max(trip_pk) FROM trips") ?? 0
        let trip = try db.prepare("SELECT trip_id FROM trips WHERE trip_pk >= ? ORDER BY trip_pk LIMIT 1")
        for _ in 0..<5000 {
            trip.reset()
            trip.bind(1, Int64.random(in: 0...max(tripCount, 1), using: &rng))
            if try trip.step(), let id = trip.string(0) { tripIds.append(id) }
        }
        databaseVersion = try db.scalarText("SELECT value FROM meta WHERE key = 'db_version'") ?? "?"
    }

    /// The i-th request of one kind.
    func query(_ kind: QueryKind, _ i: Int, at: Int64, serviceDate: ServiceDate) -> StaticQuery {
        switch kind {
        case .stop: return .stop(StopQuery(stopId: stopIds[i % stopIds.count]))
        case .search: return .search(SearchQuery(query: searchTerms[i % searchTerms.count], limit: 10))
        case .searchTypo: return .search(SearchQuery(query: typoTerms[i % typoTerms.count], limit: 10))
        case .searchInside: return .search(SearchQuery(query: insideTerms[i % insideTerms.count], limit: 10))
        case .nearby:
            let (lat, lon) = coordinates[i % coordinates.count]
            return .nearby(NearbyQuery(lat: lat + 0.001, lon: lon - 0.001, radiusMetres: 500, limit: 10))
        case .departures:
            return .departures(
                DeparturesQuery(stopId: busyStations[i % busyStations.count], at: at + Int64(i % 3600), limit: 10))
        case .trip: return .trip(TripQuery(tripId: tripIds[i % tripIds.count], at: at))
        case .tripSchedules1000, .tripSchedules1000Warm:
            let start = (i * 1000) % max(tripIds.count - 1000, 1)
            return .tripSchedules(
                TripSchedulesQuery(
                    tripIds: Array(tripIds[start..<min(start + 1000, tripIds.count)]), fromDate: serviceDate,
                    toDate: serviceDate))
        }
    }
}

enum QueryKind: String, CaseIterable {
    case stop, search
    case searchTypo = "search typo"
    case searchInside = "search inside"
    case nearby, departures, trip
    /// Cold: the client holds no patterns, so every answer carries all the patterns of its trips.
    case tripSchedules1000 = "trip_schedules×1000"
    /// Warm: the client names the patterns earlier answers gave it (`known_pattern_ids`), as the realtime
    /// service does, and gets only trips and new patterns. The warm-up asks the same requests, so the timed
    /// ones find every pattern known: the steady state of a long-running realtime service.
    case tripSchedules1000Warm = "trip_schedules×1000 warm"

    var isBulk: Bool { self == .tripSchedules1000 || self == .tripSchedules1000Warm }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
