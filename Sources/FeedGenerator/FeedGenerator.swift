import Foundation

/// A deterministic generator of a Sydney-shaped GTFS feed of any size, for benchmarks and tests.
///
/// The same scale and seed always give byte-identical files. Stop times are streamed to disk, so
/// memory stays small however many rows are written.
///
/// What the feed holds (every scale): agencies in Australia/Sydney; CBD hub stations with fixed ids
/// (Central `200060`, Town Hall `200070`, Wynyard `200080`, Circular Quay `200020`, …) and regional
/// hubs (`21xxxx`), each a parent of platforms, bus stands (`<station id><nn>`) and entrances;
/// Central is the busiest station (hundreds of patterns at NSW scale). Train lines (route_type 2)
/// cross the CBD with all-stops, express and short-working patterns; metro (401, frequencies
/// exact_times=1), light rail (900, exact_times=0), ferries (4, from numbered wharves), buses (700,
/// sharing corridors out of the hubs; some loops, some frequency-based, some set-down only,
/// NightRide `N..` routes running 24:00–29:00), school buses (712, `SCHOOL` service), rail replacement
/// (714, `TRACKWORK`, calendar_dates only), coaches (204). Services `WKD`, `SAT`, `SUN`, `SCHOOL` run
/// 2025-01-01 to 2030-12-31 with NSW public holidays (weekday service removed, Sunday added), school
/// holidays and `EVENT`/`TRACKWORK` dates. Trip ids are `<route_id>.<service>.<direction>.<n>`
/// (`….F` for frequency templates); late departures run past midnight.
public struct FeedGenerator: Sendable {
    public let scale: FeedScale
    public let seed: UInt64

    public init(scale: FeedScale, seed: UInt64 = 1) {
        self.scale = scale
        self.seed = seed
    }

    /// Writes agency, stops, routes, trips, stop_times, calendar, calendar_dates, frequencies,
    /// feed_info, shapes (.txt) into `directory`, creating it when missing and replacing those files.
    public func write(to directory: String) throws -> FeedSummary {
        let clock = ContinuousClock()
        let started = clock.now
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw FeedGeneratorError.cannotCreateDirectory(path: directory, reason: error.localizedDescription)
        }
        var builder = NetworkBuilder(scale: scale, seed: seed)
        let network = builder.build()
        let timetable = Timetable(network: network, scale: scale)
        var calendarRNG = SplitMix64(seed: seed ^ 0xCA1E_17DA)
        let writer = FeedWriter(network: network, timetable: timetable, directory: directory)
        var files: [FeedSummary.File] = []
        files.append(try writer.writeAgency())
        files.append(try writer.writeStops())
        files.append(try writer.writeRoutes())
        files += try writer.writeTripsAndStopTimes()
        files.append(try writer.writeShapes())
        files.append(try writer.writeCalendar())
        files.append(try writer.writeCalendarDates(ServiceCalendar.exceptions(rng: &calendarRNG)))
        files.append(try writer.writeFeedInfo(version: "feedgen-\(scale.stops)-\(scale.stopTimes)-seed\(seed)"))
        let elapsed = clock.now - started
        return FeedSummary(
            directory: directory, files: files, patterns: network.patterns.count,
            busiestStations: Self.busiestStations(network, top: 3),
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }

    /// Stations by the number of distinct patterns stopping at them or their children.
    static func busiestStations(_ network: Network, top: Int) -> [FeedSummary.BusyStation] {
        var patternCount = [Int](repeating: 0, count: network.stops.count)
        var childCount = [Int](repeating: 0, count: network.stops.count)
        for stop in network.stops where stop.parent >= 0 { childCount[stop.parent] += 1 }
        var seen = [Int](repeating: -1, count: network.stops.count)
        for (p, pattern) in network.patterns.enumerated() {
            for s in pattern.stops {
                let station = network.stops[s].parent >= 0 ? network.stops[s].parent : s
                guard network.stops[station].locationType == 1, seen[station] != p else { continue }
                seen[station] = p
                patternCount[station] += 1
            }
        }
        let ranked = network.stops.indices
            .filter { network.stops[$0].locationType == 1 }
            .sorted { (patternCount[$0], -$0) > (patternCount[$1], -$1) }
        return ranked.prefix(top).map {
            FeedSummary.BusyStation(
                stopId: String(network.stops[$0].id), name: network.stops[$0].name, children: childCount[$0],
                patterns: patternCount[$0])
        }
    }
}
