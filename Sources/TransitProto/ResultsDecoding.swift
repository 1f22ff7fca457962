// Unpacked protobuf-c structs -> TransitModel results. Every non-optional Swift field must be present
// on the wire (`.missingField` names it otherwise); optional ones are nil exactly when absent.
import TransitModel
import TransitProtoC

extension Stop {
    init(proto m: borrowing Transit__Stop) throws(ProtoDecodeError) {
        self.init(
            stopId: try requiredString(m.stop_id, "stop_id"),
            code: optionalString(m.code),
            name: try requiredString(m.name, "name"),
            lat: try requiredValue(m.has_lat, m.lat, "lat"),
            lon: try requiredValue(m.has_lon, m.lon, "lon"),
            locationType: Int(try requiredValue(m.has_location_type, m.location_type, "location_type")),
            parentStation: optionalString(m.parent_station),
            platformCode: optionalString(m.platform_code),
            wheelchairBoarding: Int(
                try requiredValue(m.has_wheelchair_boarding, m.wheelchair_boarding, "wheelchair_boarding")),
            primaryRouteType: optionalValue(m.has_primary_route_type, m.primary_route_type).map(Int.init),
            mode: optionalString(m.mode),
            distanceMetres: optionalValue(m.has_distance_m, m.distance_m),
            timezone: optionalString(m.timezone)
        )
    }
}

extension Route {
    init(proto m: borrowing Transit__Route) throws(ProtoDecodeError) {
        self.init(
            routeId: try requiredString(m.route_id, "route_id"),
            agencyId: optionalString(m.agency_id),
            shortName: optionalString(m.short_name),
            longName: optionalString(m.long_name),
            routeType: Int(try requiredValue(m.has_route_type, m.route_type, "route_type")),
            mode: try requiredString(m.mode, "mode"),
            color: optionalString(m.color),
            textColor: optionalString(m.text_color),
            section: try requiredString(m.section, "section"),
            feed: optionalString(m.feed)
        )
    }
}

extension StopResult {
    init(proto m: borrowing Transit__StopResult) throws(ProtoDecodeError) {
        self.init(
            stop: try requiredMessage(m.stop, "stop", Stop.init(proto:)),
            parent: try optionalMessage(m.parent, "parent", Stop.init(proto:)),
            platforms: try repeatedMessages(m.n_platforms, m.platforms, "platforms", Stop.init(proto:)),
            routes: try repeatedMessages(m.n_routes, m.routes, "routes", Route.init(proto:))
        )
    }
}

func stops(proto m: borrowing Transit__StopList) throws(ProtoDecodeError) -> [Stop] {
    try repeatedMessages(m.n_stops, m.stops, "stops", Stop.init(proto:))
}

func routes(proto m: borrowing Transit__RouteList) throws(ProtoDecodeError) -> [Route] {
    try repeatedMessages(m.n_routes, m.routes, "routes", Route.init(proto:))
}

extension Departure {
    init(proto m: borrowing Transit__Departure) throws(ProtoDecodeError) {
        self.init(
            tripId: try requiredString(m.trip_id, "trip_id"),
            startTime: optionalString(m.start_time),
            route: try requiredMessage(m.route, "route", Route.init(proto:)),
            headsign: optionalString(m.headsign),
            stopId: try requiredString(m.stop_id, "stop_id"),
            stopSequence: try requiredValue(m.has_stop_sequence, m.stop_sequence, "stop_sequence"),
            stopIndex: try requiredValue(m.has_stop_index, m.stop_index, "stop_index"),
            serviceDate: try requiredValue(m.has_service_date, m.service_date, "service_date"),
            scheduledSecs: try requiredValue(m.has_scheduled_secs, m.scheduled_secs, "scheduled_secs"),
            scheduledUnix: try requiredValue(m.has_scheduled_unix, m.scheduled_unix, "scheduled_unix"),
            platform: optionalString(m.platform),
            wheelchairAccessible: Int(
                try requiredValue(m.has_wheelchair_accessible, m.wheelchair_accessible, "wheelchair_accessible")),
            directionId: optionalValue(m.has_direction_id, m.direction_id).map(Int.init),
            frequencyBased: optionalValue(m.has_frequency_based, m.frequency_based).map { $0 != 0 } ?? false
        )
    }
}

