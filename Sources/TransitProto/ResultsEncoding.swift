// TransitModel results -> protobuf-c structs in an arena. Optional Swift fields are absent on the wire
// when nil (NULL strings, cleared has_ flags); every other field is always sent. Swift `Int`s that the
// proto declares int32/uint32 are clamped into range rather than trapping (ranges are the service's job).
import TransitModel
import TransitProtoC

extension ProtoArena {
    func proto(_ s: Stop) -> UnsafeMutablePointer<Transit__Stop> {
        message(transit__stop__init) { m in
            m.stop_id = string(s.stopId)
            m.code = string(s.code)
            m.name = string(s.name)
            (m.has_lat, m.lat) = present(s.lat)
            (m.has_lon, m.lon) = present(s.lon)
            (m.has_location_type, m.location_type) = present(Int32(clamping: s.locationType))
            m.parent_station = string(s.parentStation)
            m.platform_code = string(s.platformCode)
            (m.has_wheelchair_boarding, m.wheelchair_boarding) = present(Int32(clamping: s.wheelchairBoarding))
            (m.has_primary_route_type, m.primary_route_type) = ifPresent(s.primaryRouteType.map { Int32(clamping: $0) })
            m.mode = string(s.mode)
            (m.has_distance_m, m.distance_m) = ifPresent(s.distanceMetres)
            m.timezone = string(s.timezone)
        }
    }

    func proto(_ r: Route) -> UnsafeMutablePointer<Transit__Route> {
        message(transit__route__init) { m in
            m.route_id = string(r.routeId)
            m.agency_id = string(r.agencyId)
            m.short_name = string(r.shortName)
            m.long_name = string(r.longName)
            (m.has_route_type, m.route_type) = present(Int32(clamping: r.routeType))
            m.mode = string(r.mode)
            m.color = string(r.color)
            m.text_color = string(r.textColor)
            m.section = string(r.section)
            m.feed = string(r.feed)
        }
    }

    func proto(_ r: StopResult) -> UnsafeMutablePointer<Transit__StopResult> {
        message(transit__stop_result__init) { m in
            m.stop = proto(r.stop)
            m.parent = r.parent.map { proto($0) }
            (m.n_platforms, m.platforms) = messages(r.platforms, proto)
            (m.n_routes, m.routes) = messages(r.routes, proto)
        }
    }

    func proto(stops: [Stop]) -> UnsafeMutablePointer<Transit__StopList> {
        message(transit__stop_list__init) { m in (m.n_stops, m.stops) = messages(stops, proto) }
    }

    func proto(routes: [Route]) -> UnsafeMutablePointer<Transit__RouteList> {
        message(transit__route_list__init) { m in (m.n_routes, m.routes) = messages(routes, proto) }
    }

    func proto(_ d: Departure) -> UnsafeMutablePointer<Transit__Departure> {
        message(transit__departure__init) { m in
            m.trip_id = string(d.tripId)
            m.start_time = string(d.startTime)
            m.route = proto(d.route)
            m.headsign = string(d.headsign)
            m.stop_id = string(d.stopId)
            (m.has_stop_sequence, m.stop_sequence) = present(d.stopSequence)
            (m.has_service_date, m.service_date) = present(d.serviceDate)
            (m.has_scheduled_secs, m.scheduled_secs) = present(d.scheduledSecs)
            (m.has_scheduled_unix, m.scheduled_unix) = present(d.scheduledUnix)
            m.platform = string(d.platform)
            (m.has_wheelchair_accessible, m.wheelchair_accessible) = present(Int32(clamping: d.wheelchairAccessible))
            (m.has_direction_id, m.direction_id) = ifPresent(d.directionId.map { Int32(clamping: $0) })
            (m.has_stop_index, m.stop_index) = present(d.stopIndex)
            (m.has_frequency_based, m.frequency_based) = ifPresent(d.frequencyBased ? cBool(true) : nil)
        }
    }

    func proto(_ b: DepartureBoard) -> UnsafeMutablePointer<Transit__DepartureBoard> {
        message(transit__departure_board__init) { m in
            m.stop_id = string(b.stopId)
            (m.has_at, m.at) = present(b.at)
            (m.has_direction, m.direction) = present(b.direction.proto)
            (m.n_departures, m.departures) = messages(b.departures, proto)
            m.earlier_cursor = string(b.earlierCursor)
            m.later_cursor = string(b.laterCursor)
            (m.has_has_more_past, m.has_more_past) = present(cBool(b.hasMorePast))
            (m.has_has_more_future, m.has_more_future) = present(cBool(b.hasMoreFuture))
            m.timezone = string(b.timezone)
        }
    }

