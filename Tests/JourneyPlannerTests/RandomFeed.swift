import JourneyPlanner
import TransitCore
import TransitTesting

/// Random small feeds for the property tests: 10–60 stops (some grouped as platforms of stations), 3–20 stop
/// patterns with trips of different speeds (so some overtake), frequency-based trips, trips past midnight,
/// transfers.txt rows of every type (stop and station level, same stop), three service days.
struct RandomFeed {
    /// Service days start at this reference (a Monday, UTC; no DST in the random feeds).
    static let firstReference: Int64 = 1_766_300_400
    var source: TimetableSource
    var stations: [Int]

    init(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

        var stops: [TimetableSource.Stop] = []
        var stations: [Int] = []
        let stopCount = int(10...60)
        let centre = (lat: -33.87, lon: 151.2)
        // Stations with 2–3 platforms close together, then standalone stops, over about 3 × 3 km.
        while stops.count < stopCount {
            let lat = centre.lat + Double.random(in: -0.015...0.015, using: &rng)
            let lon = centre.lon + Double.random(in: -0.018...0.018, using: &rng)
            if stops.count + 3 <= stopCount && chance(0.25) {
                let station = stops.count
                stations.append(station)
                stops.append(.init(lat: lat, lon: lon, station: nil, wheelchairBoarding: int(0...2)))
                for _ in 0..<int(2...3) where stops.count < stopCount {
                    stops.append(
                        .init(
                            lat: lat + Double.random(in: -0.001...0.001, using: &rng),
                            lon: lon + Double.random(in: -0.001...0.001, using: &rng), station: station,
                            wheelchairBoarding: int(0...2)))
                }
            } else {
                stops.append(.init(lat: lat, lon: lon, wheelchairBoarding: int(0...2)))
            }
        }
        let boardable = stops.indices.filter { !stations.contains($0) }
        let modes: [Mode] = [.bus, .train, .tram]
        var trips: [TimetableSource.Trip] = []
        for _ in 0..<int(3...20) {
            let length = min(boardable.count, int(3...8))
            let pattern = Array(boardable.shuffled(using: &rng).prefix(length))
            let hops = (1..<length).map { _ in int(60...600) }
            // Half the patterns never dwell (their routes hold one array of times), the others at some stops.
            let dwells = chance(0.5)
            let dwell = (0..<length).map { _ in !dwells || chance(0.5) ? 0 : int(0...60) }
            let pickup = (0..<length).map { _ in !chance(0.1) }
            let dropOff = (0..<length).map { _ in !chance(0.1) }
            let mode = modes[int(0...2)]
            let accessible = int(0...2)
            for _ in 0..<int(2...8) {
                let start = int(4 * 3600...27 * 3600)  // up to 03:00 the next morning
                let speed = Double.random(in: 0.7...1.3, using: &rng)
                var stopTimes: [TimetableSource.StopTime] = []
                var t = start
                for i in 0..<length {
                    if i > 0 { t += max(1, Int(Double(hops[i - 1]) * speed)) }
                    stopTimes.append(
                        .init(
                            stop: pattern[i], arrival: t, departure: t + dwell[i], pickup: pickup[i],
                            dropOff: dropOff[i]))
                    t += dwell[i]
                }
                var frequencies: [FrequencyPeriod] = []
                if chance(0.15) {
                    let from = int(5 * 3600...20 * 3600)
                    frequencies.append(
                        FrequencyPeriod(
                            start: from, end: from + int(1800...7200), headway: int(300...1200), isExact: chance(0.5)))
                }
                trips.append(
                    .init(
                        service: int(0...2), mode: mode, wheelchairAccessible: accessible, stopTimes: stopTimes,
                        frequencies: frequencies))
            }
        }
        var transfers: [TimetableSource.Transfer] = []
        for _ in 0..<int(0...12) {
            let from = int(0...(stops.count - 1))
            let to = chance(0.3) ? from : int(0...(stops.count - 1))
            let type = int(0...3)
            transfers.append(.init(from: from, to: to, type: type, minTime: chance(0.5) ? int(0...900) : nil))
        }
        // Services: 0 runs every day, 1 and 2 on random days of the three.
        var days: [TimetableSource.ServiceDay] = []
        for d in 0..<3 {
            var set = ServiceSet(capacity: 3)
            set.insert(0)
            if chance(0.6) { set.insert(1) }
            if chance(0.6) { set.insert(2) }
            days.append(
                .init(
                    date: GTFSDate(yyyymmdd: 20_251_221)!.adding(days: d),
                    referenceUnix: Self.firstReference + Int64(d) * 86_400, services: set))
        }
        source = TimetableSource(stops: stops, trips: trips, transfers: transfers, days: days)
        self.stations = stations
    }

    /// A random place: a stop, a station, or a point near the stops.
    static func place(_ feed: RandomFeed, _ rng: inout SplitMix64) -> PlanPlace {
        let roll = Int.random(in: 0..<10, using: &rng)
        if roll < 2 {
            let s = feed.source.stops[Int.random(in: 0..<feed.source.stops.count, using: &rng)]
            return .coordinate(
                lat: s.lat! + Double.random(in: -0.003...0.003, using: &rng),
                lon: s.lon! + Double.random(in: -0.003...0.003, using: &rng))
        }
        if roll < 4, let station = feed.stations.randomElement(using: &rng) { return .stops([station]) }
        return .stops([Int.random(in: 0..<feed.source.stops.count, using: &rng)])
    }

    /// A random live state over the timetable's runs: delays (some large enough to make trips overtake),
    /// cancellations, skipped stops and added trips.
    static func live(_ feed: RandomFeed, _ timetable: Timetable, _ rng: inout SplitMix64) -> LiveTrips {
        var state = LiveTrips()
        let reference = ReferencePlanner(feed.source)
        for run in reference.runs where Double.random(in: 0..<1, using: &rng) < 0.3 {
            guard let key = run.key else { continue }
            if Double.random(in: 0..<1, using: &rng) < 0.2 {
                state.runs[key] = .cancelled
                continue
            }
            var delay = Int64(Int.random(in: -60...900, using: &rng))
            var times: [LiveStopTime] = []
            for i in run.stops.indices {
                delay = max(-60, delay + Int64(Int.random(in: -120...240, using: &rng)))
                let arrival = run.arrivals[i] + delay
                let departure = max(arrival, run.departures[i] + delay)
                times.append(
                    LiveStopTime(
                        arrival: max(arrival, times.last?.departure ?? .min),
                        departure: max(departure, times.last?.departure ?? .min),
                        skipped: Double.random(in: 0..<1, using: &rng) < 0.1))
            }
            state.runs[key] = .times(times)
        }
        let boardable = feed.source.stops.indices.filter { !feed.stations.contains($0) }
        for a in 0..<Int.random(in: 0...3, using: &rng) {
            let stops = Array(boardable.shuffled(using: &rng).prefix(Int.random(in: 2...5, using: &rng)))
            var t = firstReference + Int64(Int.random(in: 86_400 + 5 * 3600...86_400 + 22 * 3600, using: &rng))
            var arrivals: [Int64] = []
            var departures: [Int64] = []
            for _ in stops {
                arrivals.append(t)
                departures.append(t)
                t += Int64(Int.random(in: 60...600, using: &rng))
            }
            state.added["added-\(a)"] = AddedTrip(
                mode: .bus, wheelchairAccessible: true, stops: stops, arrivals: arrivals, departures: departures)
        }
        return state
    }
}
