/// Buses (regular, loops, frequent, NightRide), school buses and coaches.
extension NetworkBuilder {
    static let oppositeRelation = ["opp": "at", "at": "opp", "after": "before", "before": "after", "near": "near"]

    /// Pairs of bus stops (outbound, inbound: opposite sides of the road) at the given positions.
    /// The street changes every few stops; a quarter of the names carry the suburb after a comma.
    mutating func roadStops(_ positions: [Point], area: String, bothSides: Bool) -> (out: [Int], back: [Int]) {
        var out: [Int] = [], back: [Int] = []
        var street = NameBank.street(&rng)
        for (k, position) in positions.enumerated() {
            if k > 0, rng.chance(0.18) { street = NameBank.street(&rng) }
            let cross = NameBank.street(&rng)
            let relation = NameBank.relations[rng.below(NameBank.relations.count)]
            let suffix = rng.chance(0.25) ? ", \(area)" : ""
            out.append(addStop(name: "\(street) \(relation) \(cross)\(suffix)", at: position))
            if bothSides {
                let other = Self.oppositeRelation[relation] ?? relation
                back.append(
                    addStop(
                        name: "\(street) \(other) \(cross)\(suffix)",
                        at: Point(lat: position.lat + 160, lon: position.lon + 90)))
            }
        }
        return (out, back)
    }

    mutating func walk(from start: Point, direction: Int, count: Int, spacing: Double) -> [Point] {
        var points: [Point] = []
        var dir = direction
        var position = start
        for _ in 0..<count {
            let metres = spacing * (0.75 + 0.5 * rng.unit())
            var next = position.moved(direction: dir, metres: metres)
            if next.isAtSea {
                dir = NetworkBuilder.mirrorEastWest(dir)  // turn back at the coast
                next = position.moved(direction: dir, metres: metres).onLand
            }
            position = next
            points.append(position)
            if rng.chance(0.2) { dir += rng.chance(0.5) ? 1 : -1 }
        }
        return points
    }

    /// Points from `start` to `end` (exclusive of both), with some sideways jitter.
    mutating func line(from start: Point, to end: Point, count: Int) -> [Point] {
        (1...max(1, count)).map { k in
            let t = Double(k) / Double(count + 1)
            return Point(
                lat: start.lat + Int(Double(end.lat - start.lat) * t) + rng.int(-900...900),
                lon: start.lon + Int(Double(end.lon - start.lon) * t) + rng.int(-900...900)
            ).onLand
        }
    }

    /// A random hub (index) within `metres` of a point, other than `except`.
    mutating func hubNear(_ point: Point, within metres: Double, except: Int) -> Int? {
        let near = hubs.indices.filter { $0 != except && stations[hubs[$0]].position.metres(to: point) <= metres }
        return near.isEmpty ? nil : near[rng.below(near.count)]
    }

    var corridorLength: Int { min(9, max(2, scale.stops / 12_000)) }

    /// Roads out of every hub whose stops many bus routes share.
    mutating func buildCorridors() {
        for (h, slot) in hubs.enumerated() {
            var list: [Corridor] = []
            for c in 0..<(h < cbdCount ? 4 : 3) {
                let direction = (h * 5 + c * 4 + rng.below(3)) % 16
                let points = walk(
                    from: stations[slot].position, direction: direction, count: corridorLength + rng.below(3),
                    spacing: 400)
                let (out, back) = roadStops(points, area: stations[slot].name, bothSides: true)
                list.append(Corridor(outbound: out, inbound: back, direction: direction, end: points[points.count - 1]))
            }
            corridors.append(list)
        }
    }

    /// Route short names: 100-999 in a shuffled order, some with an L (limited) prefix or X (express)
    /// suffix; letters repeat the numbers once they run out.
    mutating func busNumbers(_ count: Int) -> [String] {
        var numbers = Array(100...999)
        for i in stride(from: numbers.count - 1, to: 0, by: -1) { numbers.swapAt(i, rng.below(i + 1)) }
        return (0..<count).map { i in
            let n = numbers[i % numbers.count]
            let round = i / numbers.count
            if round > 0 {
                return "\(n)" + ["A", "B", "C", "D", "E", "F"][(round - 1) % 6] + (round > 6 ? "\(round)" : "")
            }
            let r = rng.unit()
            return r < 0.06 ? "L\(n)" : (r < 0.1 ? "\(n)X" : "\(n)")
        }
    }

