/// The planned network the feed writer streams trips from.
struct Network {
    var agencies: [(id: String, name: String)]
    var stops: [GenStop]
    var routes: [GenRoute]
    var patterns: [GenPattern]
}

/// Builds a Sydney-shaped network whose size follows a `FeedScale`.
///
/// Shape: a few CBD hub stations (Central first) that every train line crosses, regional hubs, bus
/// corridors radiating from every hub that many bus routes share, so busy stations are served by
/// hundreds of distinct stop patterns. Everything comes from one seeded generator, in a fixed order.
struct NetworkBuilder {
    let scale: FeedScale
    var rng: SplitMix64
    var stops: [GenStop] = []
    var routes: [GenRoute] = []
    var patterns: [GenPattern] = []
    var stations: [StationSlot] = []
    /// Station slots of the hubs; the first `cbdCount` are the CBD hubs, hub 0 is Central.
    var hubs: [Int] = []
    var cbdCount = 0
    var hubCumulativeWeights: [Double] = []
    var corridors: [[Corridor]] = []
    /// Per train line: its station slots in direction 0 (used by rail replacement buses).
    var lineStations: [[Int]] = []
    var lineShortNames: [String] = []
    var lightRailTrunk: [Int] = []
    private var placeCounter = 0
    private var stationSerial = 0
    private var stopSerial = 0

    static let busOperators: [(id: String, name: String)] = [
        ("2459", "Transit Systems"), ("2436", "Keolis Downer Northern Beaches"), ("2440", "CDC NSW"),
        ("2441", "Busways"), ("2442", "U-Go Mobility"), ("2443", "Transdev John Holland"),
        ("2444", "Interline Bus Services"), ("2445", "Premier Illawarra"), ("2446", "Hillsbus"),
        ("2447", "Newcastle Transport"),
    ]
    static let agencies: [(id: String, name: String)] =
        [
            ("SydneyTrains", "Sydney Trains"), ("NSWTrains", "NSW TrainLink"), ("SMNW", "Sydney Metro"),
            ("LR", "Transdev Sydney Light Rail"), ("SF", "Transdev Sydney Ferries"),
        ] + busOperators
    static let firstBusAgency = 5

    /// The fixed ids of the CBD hubs, as in Transport for NSW's feeds (Central is 200060).
    static let cbdStationIds = [200_060, 200_070, 200_080, 200_020, 200_050, 200_040]

    init(scale: FeedScale, seed: UInt64) {
        self.scale = scale
        rng = SplitMix64(seed: seed ^ 0x5359_444E_4559)  // "SYDNEY"
    }

    mutating func build() -> Network {
        let counts = RouteCounts(routes: scale.routes)
        buildHubs()
        for i in 0..<counts.train { buildTrainLine(i) }
        for i in 0..<counts.metro { buildMetroLine(i) }
        for i in 0..<counts.lightRail { buildLightRailLine(i) }
        buildFerries(count: counts.ferry)
        for i in 0..<counts.coach { buildCoachRoute(i) }
        for i in 0..<counts.school { buildSchoolRoute(i) }
        for i in 0..<counts.railReplacement { buildRailReplacementRoute(i) }
        buildCorridors()
        buildBusRoutes(count: counts.bus)
        return Network(agencies: Self.agencies, stops: stops, routes: routes, patterns: patterns)
    }

    // MARK: names and ids

    mutating func nextPlace() -> String {
        defer { placeCounter += 1 }
        return NameBank.place(placeCounter)
    }

    /// A standalone stop (bus stop, light rail stop, wharf): 7-digit ids from 2000000.
    mutating func addStop(name: String, at position: Point, wheelchair: Int? = nil) -> Int {
        let id = 2_000_000 + stopSerial
        stopSerial += 1
        let wc = wheelchair ?? randomWheelchair()
        stops.append(
            GenStop(
                id: id, name: name, position: position, locationType: 0, parent: -1, wheelchair: wc,
                platformCode: "", hasCode: true))
        return stops.count - 1
    }

    mutating func randomWheelchair() -> Int {
        let r = rng.unit()
        return r < 0.6 ? 1 : (r < 0.85 ? 0 : 2)
    }

    // MARK: stations