extension DepartureBoard {
    init(proto m: borrowing Transit__DepartureBoard) throws(ProtoDecodeError) {
        self.init(
            stopId: try requiredString(m.stop_id, "stop_id"),
            at: try requiredValue(m.has_at, m.at, "at"),
            direction: try BoardDirection(
                proto: try requiredValue(m.has_direction, m.direction, "direction"), field: "direction"),
            departures: try repeatedMessages(m.n_departures, m.departures, "departures", Departure.init(proto:)),
            earlierCursor: optionalString(m.earlier_cursor),
            laterCursor: optionalString(m.later_cursor),
            hasMorePast: try requiredBool(m.has_has_more_past, m.has_more_past, "has_more_past"),
            hasMoreFuture: try requiredBool(m.has_has_more_future, m.has_more_future, "has_more_future"),
            timezone: optionalString(m.timezone)
        )
    }
}

extension TripStop {
    init(proto m: borrowing Transit__TripStop) throws(ProtoDecodeError) {
        self.init(
            stopId: try requiredString(m.stop_id, "stop_id"),
            stopName: try requiredString(m.stop_name, "stop_name"),
            stopSequence: try requiredValue(m.has_stop_sequence, m.stop_sequence, "stop_sequence"),
            arrivalSecs: try requiredValue(m.has_arrival_secs, m.arrival_secs, "arrival_secs"),
            departureSecs: try requiredValue(m.has_departure_secs, m.departure_secs, "departure_secs"),
            arrivalUnix: try requiredValue(m.has_arrival_unix, m.arrival_unix, "arrival_unix"),
            departureUnix: try requiredValue(m.has_departure_unix, m.departure_unix, "departure_unix"),
            lat: try requiredValue(m.has_lat, m.lat, "lat"),
            lon: try requiredValue(m.has_lon, m.lon, "lon"),
            platformCode: optionalString(m.platform_code),
            wheelchairBoarding: Int(
                try requiredValue(m.has_wheelchair_boarding, m.wheelchair_boarding, "wheelchair_boarding")),
            pickupType: Int(try requiredValue(m.has_pickup_type, m.pickup_type, "pickup_type")),
            dropOffType: Int(try requiredValue(m.has_drop_off_type, m.drop_off_type, "drop_off_type")),
            stopHeadsign: optionalString(m.stop_headsign),
            parentStation: optionalString(m.parent_station)
        )
    }
}

extension TripDetail {
    init(proto m: borrowing Transit__TripDetail) throws(ProtoDecodeError) {
        self.init(
            tripId: try requiredString(m.trip_id, "trip_id"),
            route: try requiredMessage(m.route, "route", Route.init(proto:)),
            headsign: optionalString(m.headsign),
            directionId: optionalValue(m.has_direction_id, m.direction_id).map(Int.init),
            serviceDate: try requiredValue(m.has_service_date, m.service_date, "service_date"),
            startTime: try requiredString(m.start_time, "start_time"),
            frequencyBased: try requiredBool(m.has_frequency_based, m.frequency_based, "frequency_based"),
            wheelchairAccessible: Int(
                try requiredValue(m.has_wheelchair_accessible, m.wheelchair_accessible, "wheelchair_accessible")),
            bikesAllowed: Int(try requiredValue(m.has_bikes_allowed, m.bikes_allowed, "bikes_allowed")),
            blockId: optionalString(m.block_id),
            shapeId: optionalString(m.shape_id),
            shortName: optionalString(m.short_name),
            timezone: try requiredString(m.timezone, "timezone"),
            stops: try repeatedMessages(m.n_stops, m.stops, "stops", TripStop.init(proto:)),
            undatedRange: Self.undatedRange(m)
        )
    }