    mutating func buildBusRoutes(count: Int) {
        // Route kinds by position, so every scale has some of each. Loops run one way only.
        let isNight = { (i: Int) in i % 34 == 7 }
        let isFrequent = { (i: Int) in i % 50 == 11 && !isNight(i) }
        let isLoop = { (i: Int) in i % 20 == 3 && !isNight(i) }

        // Own stops per route: whatever the stop target still needs, spread over the routes.
        var units = 0
        for i in 0..<count { units += isLoop(i) ? 1 : 2 }
        let budget = max(0, scale.stops - stops.count)
        let base = max(3, (budget + units - 1) / max(1, units))
        var lengths = (0..<count).map { _ in max(2, base + rng.int(-(base / 3)...(base / 3))) }
        var have = 0
        for i in 0..<count { have += lengths[i] * (isLoop(i) ? 1 : 2) }
        var k = 0
        while have < budget {
            lengths[k % count] += 1
            have += isLoop(k % count) ? 1 : 2
            k += 1
        }

        let numbers = busNumbers(count)
        var nightNumber = 10
        for i in 0..<count {
            let hub = pickHub()
            let hubSlot = hubs[hub]
            let corridor = corridors[hub][rng.below(corridors[hub].count)]
            let hubName = stations[hubSlot].name
            let startStand = stand(hubSlot)
            let agency = Self.firstBusAgency + hub % Self.busOperators.count
            let areaNear = nextPlace(), areaFar = nextPlace()
            let night = isNight(i), loop = isLoop(i), frequent = isFrequent(i) && !loop

            // a third of the regular routes end at another hub's stand, the rest at their own terminus
            var endStand: Int? = nil
            var endName = areaFar
            let ownPositions: [Point]
            if !loop, rng.chance(0.35), let other = hubNear(corridor.end, within: 15_000, except: hub) {
                endStand = stand(hubs[other])
                endName = stations[hubs[other]].name
                ownPositions = line(from: corridor.end, to: stations[hubs[other]].position, count: lengths[i])
            } else {
                ownPositions = walk(from: corridor.end, direction: corridor.direction, count: lengths[i], spacing: 420)
            }
            let half = ownPositions.count / 2
            let (outNear, backNear) = roadStops(Array(ownPositions[..<half]), area: areaNear, bothSides: !loop)
            let (outFar, backFar) = roadStops(Array(ownPositions[half...]), area: areaFar, bothSides: !loop)
            let ownOut = outNear + outFar, ownBack = backNear + backFar

            let short = night ? "N\(nightNumber)" : numbers[i]
            if night { nightNumber += 1 }
            let route = appendRoute(
                GenRoute(
                    id: "\(Self.busOperators[hub % Self.busOperators.count].id)_\(short)", agency: agency,
                    shortName: short,
                    longName: loop ? "\(hubName) to \(areaNear) (Loop Service)" : "\(hubName) to \(endName)",
                    desc: night ? "Sydney NightRide Network" : "Sydney Buses Network",
                    mode: night ? .nightBus : .bus, color: night ? "1F2A44" : "00B5EF", textColor: "FFFFFF",
                    timetable: frequent ? .frequencyHeadway : .scheduled, services: [.weekday, .saturday, .sunday],
                    weight: 1.0, fixedTrips: night ? 5 : 0))

            if loop {
                // out along the corridor, round a loop that starts and ends at the same stop, back in
                let turn = ownOut[0]
                let stopList =
                    [startStand] + corridor.outbound + [turn] + ownOut.dropFirst() + [turn]
                    + corridor.inbound.reversed() + [startStand]
                addPattern(route: route, direction: 0, stops: stopList, headsign: "\(hubName) (Loop)", share: 1)
                continue
            }
            let outbound = [startStand] + corridor.outbound + ownOut + (endStand.map { [$0] } ?? [])
            let inbound =
                (endStand.map { [$0] } ?? []) + ownBack.reversed() + corridor.inbound.reversed() + [startStand]
            // a tenth of the routes are set-down only on the corridor into the hub
            let setDownOnly: Set<Int> =
                i % 10 == 4
                ? Set(max(1, inbound.count - 4)..<(inbound.count - 1)) : []
            addPattern(route: route, direction: 0, stops: outbound, headsign: endName, share: frequent ? 1 : 0.7)
            addPattern(
                route: route, direction: 1, stops: inbound, headsign: hubName, share: frequent ? 1 : 0.7,
                pickupNone: setDownOnly)
            if frequent || night { continue }
            // short workings to the near suburb and back
            let shortCount = 1 + corridor.outbound.count + outNear.count
            if shortCount >= 4, shortCount < outbound.count {
                addPattern(
                    route: route, direction: 0, stops: Array(outbound.prefix(shortCount)), headsign: areaNear,
                    share: 0.2)
                addPattern(
                    route: route, direction: 1, stops: Array(inbound.suffix(shortCount)), headsign: hubName, share: 0.2)
            }
            // limited-stops variant on some routes: every other stop of the outer part
            if rng.chance(0.3), ownOut.count >= 6 {
                let limitedOut =
                    [startStand] + corridor.outbound
                    + ownOut.enumerated().filter { $0.offset % 2 == 0 || $0.offset == ownOut.count - 1 }.map(\.element)
                    + (endStand.map { [$0] } ?? [])
                let limitedBack =
                    (endStand.map { [$0] } ?? [])
                    + ownBack.reversed().enumerated().filter { $0.offset % 2 == 0 || $0.offset == 0 }.map(\.element)
                    + corridor.inbound.reversed() + [startStand]
                addPattern(route: route, direction: 0, stops: limitedOut, headsign: endName, share: 0.1)
                addPattern(route: route, direction: 1, stops: limitedBack, headsign: hubName, share: 0.1)
            }
        }
    }

