/// Light rail and ferries.
extension NetworkBuilder {
    static let lightRailColours = ["BE1622", "DD1E25", "781140", "E4022D", "EE343F"]
    static let ferryColours = ["00774B", "144734", "4FA02A", "00AB51", "65B32E", "5AB031", "29B8CE", "F99D1C"]

    /// Light rail lines share a CBD trunk, then branch out; one stop serves both directions.
    mutating func buildLightRailLine(_ i: Int) {
        if i == 0 || lightRailTrunk.isEmpty {
            var position = cbdCentre.moved(direction: 4, metres: 1_500)
            for _ in 0..<5 {
                lightRailTrunk.append(addStop(name: "\(nextPlace()) Light Rail", at: position, wheelchair: 1))
                position = position.moved(direction: 12, metres: 600)
            }
        }
        var branch: [Int] = []
        var dir = 9 + rng.below(7)
        var position = stops[lightRailTrunk[lightRailTrunk.count - 1]].position.moved(direction: dir, metres: 700)
        for _ in 0..<(6 + rng.below(7)) {
            branch.append(addStop(name: "\(nextPlace()) Light Rail", at: position, wheelchair: 1))
            if rng.chance(0.2) { dir += rng.chance(0.5) ? 1 : -1 }
            position = position.moved(direction: dir, metres: 650)
        }
        let stopList = lightRailTrunk + branch
        let first = lightRailName(stopList[0]), last = lightRailName(stopList[stopList.count - 1])
        let route = appendRoute(
            GenRoute(
                id: "LR_L\(i + 1)", agency: 3, shortName: "L\(i + 1)", longName: "\(last) Line",
                desc: "Sydney Light Rail", mode: .lightRail,
                color: Self.lightRailColours[i % Self.lightRailColours.count],
                textColor: "FFFFFF", timetable: .frequencyHeadway, services: [.weekday, .saturday, .sunday],
                weight: 0, fixedTrips: 0))
        addPattern(route: route, direction: 0, stops: stopList, headsign: last, share: 1)
        addPattern(route: route, direction: 1, stops: stopList.reversed(), headsign: first, share: 1)
    }

    func lightRailName(_ stop: Int) -> String {
        let name = stops[stop].name
        return name.hasSuffix(" Light Rail") ? String(name.dropLast(" Light Rail".count)) : name
    }

    /// Ferries leave from numbered wharves under one parent near the CBD, to standalone wharves.
    mutating func buildFerries(count: Int) {
        let quay = hubs[min(3, hubs.count - 1)]
        let quayName = stations[quay].name
        let wharves = addStation(
            name: quayName, stopName: "\(quayName) Wharves",
            at: stations[quay].position.moved(direction: 4, metres: 120),
            maxPlatforms: 6, maxStands: 0, entrances: 0)
        for i in 0..<count {
            let departWharf = wharf(wharves)
            var own: [Int] = []
            var dir = [0, 1, 2, 3, 7, 8, 9][rng.below(7)]
            var position = stations[wharves].position.moved(direction: dir, metres: 1_500 + rng.unit() * 1_500)
            for _ in 0..<(2 + rng.below(6)) {
                own.append(addStop(name: "\(nextPlace()) Wharf", at: position))
                if rng.chance(0.3) { dir += rng.chance(0.5) ? 1 : -1 }
                position = position.moved(direction: dir, metres: 1_500 + rng.unit() * 2_000)
            }
            let destination = String(stops[own[own.count - 1]].name.dropLast(" Wharf".count))
            let route = appendRoute(
                GenRoute(
                    id: "SF_F\(i + 1)", agency: 4, shortName: "F\(i + 1)", longName: destination,
                    desc: "Sydney Ferries Network", mode: .ferry, color: Self.ferryColours[i % Self.ferryColours.count],
                    textColor: "FFFFFF", timetable: .scheduled, services: [.weekday, .saturday, .sunday, .event],
                    weight: 0.8, fixedTrips: 3))
            let full = [departWharf] + own
            let short = Array(full.prefix(max(2, full.count / 2)))
            for (stopList, share) in [(full, 0.7), (short, 0.3)]
            where stopList.count >= 2 && (share > 0.5 || own.count >= 4) {
                let back = String(stops[stopList[stopList.count - 1]].name)
                addPattern(route: route, direction: 0, stops: stopList, headsign: ferryHeadsign(back), share: share)
                addPattern(route: route, direction: 1, stops: stopList.reversed(), headsign: quayName, share: share)
            }
        }
    }

    /// One numbered wharf under the ferry parent ("Circular Quay, Wharf 3"); reused once all exist.
    mutating func wharf(_ slot: Int) -> Int {
        let s = stations[slot]
        if s.platforms.count < s.maxPlatforms {
            let k = s.platforms.count + 1
            let child = addChild(slot, name: "\(s.name), Wharf \(k)", locationType: 0, platformCode: "\(k)")
            stations[slot].platforms.append(child)
            return child
        }
        stations[slot].reusePlatform += 1
        return s.platforms[s.reusePlatform % s.platforms.count]
    }

    func ferryHeadsign(_ wharfName: String) -> String {
        wharfName.hasSuffix(" Wharf") ? String(wharfName.dropLast(" Wharf".count)) : wharfName
    }
}