    /// A parent station (location_type 1) with room for platforms and bus stands as children.
    mutating func addStation(
        name: String, stopName: String? = nil, at position: Point, fixedId: Int? = nil,
        maxPlatforms: Int, maxStands: Int, entrances: Int
    ) -> Int {
        let id: Int
        if let fixedId {
            id = fixedId
        } else {
            id = 210_000 + 10 * stationSerial
            stationSerial += 1
        }
        let wheelchair = rng.chance(0.85) ? 1 : (rng.chance(0.5) ? 2 : 0)
        stops.append(
            GenStop(
                id: id, name: stopName ?? "\(name) Station", position: position, locationType: 1, parent: -1,
                wheelchair: wheelchair, platformCode: "", hasCode: false))
        // children get ids parent*100 + n, so a station holds at most 99 of them
        precondition(maxPlatforms + maxStands + entrances + 1 <= 99)
        stations.append(
            StationSlot(
                stop: stops.count - 1, name: name, position: position, maxPlatforms: maxPlatforms,
                maxStands: maxStands))
        let slot = stations.count - 1
        for _ in 0..<entrances {
            let street = NameBank.street(&rng)
            _ = addChild(slot, name: "\(name) Station, \(street) Entrance", locationType: 2, platformCode: "")
        }
        return slot
    }

    mutating func addChild(_ slot: Int, name: String, locationType: Int, platformCode: String) -> Int {
        let parentStop = stations[slot].stop
        let n = stations[slot].nextChild
        stations[slot].nextChild += 1
        let base = stations[slot].position
        let position = Point(lat: base.lat + (n % 7 - 3) * 45, lon: base.lon + (n % 5 - 2) * 45)
        let r = rng.unit()
        // 0 = inherit from the parent station, as GTFS defines for children
        let wheelchair = r < 0.8 ? 0 : (r < 0.93 ? 1 : 2)
        stops.append(
            GenStop(
                id: stops[parentStop].id * 100 + n, name: name, position: position, locationType: locationType,
                parent: parentStop, wheelchair: wheelchair, platformCode: platformCode,
                hasCode: locationType == 0))
        return stops.count - 1
    }

    /// The platforms a line uses at a station, direction 0 then 1; reuses pairs once the station is full.
    mutating func platformPair(_ slot: Int) -> (Int, Int) {
        let s = stations[slot]
        if s.platforms.count + 2 <= s.maxPlatforms {
            var pair: [Int] = []
            for _ in 0..<2 {
                let k = stations[slot].platforms.count + 1
                let child = addChild(
                    slot, name: "\(s.name) Station, Platform \(k)", locationType: 0, platformCode: "\(k)")
                stations[slot].platforms.append(child)
                pair.append(child)
            }
            return (pair[0], pair[1])
        }
        let pairs = max(1, s.platforms.count / 2)
        let j = s.reusePlatform % pairs
        stations[slot].reusePlatform += 1
        return (s.platforms[2 * j], s.platforms[min(2 * j + 1, s.platforms.count - 1)])
    }

    /// A bus stand at a station ("Parramatta Station, Stand C"); reuses stands once the station is full.
    mutating func stand(_ slot: Int) -> Int {
        let s = stations[slot]
        if s.stands.count < s.maxStands {
            let letter = Self.standLetter(s.stands.count)
            let child = addChild(
                slot, name: "\(s.name) Station, Stand \(letter)", locationType: 0, platformCode: letter)
            stations[slot].stands.append(child)
            return child
        }
        let j = s.reuseStand % max(1, s.stands.count)
        stations[slot].reuseStand += 1
        return s.stands[j]
    }

    static func standLetter(_ n: Int) -> String {
        let letters = Array("ABCDEFGHJKLMNPQRSTUVWXYZ")
        return n < letters.count
            ? String(letters[n]) : String(letters[n / letters.count - 1]) + String(letters[n % letters.count])
    }

    // MARK: hubs