    /// School buses: suburban stops to a school in the morning and back in the afternoon.
    mutating func buildSchoolRoute(_ i: Int) {
        let area = nextPlace()
        let start = stations[hubs[rng.below(hubs.count)]].position
            .moved(direction: rng.below(16), metres: 2_000 + rng.unit() * 8_000)
        let points = walk(from: start, direction: rng.below(16), count: 5 + rng.below(10), spacing: 500)
        var (out, back) = roadStops(points, area: area, bothSides: true)
        let schoolName = "\(area) \(rng.chance(0.5) ? "High" : "Public") School"
        let school = addStop(
            name: "\(schoolName), \(NameBank.street(&rng))",
            at: points[points.count - 1].moved(direction: 4, metres: 300))
        out.append(school)
        back.append(school)
        let route = appendRoute(
            GenRoute(
                id: "SCH_\(2001 + i)", agency: Self.firstBusAgency + i % Self.busOperators.count,
                shortName: "\(2001 + i)",
                longName: "\(area) to \(schoolName)", desc: "School Buses", mode: .schoolBus, color: "FDB913",
                textColor: "000000", timetable: .scheduled, services: [.school], weight: 0, fixedTrips: 1 + i % 2))
        addPattern(route: route, direction: 0, stops: out, headsign: schoolName, share: 1)
        addPattern(route: route, direction: 1, stops: back.reversed(), headsign: area, share: 1)
    }

    /// Regional coaches from Central's stands to country towns far apart.
    mutating func buildCoachRoute(_ i: Int) {
        let startStand = stand(hubs[0])
        let points = walk(
            from: cbdCentre.moved(direction: 8, metres: 30_000), direction: 6 + rng.below(5), count: 3 + rng.below(6),
            spacing: 40_000)
        var town: [Int] = []
        for point in points {
            town.append(addStop(name: "\(nextPlace()) Coach Stop, \(NameBank.street(&rng))", at: point))
        }
        let lastTown = String(stops[town[town.count - 1]].name.prefix { $0 != "," }.dropLast(" Coach Stop".count))
        let route = appendRoute(
            GenRoute(
                id: "NSW_C\(i + 1)", agency: 1, shortName: "C\(i + 1)",
                longName: "\(stations[hubs[0]].name) to \(lastTown)",
                desc: "NSW TrainLink Coach", mode: .coach, color: "732A82", textColor: "FFFFFF", timetable: .scheduled,
                services: [.weekday, .saturday, .sunday], weight: 0.08, fixedTrips: 0))
        addPattern(route: route, direction: 0, stops: [startStand] + town, headsign: lastTown, share: 1)
        addPattern(
            route: route, direction: 1, stops: town.reversed() + [startStand], headsign: stations[hubs[0]].name,
            share: 1)
    }
}