    /// Both ends, the first before the second; anything else is taken as no range (the client then asks
    /// again instead of reusing the reply).
    private static func undatedRange(_ m: borrowing Transit__TripDetail) -> Range<Int64>? {
        guard m.has_undated_from_unix != 0, m.has_undated_until_unix != 0,
            m.undated_from_unix < m.undated_until_unix
        else { return nil }
        return m.undated_from_unix..<m.undated_until_unix
    }
}

extension PatternStop {
    init(proto m: borrowing Transit__PatternStop) throws(ProtoDecodeError) {
        self.init(
            stopId: try requiredString(m.stop_id, "stop_id"),
            stopSequence: try requiredValue(m.has_stop_sequence, m.stop_sequence, "stop_sequence"),
            arrivalOffset: try requiredValue(m.has_arrival_offset, m.arrival_offset, "arrival_offset"),
            departureOffset: try requiredValue(m.has_departure_offset, m.departure_offset, "departure_offset"),
            pickupType: Int(try requiredValue(m.has_pickup_type, m.pickup_type, "pickup_type")),
            dropOffType: Int(try requiredValue(m.has_drop_off_type, m.drop_off_type, "drop_off_type")),
            timepoint: m.has_timepoint == 0 ? true : m.timepoint != 0
        )
    }
}

extension Pattern {
    init(proto m: borrowing Transit__Pattern) throws(ProtoDecodeError) {
        self.init(
            patternId: try requiredValue(m.has_pattern_id, m.pattern_id, "pattern_id"),
            stops: try repeatedMessages(m.n_stops, m.stops, "stops", PatternStop.init(proto:))
        )
    }
}

extension FrequencyWindow {
    init(proto m: borrowing Transit__FrequencyWindow) throws(ProtoDecodeError) {
        self.init(
            startSecs: try requiredValue(m.has_start_secs, m.start_secs, "start_secs"),
            endSecs: try requiredValue(m.has_end_secs, m.end_secs, "end_secs"),
            headwaySecs: try requiredValue(m.has_headway_secs, m.headway_secs, "headway_secs"),
            exactTimes: try requiredBool(m.has_exact_times, m.exact_times, "exact_times")
        )
    }
}

extension TripSchedule {
    init(proto m: borrowing Transit__TripSchedule) throws(ProtoDecodeError) {
        self.init(
            tripId: try requiredString(m.trip_id, "trip_id"),
            routeId: try requiredString(m.route_id, "route_id"),
            routeType: Int(try requiredValue(m.has_route_type, m.route_type, "route_type")),
            directionId: optionalValue(m.has_direction_id, m.direction_id).map(Int.init),
            patternId: try requiredValue(m.has_pattern_id, m.pattern_id, "pattern_id"),
            startSecs: try requiredValue(m.has_start_secs, m.start_secs, "start_secs"),
            frequencies: try repeatedMessages(
                m.n_frequencies, m.frequencies, "frequencies", FrequencyWindow.init(proto:)),
            serviceDates: repeatedValues(m.n_service_dates, m.service_dates),
            timezone: try requiredString(m.timezone, "timezone")
        )
    }
}

extension TripSchedules {
    init(proto m: borrowing Transit__TripSchedules) throws(ProtoDecodeError) {
        self.init(
            databaseVersion: try requiredString(m.database_version, "database_version"),
            patterns: try repeatedMessages(m.n_patterns, m.patterns, "patterns", Pattern.init(proto:)),
            trips: try repeatedMessages(m.n_trips, m.trips, "trips", TripSchedule.init(proto:)),
            unknownTripIds: repeatedStrings(m.n_unknown_trip_ids, m.unknown_trip_ids),
            descriptorMatches: try repeatedMessages(m.n_descriptor_matches, m.descriptor_matches, "descriptor_matches")
            {
                (match: borrowing Transit__TripStartMatch) throws(ProtoDecodeError) in
                repeatedStrings(match.n_trip_ids, match.trip_ids)
            },
            stations: try repeatedMessages(m.n_stations, m.stations, "stations") {
                (station: borrowing Transit__StationPlatforms) throws(ProtoDecodeError) in
                StationPlatforms(
                    stationId: try requiredString(station.station_id, "station_id"),
                    platforms: try repeatedMessages(station.n_platforms, station.platforms, "platforms") {
                        (p: borrowing Transit__StationPlatform) throws(ProtoDecodeError) in
                        StationPlatform(
                            stopId: try requiredString(p.stop_id, "stop_id"),
                            platformCode: optionalString(p.platform_code))
                    })
            }
        )
    }
}

