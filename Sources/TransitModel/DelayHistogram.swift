/// Which service dates run another weekday's timetable than their own (a `feed_info` answer's
/// `timetable_days`), and so the day type of every service date: the one function the realtime service
/// records samples with and the gateway asks slices with (protocol/README.md flow 6).
public struct DayTypeCalendar: Sendable, Hashable {
    /// Dates (YYYYMMDD) whose timetable is another weekday's, with that ISO weekday (6 Saturday, 7 Sunday).
    public var runsAs: [ServiceDate: Int]

    /// A calendar; empty: every date is its own weekday.
    public init(runsAs: [ServiceDate: Int] = [:]) { self.runsAs = runsAs }

    /// The day type of `date`, whose own ISO weekday is `isoWeekday`.
    public func dayType(of date: ServiceDate, isoWeekday: Int) -> DayType {
        DayType(isoWeekday: runsAs[date] ?? isoWeekday)
    }
}

/// The day types departure delays are recorded by: the timetable the service date runs (`DayTypeCalendar`).
public enum DayType: Int, Sendable, Hashable, CaseIterable {
    /// Monday to Friday.
    case weekday = 0
    /// Saturday.
    case saturday = 1
    /// Sunday.
    case sunday = 2

    /// The day type of an ISO weekday (1 = Monday … 7 = Sunday).
    public init(isoWeekday: Int) {
        switch isoWeekday {
        case 6: self = .saturday
        case 7: self = .sunday
        default: self = .weekday
        }
    }

    /// The gateway's name: `weekday`, `saturday`, `sunday`.
    public var name: String {
        switch self {
        case .weekday: "weekday"
        case .saturday: "saturday"
        case .sunday: "sunday"
        }
    }

    /// The day type named `name` (the gateway's names), nil for another string.
    public init?(name: String) {
        guard let type = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = type
    }
}

/// Recorded departure delays in fixed one-minute buckets (protocol/README.md flow 6): bucket 0 is a delay
/// before −1,800 s, bucket k in 1…60 is [−1,860 + 60 k, −1,800 + 60 k) s, bucket 61 is +1,800 s and later.
public struct DelayHistogram: Sendable, Hashable {
    /// Number of buckets.
    public static let bucketCount = 62
    /// Width of a bucket in seconds.
    public static let bucketSecs = 60
    /// The lower edge of bucket 1; delays before it go to bucket 0.
    public static let lowestEdge = -1800
    /// The lower edge of the last bucket (delays from it on go there).
    public static let highestEdge = 1800
    /// Fewest samples a percentile is given for.
    public static let minimumSamples = 5
    /// The on-time window: at most a minute early, less than 5 minutes late (−60 … +299 s).
    public static let onTimeEarliest = -60
    /// The first delay that is late (the on-time window ends just before it).
    public static let onTimeLatestExclusive = 300

    /// The count of each bucket (`bucketCount` entries).
    public private(set) var counts: [UInt32]

    /// An empty histogram.
    public init() { counts = Array(repeating: 0, count: Self.bucketCount) }

    /// A histogram of these counts; nil unless there are `bucketCount` of them (or none: empty).
    public init?(counts: [UInt32]) {
        if counts.isEmpty {
            self.counts = Array(repeating: 0, count: Self.bucketCount)
        } else {
            guard counts.count == Self.bucketCount else { return nil }
            self.counts = counts
        }
    }

    /// The bucket a delay in seconds falls in.
    public static func bucket(ofDelay delay: Int) -> Int {
        if delay < lowestEdge { return 0 }
        if delay >= highestEdge { return bucketCount - 1 }
        return 1 + (delay - lowestEdge) / bucketSecs
    }

    /// Lower edge of a bucket in seconds (nil: the open bucket 0).
    public static func lowerEdge(ofBucket bucket: Int) -> Int? {
        bucket == 0 ? nil : lowestEdge + (bucket - 1) * bucketSecs
    }

    /// Upper edge (exclusive) of a bucket in seconds (nil: the open last bucket).
    public static func upperEdge(ofBucket bucket: Int) -> Int? {
        bucket == bucketCount - 1 ? nil : lowestEdge + bucket * bucketSecs
    }

    /// Every departure counted.
    public var samples: Int { counts.reduce(0) { $0 + Int($1) } }

    /// No departure counted.
    public var isEmpty: Bool { counts.allSatisfy { $0 == 0 } }

    /// Counts one departure of `delay` seconds.
    public mutating func add(delay: Int) { add(bucket: Self.bucket(ofDelay: delay), count: 1) }

    /// Adds `count` to a bucket (saturating).
    public mutating func add(bucket: Int, count: UInt32) {
        let (sum, overflow) = counts[bucket].addingReportingOverflow(count)
        counts[bucket] = overflow ? .max : sum
    }

    /// Adds every count of `other`.
    public mutating func merge(_ other: DelayHistogram) {
        for bucket in 0..<Self.bucketCount where other.counts[bucket] != 0 {
            add(bucket: bucket, count: other.counts[bucket])
        }
    }

