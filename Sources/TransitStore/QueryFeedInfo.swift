import TransitModel

extension StaticStore {
    /// The imported feeds (name, prefix, version, validity, timezone, counts), database totals and the dates
    /// that run a weekend timetable.
    public func feedInfo() -> FeedInfo {
        let t = catalog.totals
        return FeedInfo(
            databaseVersion: catalog.databaseVersion, importedAt: catalog.importedAt,
            feeds: catalog.feeds.map(\.summary), stops: t.stops, routes: t.routes, trips: t.trips,
            stopTimes: t.stopTimes, patterns: t.patterns, dayTypes: catalog.dayTypes)
    }
}
