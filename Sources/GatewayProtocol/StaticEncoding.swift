import TransitCore
import TransitModel
import TransitPresentation

// Encoders of the static answers: stop, search/nearby, routes, feed_info (GATEWAY.md §5–6). Each writes one
// JSON value; `…Data` methods write the `data` object of an op's answer.

extension JSONWriter {
    /// The stop object, shared by every op that shows a stop.
    public mutating func stop(_ stop: Stop) {
        let style = ModePresentation(mode: stop.mode)
        beginObject()
        key("stop_id"); string(stop.stopId)
        key("code"); string(stop.code)
        key("name"); string(stop.name)
        key("lat"); double(stop.lat)
        key("lon"); double(stop.lon)
        key("location_type"); int(stop.locationType)
        key("parent_station"); string(stop.parentStation)
        key("platform_code"); string(stop.platformCode)
        key("wheelchair_boarding"); int(stop.wheelchairBoarding)
        key("primary_route_type"); int(stop.primaryRouteType)
        key("mode"); string(stop.mode)
        key("icon"); string(style.icon)
        key("accessibility_label"); string(style.stopAccessibilityLabel)
        key("timezone"); string(stop.timezone)
        key("distance_m")
        if let distance = stop.distanceMetres, distance.isFinite {
            int(Int64(distance.rounded()))
        } else {
            null()
        }
        endObject()
    }

    public mutating func route(_ route: Route) {
        beginObject()
        key("route_id"); string(route.routeId)
        key("agency_id"); string(route.agencyId)
        key("short_name"); string(route.shortName)
        key("long_name"); string(route.longName)
        key("route_type"); int(route.routeType)
        key("mode"); string(route.mode)
        key("icon"); string(ModePresentation(mode: route.mode).icon)
        key("color"); string(route.color)
        key("text_color"); string(route.textColor)
        key("section"); string(route.section)
        key("feed"); string(route.feed)
        endObject()
    }

    /// `data` of `stop`: the stop, its parent, platforms and routes.
    public mutating func stopData(_ result: StopResult) {
        beginObject()
        key("stop"); stop(result.stop)
        key("parent")
        if let parent = result.parent { stop(parent) } else { null() }
        key("platforms"); beginArray()
        for platform in result.platforms { stop(platform) }
        endArray()
        key("routes"); beginArray()
        for route in result.routes { self.route(route) }
        endArray()
        endObject()
    }

    /// `data` of `search` and `nearby`.
    public mutating func stopListData(_ stops: [Stop]) {
        beginObject()
        key("stops"); beginArray()
        for stop in stops { self.stop(stop) }
        endArray()
        endObject()
    }

    /// `data` of `routes`: the routes in the given (natural) order and the A–Z `sections` index, one entry per
    /// run of equal `section` keys.
    public mutating func routeListData(_ routes: [Route]) {
        beginObject()
        key("routes"); beginArray()
        for route in routes { self.route(route) }
        endArray()
        key("sections"); beginArray()
        var index = 0
        while index < routes.count {
            let sectionKey = routes[index].section
            var end = index + 1
            while end < routes.count, routes[end].section == sectionKey { end += 1 }
            beginObject()
            key("key"); string(sectionKey)
            key("first_index"); int(index)
            key("count"); int(end - index)
            endObject()
            index = end
        }
        endArray()
        endObject()
    }

    /// `data` of `feed_info`.
    public mutating func feedInfoData(_ info: FeedInfo) {
        beginObject()
        key("database_version"); string(info.databaseVersion)
        key("imported_at"); int(info.importedAt)
        key("stops"); int(info.stops)
        key("routes"); int(info.routes)
        key("trips"); int(info.trips)
        key("stop_times"); int(info.stopTimes)
        key("patterns"); int(info.patterns)
        key("feeds"); beginArray()
        for feed in info.feeds {
            beginObject()
            key("name"); string(feed.name)
            key("prefix"); string(feed.prefix)
            key("publisher"); string(feed.publisher)
            key("version"); string(feed.version)
            key("start_date"); serviceDate(feed.startDate)
            key("end_date"); serviceDate(feed.endDate)
            key("timezone"); string(feed.timezone)
            key("lang"); string(feed.lang)
            key("imported_at"); int(feed.importedAt)
            key("stops"); int(feed.stops)
            key("routes"); int(feed.routes)
            key("trips"); int(feed.trips)
            key("stop_times"); int(feed.stopTimes)
            key("source"); string(feed.source)
            key("refresh"); feedRefresh(feed.refresh)
            endObject()
        }
        endArray()
        endObject()
    }

    /// A feed's `refresh` object (GATEWAY.md `feed_info`), or null.
    public mutating func feedRefresh(_ refresh: FeedRefreshStatus?) {
        guard let refresh else { return null() }
        beginObject()
        key("source"); string(refresh.source)
        key("last_check_unix"); int(refresh.lastCheck)
        key("last_change_unix"); int(refresh.lastChange)
        key("next_check_unix"); int(refresh.nextCheck)
        key("last_error"); string(refresh.lastError)
        key("last_error_unix"); int(refresh.lastErrorAt)
        key("consecutive_failures"); int(refresh.consecutiveFailures)
        key("refused"); string(refresh.refused)
        endObject()
    }
}