    func proto(_ s: TripStop) -> UnsafeMutablePointer<Transit__TripStop> {
        message(transit__trip_stop__init) { m in
            m.stop_id = string(s.stopId)
            m.stop_name = string(s.stopName)
            (m.has_stop_sequence, m.stop_sequence) = present(s.stopSequence)
            (m.has_arrival_secs, m.arrival_secs) = present(s.arrivalSecs)
            (m.has_departure_secs, m.departure_secs) = present(s.departureSecs)
            (m.has_arrival_unix, m.arrival_unix) = present(s.arrivalUnix)
            (m.has_departure_unix, m.departure_unix) = present(s.departureUnix)
            (m.has_lat, m.lat) = present(s.lat)
            (m.has_lon, m.lon) = present(s.lon)
            m.platform_code = string(s.platformCode)
            (m.has_wheelchair_boarding, m.wheelchair_boarding) = present(Int32(clamping: s.wheelchairBoarding))
            (m.has_pickup_type, m.pickup_type) = present(Int32(clamping: s.pickupType))
            (m.has_drop_off_type, m.drop_off_type) = present(Int32(clamping: s.dropOffType))
            m.stop_headsign = string(s.stopHeadsign)
            m.parent_station = string(s.parentStation)
        }
    }

    func proto(_ t: TripDetail) -> UnsafeMutablePointer<Transit__TripDetail> {
        message(transit__trip_detail__init) { m in
            m.trip_id = string(t.tripId)
            m.route = proto(t.route)
            m.headsign = string(t.headsign)
            (m.has_direction_id, m.direction_id) = ifPresent(t.directionId.map { Int32(clamping: $0) })
            (m.has_service_date, m.service_date) = present(t.serviceDate)
            m.start_time = string(t.startTime)
            (m.has_frequency_based, m.frequency_based) = present(cBool(t.frequencyBased))
            (m.has_wheelchair_accessible, m.wheelchair_accessible) = present(Int32(clamping: t.wheelchairAccessible))
            (m.has_bikes_allowed, m.bikes_allowed) = present(Int32(clamping: t.bikesAllowed))
            m.block_id = string(t.blockId)
            m.shape_id = string(t.shapeId)
            m.short_name = string(t.shortName)
            m.timezone = string(t.timezone)
            (m.n_stops, m.stops) = messages(t.stops, proto)
            (m.has_undated_from_unix, m.undated_from_unix) = ifPresent(t.undatedRange?.lowerBound)
            (m.has_undated_until_unix, m.undated_until_unix) = ifPresent(t.undatedRange?.upperBound)
        }
    }

    func proto(_ s: PatternStop) -> UnsafeMutablePointer<Transit__PatternStop> {
        message(transit__pattern_stop__init) { m in
            m.stop_id = string(s.stopId)
            (m.has_stop_sequence, m.stop_sequence) = present(s.stopSequence)
            (m.has_arrival_offset, m.arrival_offset) = present(s.arrivalOffset)
            (m.has_departure_offset, m.departure_offset) = present(s.departureOffset)
            (m.has_pickup_type, m.pickup_type) = present(Int32(clamping: s.pickupType))
            (m.has_drop_off_type, m.drop_off_type) = present(Int32(clamping: s.dropOffType))
            if !s.timepoint { (m.has_timepoint, m.timepoint) = (1, 0) }
        }
    }

    func proto(_ p: Pattern) -> UnsafeMutablePointer<Transit__Pattern> {
        message(transit__pattern__init) { m in
            (m.has_pattern_id, m.pattern_id) = present(p.patternId)
            (m.n_stops, m.stops) = messages(p.stops, proto)
        }
    }

    func proto(_ f: FrequencyWindow) -> UnsafeMutablePointer<Transit__FrequencyWindow> {
        message(transit__frequency_window__init) { m in
            (m.has_start_secs, m.start_secs) = present(f.startSecs)
            (m.has_end_secs, m.end_secs) = present(f.endSecs)
            (m.has_headway_secs, m.headway_secs) = present(f.headwaySecs)
            (m.has_exact_times, m.exact_times) = present(cBool(f.exactTimes))
        }
    }

