/// Trains, metro and rail replacement buses.
extension NetworkBuilder {
    static let trainNames = ["T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "CCN", "BMT", "SCO", "SHL", "HUN"]
    static let trainColours = [
        "F99D1C", "0098CD", "F37021", "005AA3", "C4258F", "7C3E21", "6F818E", "00954C", "D11F2F", "D11F2F",
        "F99D1C", "005AA3", "00954C", "833134",
    ]

    var stationsPerLine: Int { min(24, max(6, 6 + scale.stops / 8_000)) }

    func trainShortName(_ i: Int) -> String {
        i < Self.trainNames.count ? Self.trainNames[i] : "T\(i - Self.trainNames.count + 10)"
    }

    /// Outer stations along one side of a line, innermost first.
    mutating func outerStations(direction: Int, count: Int, firstMetres: Double, spacing: Double) -> [Int] {
        var out: [Int] = []
        var dir = direction
        var position = cbdCentre.moved(direction: dir, metres: firstMetres).onLand
        for _ in 0..<count {
            let slot = addStation(
                name: nextPlace(), at: position, maxPlatforms: 2 + 2 * rng.below(2), maxStands: 4,
                entrances: rng.chance(0.3) ? 1 : 0)
            out.append(slot)
            if rng.chance(0.25) { dir += rng.chance(0.5) ? 1 : -1 }
            let metres = spacing * (0.8 + 0.4 * rng.unit())
            var next = position.moved(direction: dir, metres: metres)
            if next.isAtSea {
                dir = Self.mirrorEastWest(dir)
                next = position.moved(direction: dir, metres: metres).onLand
            }
            position = next
        }
        return out
    }

    /// CBD hubs a line runs through: always Central, plus one to three others.
    mutating func cbdSequence(extra: Int) -> [Int] {
        var others = Array(1..<max(2, cbdCount))
        for i in stride(from: others.count - 1, to: 0, by: -1) { others.swapAt(i, rng.below(i + 1)) }
        let picked = Array(others.prefix(min(extra, others.count)))
        let half = picked.count / 2
        return (picked[..<half] + [0] + picked[half...]).map { hubs[$0] }
    }

    /// A regional (non-CBD) hub lying roughly in `direction` from the CBD: one of the three best aligned.
    mutating func regionalHub(towards direction: Int) -> Int? {
        guard hubs.count > cbdCount else { return nil }
        let (c, s) = Point.compass[((direction % 16) + 16) % 16]
        let centre = cbdCentre
        let ranked = hubs[cbdCount...].sorted { a, b in
            func alignment(_ slot: Int) -> Double {
                let p = stations[slot].position
                let dx = Double(p.lon - centre.lon) * 0.0925, dy = Double(p.lat - centre.lat) * 0.1112
                let length = max(1, (dx * dx + dy * dy).squareRoot())
                return (dx * c + dy * s) / length
            }
            return (alignment(a), -a) > (alignment(b), -b)
        }
        return ranked[rng.below(min(3, ranked.count))]
    }

    /// Stations of one side ordered from the CBD outwards.
    func sortedByDistance(_ slots: [Int]) -> [Int] {
        slots.sorted { a, b in
            (stations[a].position.metres(to: cbdCentre), a) < (stations[b].position.metres(to: cbdCentre), b)
        }
    }

    /// One line through the CBD: outer stations A, a regional hub, CBD hubs, a regional hub, outer B.
    mutating func lineStations(ownCount: Int, cbdExtra: Int) -> (stations: [Int], cbdRange: Range<Int>) {
        let dirA = rng.below(16)
        let dirB = (dirA + 6 + rng.below(5)) % 16
        let countA = max(2, ownCount / 2 + rng.int(-1...1))
        let countB = max(2, ownCount - countA)
        var sideA = outerStations(direction: dirA, count: countA, firstMetres: 3_000, spacing: 2_500)
        var sideB = outerStations(direction: dirB, count: countB, firstMetres: 3_000, spacing: 2_500)
        if let hub = regionalHub(towards: dirA) { sideA = sortedByDistance(sideA + [hub]) }
        if let hub = regionalHub(towards: dirB), !sideA.contains(hub) { sideB = sortedByDistance(sideB + [hub]) }
        let cbd = cbdSequence(extra: cbdExtra)
        let stations = Array(sideA.reversed()) + cbd + sideB
        return (stations, sideA.count..<(sideA.count + cbd.count))
    }

    mutating func buildTrainLine(_ i: Int) {
        let short = trainShortName(i)
        let intercity = (9..<14).contains(i)
        let (stations, cbd) = lineStations(ownCount: stationsPerLine, cbdExtra: 1 + rng.below(3))
        let first = self.stations[stations[0]].name, last = self.stations[stations[stations.count - 1]].name
        let route = appendRoute(
            GenRoute(
                id: intercity ? "NSW_\(short)" : "ST_\(short)", agency: intercity ? 1 : 0, shortName: short,
                longName: "\(first) to \(last) via \(self.stations[hubs[0]].name)",
                desc: intercity ? "NSW TrainLink Intercity, \(first) - \(last)" : "Sydney Trains Network",
                mode: .train, color: Self.trainColours[i % Self.trainColours.count], textColor: "FFFFFF",
                timetable: .scheduled, services: [.weekday, .saturday, .sunday], weight: 4.0, fixedTrips: 0))
        lineStations.append(stations)
        lineShortNames.append(short)

        let pairs = stations.map { platformPair($0) }
        // express: hubs, termini and every other outer station
        var express: [Int] = []
        for (k, slot) in stations.enumerated() {
            let isHub = hubs.contains(slot)
            if k == 0 || k == stations.count - 1 || isHub || k % 2 == 0 { express.append(k) }
        }
        let variants: [(indices: [Int], share: Double)] = [
            (Array(0..<stations.count), 0.55),
            (express, 0.2),
            (Array(0..<cbd.upperBound), 0.15),  // short working: A side to the city
            (Array(cbd.lowerBound..<stations.count), 0.1),  // short working: city to B side
        ]
        for direction in 0..<2 {
            for variant in variants where variant.indices.count >= 2 {
                let order = direction == 0 ? variant.indices : variant.indices.reversed()
                let stopList = order.map { direction == 0 ? pairs[$0].0 : pairs[$0].1 }
                addPattern(
                    route: route, direction: direction, stops: stopList,
                    headsign: self.stations[stations[order[order.count - 1]]].name, share: variant.share,
                    dwellAtStations: 60)
            }
        }
    }

    mutating func buildMetroLine(_ i: Int) {
        let (stations, _) = lineStations(ownCount: max(6, stationsPerLine * 2 / 3), cbdExtra: 1)
        let first = self.stations[stations[0]].name, last = self.stations[stations[stations.count - 1]].name
        let route = appendRoute(
            GenRoute(
                id: "SMNW_M\(i + 1)", agency: 2, shortName: "M\(i + 1)", longName: "Metro \(first) to \(last) Line",
                desc: "Sydney Metro", mode: .metro, color: "168388", textColor: "FFFFFF",
                timetable: .frequencyExact, services: [.weekday, .saturday, .sunday], weight: 0, fixedTrips: 0))
        let pairs = stations.map { platformPair($0) }
        for direction in 0..<2 {
            let order = direction == 0 ? Array(0..<stations.count) : Array((0..<stations.count).reversed())
            addPattern(
                route: route, direction: direction, stops: order.map { direction == 0 ? pairs[$0].0 : pairs[$0].1 },
                headsign: self.stations[stations[order[order.count - 1]]].name, share: 1)
        }
    }

    /// Buses replacing a stretch of a train line during trackwork: a stand at each station.
    mutating func buildRailReplacementRoute(_ i: Int) {
        let line = i % lineStations.count
        let all = lineStations[line]
        let length = min(all.count, 5 + rng.below(5))
        let start = rng.below(all.count - length + 1)
        let segment = Array(all[start..<(start + length)])
        let first = stations[segment[0]].name, last = stations[segment[segment.count - 1]].name
        let short = lineShortNames[line]
        let route = appendRoute(
            GenRoute(
                id: "RR_\(short)_\(i + 1)", agency: 0, shortName: short,
                longName: "Buses replace \(short) trains, \(first) to \(last)", desc: "Rail replacement buses",
                mode: .railReplacement, color: Self.trainColours[line % Self.trainColours.count], textColor: "FFFFFF",
                timetable: .scheduled, services: [.trackwork], weight: 1.5, fixedTrips: 0))
        let standStops = segment.map { stand($0) }
        addPattern(route: route, direction: 0, stops: standStops, headsign: last, share: 1)
        addPattern(route: route, direction: 1, stops: standStops.reversed(), headsign: first, share: 1)
    }

    mutating func appendRoute(_ route: GenRoute) -> Int {
        routes.append(route)
        return routes.count - 1
    }
}
