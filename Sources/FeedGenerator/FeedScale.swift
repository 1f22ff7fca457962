/// How big a generated feed must be: the generator writes at least these many rows.
public struct FeedScale: Sendable, Equatable, CustomStringConvertible {
    public var stops: Int
    public var routes: Int
    public var trips: Int
    public var stopTimes: Int

    public init(stops: Int, routes: Int, trips: Int, stopTimes: Int) {
        self.stops = stops
        self.routes = routes
        self.trips = trips
        self.stopTimes = stopTimes
    }

    /// All of New South Wales: the scale of the benchmarks (BENCHMARKS.md).
    public static let nsw = FeedScale(stops: 100_000, routes: 1_000, trips: 200_000, stopTimes: 10_000_000)

    /// A few thousand stop times, for tests.
    public static let small = FeedScale(stops: 600, routes: 24, trips: 200, stopTimes: 3_000)

    /// `nsw` multiplied by a positive factor (every count at least 1).
    public static func factor(_ f: Double) -> FeedScale {
        func scaled(_ n: Int) -> Int { max(1, Int((Double(n) * f).rounded(.up))) }
        return FeedScale(
            stops: scaled(nsw.stops), routes: scaled(nsw.routes), trips: scaled(nsw.trips),
            stopTimes: scaled(nsw.stopTimes))
    }

    /// Parses `nsw`, `small` or a positive factor of `nsw` such as `0.05` or `2`.
    public init?(argument: String) {
        switch argument.lowercased() {
        case "nsw": self = .nsw
        case "small": self = .small
        default:
            guard let f = Double(argument), f.isFinite, f > 0, f <= 100 else { return nil }
            self = .factor(f)
        }
    }

    public var description: String {
        "stops≥\(stops) routes≥\(routes) trips≥\(trips) stop_times≥\(stopTimes)"
    }
}
