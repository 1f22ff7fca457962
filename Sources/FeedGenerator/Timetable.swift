/// How many trips each route runs and when they leave.
///
/// Trip counts follow one multiplier `k` (weekday departures per direction per unit of route weight),
/// solved so the feed meets the scale's trip and stop_time targets; the writer then streams trips
/// from these counts without ever holding them all.
struct Timetable {
    let network: Network
    let multiplier: Double
    /// Per route and direction, the pattern indices (direction 0 first).
    let patternsByDirection: [[[Int]]]

    init(network: Network, scale: FeedScale) {
        self.network = network
        var byDirection: [[[Int]]] = []
        for route in network.routes {
            var dirs: [[Int]] = [[], []]
            for p in route.patterns { dirs[network.patterns[p].direction].append(p) }
            byDirection.append(dirs.filter { !$0.isEmpty })
        }
        patternsByDirection = byDirection
        multiplier = Self.solve(network: network, byDirection: byDirection, scale: scale)
    }

    /// The departures per direction of a route on a service.
    static func tripCount(_ route: GenRoute, _ service: Service, multiplier k: Double) -> Int {
        guard route.services.contains(service) else { return 0 }
        if route.timetable != .scheduled { return 1 }  // one frequency template per direction
        // NightRide, school and event trips are a fixed handful, whatever the scale
        if service == .event || route.mode == .nightBus || route.mode == .schoolBus { return route.fixedTrips }
        let factor: Double
        switch service {
        case .weekday, .trackwork, .school: factor = 1
        case .saturday: factor = 0.6
        case .sunday: factor = 0.45
        case .event: factor = 0
        }
        return max(1, Int((route.weight * k * factor).rounded()))
    }

    /// Splits `n` departures over patterns by their shares; the first (main) pattern takes the rest.
    static func split(_ n: Int, patterns: [Int], in network: Network) -> [Int] {
        let total = patterns.reduce(0.0) { $0 + network.patterns[$1].share }
        var counts = patterns.map { Int(Double(n) * network.patterns[$0].share / total) }
        counts[0] = n - counts.dropFirst().reduce(0, +)
        return counts
    }

    func tripCount(route r: Int, service: Service) -> Int {
        Self.tripCount(network.routes[r], service, multiplier: multiplier)
    }

    static func totals(network: Network, byDirection: [[[Int]]], multiplier k: Double) -> (trips: Int, stopTimes: Int) {
        var trips = 0, stopTimes = 0
        for (r, route) in network.routes.enumerated() {
            for service in route.services {
                let n = tripCount(route, service, multiplier: k)
                for patterns in byDirection[r] {
                    let counts = split(n, patterns: patterns, in: network)
                    for (p, c) in zip(patterns, counts) {
                        trips += c
                        stopTimes += c * network.patterns[p].stops.count
                    }
                }
            }
        }
        return (trips, stopTimes)
    }

    /// The smallest multiplier (to 0.1%) whose totals meet both targets.
    static func solve(network: Network, byDirection: [[[Int]]], scale: FeedScale) -> Double {
        func enough(_ k: Double) -> Bool {
            let t = totals(network: network, byDirection: byDirection, multiplier: k)
            return t.trips >= scale.trips && t.stopTimes >= scale.stopTimes
        }
        var lo = 0.0, hi = 1.0
        while !enough(hi) && hi < 1e7 { lo = hi; hi *= 2 }
        for _ in 0..<40 {
            let mid = (lo + hi) / 2
            if enough(mid) { hi = mid } else { lo = mid }
        }
        // rounding makes the totals only almost monotonic in k: step up until both targets hold
        while !enough(hi) && hi < 1e7 { hi *= 1.001 }
        return hi
    }

    // MARK: departure times

    /// Relative demand per hour from 04:00 (index 0) to 25:00, by service.
    static func demand(_ service: Service) -> [Double] {
        switch service {
        case .weekday, .school:
            //        4    5    6    7    8    9   10   11   12   13   14   15   16   17   18   19   20   21   22   23   24
            return [
                0.3, 0.8, 1.5, 2.2, 2.2, 1.4, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5, 2.0, 2.2, 1.6, 1.0, 0.8, 0.7, 0.6, 0.5,
                0.15,
            ]
        case .saturday, .trackwork:
            return [
                0.0, 0.4, 0.7, 0.9, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.7, 0.6, 0.5,
                0.15,
            ]
        case .sunday:
            return [
                0.0, 0.0, 0.5, 0.7, 0.9, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.6, 0.5, 0.4, 0.3, 0.1,
            ]
        case .event:
            return []
        }
    }

