import TransitCore

extension ImportSummary.FeedStats {
    /// A warning when the feed is not valid on its local date at `unix` (the import's clock): outside
    /// feed_info's start_date … end_date, or outside the dates its calendar runs any service. Nil when both
    /// cover that date (or the feed states neither). The feed imports either way: an expired feed still
    /// answers for the dates it covers (`--clock` replays them).
    public func validityWarning(atUnix unix: Int64) -> String? {
        guard let zone = try? ServiceTimeZone(identifier: timezone) else { return nil }
        let today = zone.localDate(atUnix: unix)
        var problems: [String] = []
        if let range = Self.outside(today, from: startDate, to: endDate) {
            problems.append("feed_info.txt says it is valid \(range)")
        }
        if let range = Self.outside(today, from: serviceStartDate, to: serviceEndDate) {
            problems.append("its calendar runs services \(range)")
        }
        guard !problems.isEmpty else { return nil }
        return "feed \(name) does not cover \(today) (\(timezone)): \(problems.joined(separator: "; ")); "
            + "imported anyway (boards around now will be empty: pick a --clock inside its dates)"
    }

    /// "from 20250101 to 20251231" when `date` falls outside that range (either end may be open).
    private static func outside(_ date: GTFSDate, from start: Int?, to end: Int?) -> String? {
        let first = start.flatMap { GTFSDate(yyyymmdd: $0) }
        let last = end.flatMap { GTFSDate(yyyymmdd: $0) }
        guard first != nil || last != nil else { return nil }
        if let first, date < first { return range(first, last) }
        if let last, date > last { return range(first, last) }
        return nil
    }

    private static func range(_ first: GTFSDate?, _ last: GTFSDate?) -> String {
        switch (first, last) {
        case let (first?, last?): "from \(first) to \(last)"
        case let (first?, nil): "from \(first)"
        case let (nil, last?): "until \(last)"
        case (nil, nil): ""
        }
    }
}