extension FeedSummary {
    init(proto m: borrowing Transit__FeedSummary) throws(ProtoDecodeError) {
        self.init(
            name: try requiredString(m.name, "name"),
            prefix: optionalString(m.prefix),
            publisher: optionalString(m.publisher),
            version: optionalString(m.version),
            startDate: optionalValue(m.has_start_date, m.start_date),
            endDate: optionalValue(m.has_end_date, m.end_date),
            timezone: try requiredString(m.timezone, "timezone"),
            lang: optionalString(m.lang),
            importedAt: try requiredValue(m.has_imported_at, m.imported_at, "imported_at"),
            stops: try requiredValue(m.has_stops, m.stops, "stops"),
            routes: try requiredValue(m.has_routes, m.routes, "routes"),
            trips: try requiredValue(m.has_trips, m.trips, "trips"),
            stopTimes: try requiredValue(m.has_stop_times, m.stop_times, "stop_times"),
            source: optionalString(m.source),
            refresh: try optionalMessage(m.refresh, "refresh", FeedRefreshStatus.init(proto:))
        )
    }
}

extension FeedRefreshStatus {
    init(proto m: borrowing Transit__FeedRefreshStatus) throws(ProtoDecodeError) {
        self.init(
            source: try requiredString(m.source, "source"),
            lastCheck: optionalValue(m.has_last_check, m.last_check),
            lastChange: optionalValue(m.has_last_change, m.last_change),
            nextCheck: optionalValue(m.has_next_check, m.next_check),
            lastError: optionalString(m.last_error),
            lastErrorAt: optionalValue(m.has_last_error_at, m.last_error_at),
            consecutiveFailures: Int(optionalValue(m.has_consecutive_failures, m.consecutive_failures) ?? 0),
            refused: optionalString(m.refused)
        )
    }
}

extension FeedInfo {
    init(proto m: borrowing Transit__FeedInfo) throws(ProtoDecodeError) {
        self.init(
            databaseVersion: try requiredString(m.database_version, "database_version"),
            importedAt: try requiredValue(m.has_imported_at, m.imported_at, "imported_at"),
            feeds: try repeatedMessages(m.n_feeds, m.feeds, "feeds", FeedSummary.init(proto:)),
            stops: try requiredValue(m.has_stops, m.stops, "stops"),
            routes: try requiredValue(m.has_routes, m.routes, "routes"),
            trips: try requiredValue(m.has_trips, m.trips, "trips"),
            stopTimes: try requiredValue(m.has_stop_times, m.stop_times, "stop_times"),
            patterns: try requiredValue(m.has_patterns, m.patterns, "patterns"),
            dayTypes: DayTypeCalendar(
                runsAs: Dictionary(
                    try repeatedMessages(m.n_timetable_days, m.timetable_days, "timetable_days", Self.timetableDay),
                    uniquingKeysWith: { _, last in last }))
        )
    }

    private static func timetableDay(proto m: borrowing Transit__TimetableDay) throws(ProtoDecodeError) -> (
        ServiceDate, Int
    ) {
        let runsAs = try requiredValue(m.has_runs_as, m.runs_as, "runs_as")
        // Only the weekend timetables are named (6 Saturday, 7 Sunday).
        guard runsAs == 6 || runsAs == 7 else { throw ProtoDecodeError.unknownEnum("runs_as", runsAs) }
        return (try requiredValue(m.has_date, m.date, "date"), Int(runsAs))
    }
}