    /// `n` departure times (seconds after the service day's noon minus 12 h), sorted, whole minutes.
    static func departures(_ n: Int, service: Service, mode: Mode, direction: Int, phaseMinutes: Int) -> [Int] {
        guard n > 0 else { return [] }
        // windows with uniform spread: NightRide 24:00-29:00, event specials 24:00-25:30, school runs
        if mode == .nightBus { return uniform(n, from: 24 * 3600, to: 29 * 3600, phaseMinutes: phaseMinutes) }
        if service == .event { return uniform(n, from: 24 * 3600, to: 25 * 3600 + 1800, phaseMinutes: 0) }
        if service == .school {
            return direction == 0
                ? uniform(n, from: 7 * 3600 + 900, to: 8 * 3600 + 1800, phaseMinutes: phaseMinutes)
                : uniform(n, from: 15 * 3600, to: 16 * 3600, phaseMinutes: phaseMinutes)
        }
        let weights = demand(service)
        let total = weights.reduce(0, +)
        var out: [Int] = []
        out.reserveCapacity(n)
        var hour = 0, before = 0.0
        for j in 0..<n {
            let target = (Double(j) + 0.5) / Double(n) * total
            while hour < weights.count - 1 && before + weights[hour] < target {
                before += weights[hour]
                hour += 1
            }
            let within = weights[hour] > 0 ? (target - before) / weights[hour] : 0
            let seconds = (4 + hour) * 3600 + Int(within * 3600)
            out.append((seconds / 60 + phaseMinutes) * 60)
        }
        return out
    }

    static func uniform(_ n: Int, from start: Int, to end: Int, phaseMinutes: Int) -> [Int] {
        (0..<n).map { j in
            let t = start + Int((Double(j) + 0.5) / Double(n) * Double(end - start))
            return (t / 60 + phaseMinutes) * 60
        }
    }

    /// Which pattern each of the time-ordered departures uses: patterns spread evenly through the day.
    static func assign(_ counts: [Int]) -> [Int] {
        let n = counts.reduce(0, +)
        var assigned = [Int](repeating: 0, count: counts.count)
        var out: [Int] = []
        out.reserveCapacity(n)
        for j in 0..<n {
            var best = -1
            var bestDeficit = -Double.infinity
            for (p, c) in counts.enumerated() where assigned[p] < c {
                let deficit = Double(c) * Double(j + 1) / Double(n) - Double(assigned[p])
                if deficit > bestDeficit {
                    bestDeficit = deficit
                    best = p
                }
            }
            assigned[best] += 1
            out.append(best)
        }
        return out
    }

    /// Frequency windows (start, end, headway seconds) of a template trip.
    static func frequencyWindows(_ timetable: TimetableKind, mode: Mode, service: Service) -> [(Int, Int, Int)] {
        let h = 3600
        switch (timetable, service) {
        case (.frequencyExact, .weekday):
            return [
                (5 * h, 7 * h, 600), (7 * h, 10 * h, 240), (10 * h, 15 * h, 480), (15 * h, 19 * h, 240),
                (19 * h, 24 * h, 600),
            ]
        case (.frequencyExact, _):
            return [(5 * h, 24 * h, 600)]
        case (.frequencyHeadway, .weekday):
            return mode == .lightRail
                ? [(5 * h, 7 * h, 900), (7 * h, 19 * h, 480), (19 * h, 25 * h, 900)]
                : [
                    (6 * h, 9 * h + 1800, 300), (9 * h + 1800, 16 * h, 600), (16 * h, 19 * h, 300),
                    (19 * h, 24 * h, 900),
                ]
        case (.frequencyHeadway, _):
            return mode == .lightRail ? [(5 * h, 25 * h, 600)] : [(7 * h, 23 * h, 600)]
        case (.scheduled, _):
            return []
        }
    }
}