    /// The `fraction` quantile (0…1) in whole seconds, interpolated linearly inside its bucket (the open
    /// buckets give their edge); nil under `minimumSamples`.
    public func percentile(_ fraction: Double) -> Int? {
        let total = samples
        guard total >= Self.minimumSamples else { return nil }
        let rank = min(max(fraction, 0), 1) * Double(total)
        var below = 0
        for bucket in 0..<Self.bucketCount where counts[bucket] != 0 {
            let count = Int(counts[bucket])
            if Double(below + count) >= rank {
                guard let lower = Self.lowerEdge(ofBucket: bucket) else { return Self.lowestEdge }
                guard Self.upperEdge(ofBucket: bucket) != nil else { return Self.highestEdge }
                let inside = (rank - Double(below)) / Double(count)
                return lower + Int((inside * Double(Self.bucketSecs)).rounded())
            }
            below += count
        }
        return Self.highestEdge
    }

    /// Departures in the on-time window, before it and after it.
    public var punctuality: (early: Int, onTime: Int, late: Int) {
        let first = Self.bucket(ofDelay: Self.onTimeEarliest)
        let end = Self.bucket(ofDelay: Self.onTimeLatestExclusive)
        var early = 0, onTime = 0, late = 0
        for (bucket, count) in counts.enumerated() {
            if bucket < first {
                early += Int(count)
            } else if bucket < end {
                onTime += Int(count)
            } else {
                late += Int(count)
            }
        }
        return (early, onTime, late)
    }
}

/// One slice of the recorded departure delays: at least one of `routeId`, `stopId`.
public struct DelaySlice: Sendable, Hashable {
    /// The route (nil: every route at `stopId`).
    public var routeId: String?
    /// The stop (nil: the route over all its stops).
    public var stopId: String?
    /// Scheduled departure hour 0–23 (nil: every hour).
    public var hour: Int?
    /// The day type (nil: every day type).
    public var dayType: DayType?

    /// The slice of these ids, hour and day type.
    public init(routeId: String?, stopId: String?, hour: Int? = nil, dayType: DayType? = nil) {
        self.routeId = routeId
        self.stopId = stopId
        self.hour = hour
        self.dayType = dayType
    }
}

/// The recorded delays of one slice over the window of service dates `firstDate` … `lastDate`.
public struct DelayWindowHistogram: Sendable, Hashable {
    /// The counts.
    public var histogram: DelayHistogram
    /// The window's first service date (YYYYMMDD).
    public var firstDate: ServiceDate
    /// The window's last service date (YYYYMMDD): today.
    public var lastDate: ServiceDate

    /// A histogram over `firstDate` … `lastDate`.
    public init(histogram: DelayHistogram, firstDate: ServiceDate, lastDate: ServiceDate) {
        self.histogram = histogram
        self.firstDate = firstDate
        self.lastDate = lastDate
    }
}

/// How late a route usually leaves a stop at an hour (a departure row's `typical_delay`).
public struct TypicalDelay: Sendable, Hashable {
    /// Which histogram it comes from.
    public enum Level: String, Sendable, Hashable {
        /// The route at this stop.
        case stop
        /// The route at all its stops (the stop's slice was too thin).
        case route
    }

    /// 10th percentile in seconds (the band's early end).
    public var p10: Int
    /// Median in seconds.
    public var p50: Int
    /// 90th percentile in seconds.
    public var p90: Int
    /// Departures counted.
    public var samples: Int
    /// Which histogram it comes from.
    public var level: Level

    /// The typical delay of a histogram with at least `DelayHistogram.minimumSamples` samples, else nil.
    public init?(_ histogram: DelayHistogram, level: Level) {
        guard let p10 = histogram.percentile(0.1), let p50 = histogram.percentile(0.5),
            let p90 = histogram.percentile(0.9)
        else { return nil }
        self.p10 = p10
        self.p50 = p50
        self.p90 = p90
        samples = histogram.samples
        self.level = level
    }

    /// A typical delay of these figures.
    public init(p10: Int, p50: Int, p90: Int, samples: Int, level: Level) {
        self.p10 = p10
        self.p50 = p50
        self.p90 = p90
        self.samples = samples
        self.level = level
    }

    /// The stop's typical delay when its histogram holds enough departures, else the route's.
    public static func choose(stop: DelayHistogram?, route: DelayHistogram?) -> TypicalDelay? {
        if let stop, let typical = TypicalDelay(stop, level: .stop) { return typical }
        if let route, let typical = TypicalDelay(route, level: .route) { return typical }
        return nil
    }

    /// The slice hour of a scheduled time in GTFS seconds of its service day (25:10 → 1).
    public static func hour(ofSecs secs: Int) -> Int {
        let h = (secs >= 0 ? secs / 3600 : (secs - 3599) / 3600) % 24
        return h < 0 ? h + 24 : h
    }
}