    func proto(_ t: TripSchedule) -> UnsafeMutablePointer<Transit__TripSchedule> {
        message(transit__trip_schedule__init) { m in
            m.trip_id = string(t.tripId)
            m.route_id = string(t.routeId)
            (m.has_direction_id, m.direction_id) = ifPresent(t.directionId.map { Int32(clamping: $0) })
            (m.has_pattern_id, m.pattern_id) = present(t.patternId)
            (m.has_start_secs, m.start_secs) = present(t.startSecs)
            (m.n_frequencies, m.frequencies) = messages(t.frequencies, proto)
            (m.n_service_dates, m.service_dates) = values(t.serviceDates)
            m.timezone = string(t.timezone)
            (m.has_route_type, m.route_type) = present(Int32(clamping: t.routeType))
        }
    }

    func proto(_ s: TripSchedules) -> UnsafeMutablePointer<Transit__TripSchedules> {
        message(transit__trip_schedules__init) { m in
            m.database_version = string(s.databaseVersion)
            (m.n_patterns, m.patterns) = messages(s.patterns, proto)
            (m.n_trips, m.trips) = messages(s.trips, proto)
            (m.n_unknown_trip_ids, m.unknown_trip_ids) = strings(s.unknownTripIds)
            (m.n_descriptor_matches, m.descriptor_matches) = messages(s.descriptorMatches, protoMatch)
            (m.n_stations, m.stations) = messages(s.stations) { station in
                self.message(transit__station_platforms__init) { st in
                    st.station_id = self.string(station.stationId)
                    (st.n_platforms, st.platforms) = self.messages(station.platforms) { platform in
                        self.message(transit__station_platform__init) { p in
                            p.stop_id = self.string(platform.stopId)
                            p.platform_code = self.string(platform.platformCode)
                        }
                    }
                }
            }
        }
    }

    func protoMatch(_ tripIds: [String]) -> UnsafeMutablePointer<Transit__TripStartMatch> {
        message(transit__trip_start_match__init) { m in (m.n_trip_ids, m.trip_ids) = strings(tripIds) }
    }

    func proto(_ f: FeedSummary) -> UnsafeMutablePointer<Transit__FeedSummary> {
        message(transit__feed_summary__init) { m in
            m.name = string(f.name)
            m.prefix = string(f.prefix)
            m.publisher = string(f.publisher)
            m.version = string(f.version)
            (m.has_start_date, m.start_date) = ifPresent(f.startDate)
            (m.has_end_date, m.end_date) = ifPresent(f.endDate)
            m.timezone = string(f.timezone)
            m.lang = string(f.lang)
            (m.has_imported_at, m.imported_at) = present(f.importedAt)
            (m.has_stops, m.stops) = present(f.stops)
            (m.has_routes, m.routes) = present(f.routes)
            (m.has_trips, m.trips) = present(f.trips)
            (m.has_stop_times, m.stop_times) = present(f.stopTimes)
            m.source = string(f.source)
            m.refresh = f.refresh.map { proto($0) }
        }
    }

    func proto(_ r: FeedRefreshStatus) -> UnsafeMutablePointer<Transit__FeedRefreshStatus> {
        message(transit__feed_refresh_status__init) { m in
            m.source = string(r.source)
            (m.has_last_check, m.last_check) = ifPresent(r.lastCheck)
            (m.has_last_change, m.last_change) = ifPresent(r.lastChange)
            (m.has_next_check, m.next_check) = ifPresent(r.nextCheck)
            m.last_error = string(r.lastError)
            (m.has_last_error_at, m.last_error_at) = ifPresent(r.lastErrorAt)
            (m.has_consecutive_failures, m.consecutive_failures) = present(UInt32(clamping: r.consecutiveFailures))
            m.refused = string(r.refused)
        }
    }

    func proto(_ f: FeedInfo) -> UnsafeMutablePointer<Transit__FeedInfo> {
        message(transit__feed_info__init) { m in
            m.database_version = string(f.databaseVersion)
            (m.has_imported_at, m.imported_at) = present(f.importedAt)
            (m.n_feeds, m.feeds) = messages(f.feeds, proto)
            (m.has_stops, m.stops) = present(f.stops)
            (m.has_routes, m.routes) = present(f.routes)
            (m.has_trips, m.trips) = present(f.trips)
            (m.has_stop_times, m.stop_times) = present(f.stopTimes)
            (m.has_patterns, m.patterns) = present(f.patterns)
            (m.n_timetable_days, m.timetable_days) = messages(f.dayTypes.runsAs.sorted { $0.key < $1.key }, proto)
        }
    }

    func proto(_ day: (key: ServiceDate, value: Int)) -> UnsafeMutablePointer<Transit__TimetableDay> {
        message(transit__timetable_day__init) { m in
            (m.has_date, m.date) = present(day.key)
            (m.has_runs_as, m.runs_as) = present(UInt32(clamping: day.value))
        }
    }
}