    mutating func buildHubs() {
        let hubCount = max(4, scale.routes / 16)
        cbdCount = min(6, max(2, hubCount / 8))
        let centre = Point(lat: NameBank.majorHubs[0].lat, lon: NameBank.majorHubs[0].lon)
        var total = 0.0
        for i in 0..<hubCount {
            let name: String
            let position: Point
            if i < NameBank.majorHubs.count {
                name = NameBank.majorHubs[i].name
                position = Point(lat: NameBank.majorHubs[i].lat, lon: NameBank.majorHubs[i].lon)
            } else {
                name = nextPlace()
                position = centre.moved(direction: rng.below(16), metres: 5_000 + rng.unit() * 40_000).onLand
            }
            let isCBD = i < cbdCount
            let slot = addStation(
                name: name, at: position, fixedId: i < Self.cbdStationIds.count ? Self.cbdStationIds[i] : nil,
                maxPlatforms: i == 0 ? 26 : (isCBD ? 12 : 8), maxStands: i == 0 ? 50 : (isCBD ? 24 : 20),
                entrances: isCBD ? 3 : 1)
            if i == 0 {
                _ = addChild(slot, name: "\(name) Station, Grand Concourse", locationType: 3, platformCode: "")
            }
            hubs.append(slot)
            // Zipf-like popularity: Central is the end of far more routes than an outer hub
            total += 1.0 / Double(i + 1).squareRoot()
            hubCumulativeWeights.append(total)
        }
    }

    /// A hub index, the busiest ones more often.
    mutating func pickHub() -> Int {
        let x = rng.unit() * hubCumulativeWeights[hubCumulativeWeights.count - 1]
        var lo = 0, hi = hubCumulativeWeights.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if hubCumulativeWeights[mid] > x { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    var cbdCentre: Point { stations[hubs[0]].position }

    /// The compass direction mirrored east-west (east becomes west, north-east north-west).
    static func mirrorEastWest(_ direction: Int) -> Int {
        (24 - ((direction % 16) + 16) % 16) % 16
    }

    // MARK: patterns

    /// Adds a pattern with running times from the distances between its stops.
    mutating func addPattern(
        route: Int, direction: Int, stops stopList: [Int], headsign: String, share: Double,
        dwellAtStations: Int = 0, pickupNone: Set<Int> = []
    ) {
        let speed = routes[route].mode.speed
        var arrival: [Int] = [], departure: [Int] = []
        var seconds = 0.0
        var last = 0
        for (i, stop) in stopList.enumerated() {
            if i > 0 {
                let metres = stops[stopList[i - 1]].position.metres(to: stops[stop].position)
                seconds += max(45, metres * 1.25 / speed)
            }
            // whole minutes, never earlier than the previous departure
            var arr = Int((seconds / 60).rounded()) * 60
            arr = max(arr, last)
            var dep = arr
            if dwellAtStations > 0, i > 0, i < stopList.count - 1, stops[stop].parent >= 0,
                stops[stops[stop].parent].id < 210_000
            {
                dep += dwellAtStations  // dwell at the CBD hubs
                seconds += Double(dwellAtStations)
            }
            arrival.append(arr)
            departure.append(dep)
            last = dep
        }
        var pickup = [Int](repeating: 0, count: stopList.count)
        for i in pickupNone { pickup[i] = 1 }
        patterns.append(
            GenPattern(
                route: route, direction: direction, stops: stopList, arrival: arrival, departure: departure,
                pickup: pickup, dropOff: [Int](repeating: 0, count: stopList.count), headsign: headsign,
                share: share))
        routes[route].patterns.append(patterns.count - 1)
    }
}

/// A parent station and the children it has handed out so far.
struct StationSlot {
    var stop: Int
    var name: String
    var position: Point
    var maxPlatforms: Int
    var maxStands: Int
    var platforms: [Int] = []
    var stands: [Int] = []
    var nextChild = 1
    var reusePlatform = 0
    var reuseStand = 0
}

/// Bus stops along a road out of a hub, shared by many bus routes (both directions).
struct Corridor {
    var outbound: [Int]
    var inbound: [Int]
    var direction: Int
    var end: Point
}

/// How many routes of each mode a scale asks for (every mode at least once).
struct RouteCounts {
    var train, metro, lightRail, ferry, coach, railReplacement, school, bus: Int

    init(routes r: Int) {
        train = max(2, r * 3 / 100)
        metro = max(1, r / 500)
        lightRail = max(1, r / 250)
        ferry = max(1, r * 14 / 1000)
        coach = max(1, r / 100)
        railReplacement = max(1, r * 8 / 1000)
        school = max(1, r * 12 / 100)
        let others = train + metro + lightRail + ferry + coach + railReplacement + school
        bus = max(3, r - others)
    }
}
