import TransitCore
import TransitModel
import TransitPresentation

// Encoders of departures and trips (GATEWAY.md "departures", "trip"): the static rows merged with their
// realtime part, and the presentation fields (status, delay_badge, minutes_until, countdown_text) computed
// by TransitCore's rules against the request's `at`.

extension JSONWriter {
    /// `data` of `departures` (and of a subscription event).
    public mutating func departuresData(_ answer: DeparturesAnswer, at: Int64) {
        beginObject()
        key("stop_id"); string(answer.stopId)
        key("timezone"); string(answer.timezone)
        key("departures"); beginArray()
        var earliest: Int64?
        var latest: Int64?
        for row in answer.rows {
            departure(row, at: at)
            let time = row.time
            if earliest.map({ time < $0 }) ?? true { earliest = time }
            if latest.map({ time > $0 }) ?? true { latest = time }
        }
        endArray()
        key("alerts"); beginArray()
        for a in answer.alerts { alert(a) }
        endArray()
        key("page"); beginObject()
        key("direction"); string(answer.page.direction.rawValue)
        key("earliest_unix"); int(earliest)
        key("latest_unix"); int(latest)
        key("has_more_past"); bool(answer.page.hasMorePast)
        key("has_more_future"); bool(answer.page.hasMoreFuture)
        key("earlier_cursor"); string(answer.page.earlierCursor)
        key("later_cursor"); string(answer.page.laterCursor)
        endObject()
        endObject()
    }

    /// One departure row.
    public mutating func departure(_ row: DepartureRow, at: Int64) {
        let d = row.departure
        let rt = row.realtime
        let added = rt?.added ?? false
        let delay = row.delay
        let status = row.status
        // The service day's origin (noon minus 12 h) in unix time, to turn a predicted unix time into secs.
        let origin = d.scheduledUnix - Int64(d.scheduledSecs)
        let minutes = Countdown.minutesUntil(row.time, from: at)

        beginObject()
        d.withCachedEncoding(Self.fixedMembers) { members($0) }
        key("scheduled_secs"); int(added ? nil : Int64(d.scheduledSecs))
        key("scheduled_unix"); int(added ? nil : d.scheduledUnix)
        key("realtime_secs"); int(rt?.predictedUnix.map { $0 - origin })
        key("realtime_unix"); int(rt?.predictedUnix)
        key("delay_s"); int(delay)
        key("realtime"); bool(rt?.appliesToRow ?? false)
        key("status"); string(status.rawValue)
        key("delay_badge"); delayBadge(DelayBadge(status: status, delay: delay))
        prediction(rt?.predictedUnix != nil ? rt?.predictionSource : nil, age: rt?.predictionAgeSeconds)
        key("minutes_until"); int(minutes)
        key("countdown_text"); string(Countdown.text(minutesUntil: minutes))
        platform(scheduled: d.platform, change: rt?.platformChange)
        key("wheelchair_accessible"); int(d.wheelchairAccessible)
        key("occupancy_status"); string(rt?.occupancyStatus)
        key("carriages"); carriages(rt?.carriages ?? [], departure: true)
        key("alert_ids"); strings(row.alertIds)
        key("typical_delay"); typicalDelay(row.typicalDelay)
        key("detour"); detour(row.detour, withShape: false)
        endObject()
    }

    /// GATEWAY.md "detour": null, or the TripModifications entity's id and its alerts; on a trip also the
    /// detour's shape.
    mutating func detour(_ detour: LiveDetour?, withShape: Bool) {
        guard let detour else { return null() }
        beginObject()
        key("modifications_id"); string(detour.modificationsId)
        key("alert_ids"); strings(detour.alertIds)
        if withShape {
            key("shape_id"); string(detour.shapeId)
            key("polyline"); string(detour.shapePolyline)
        }
        endObject()
    }

    /// The members of a departure row that depend on its `Departure` alone, `"trip_id"` to `"service_date"`
    /// (no braces): encoded once per departure (`Departure.withCachedEncoding`), as a cached window's rows are
    /// answered many times.
    static func fixedMembers(_ d: Departure) -> [UInt8] {
        var w = JSONWriter(capacity: 512)
        w.key("trip_id"); w.string(d.tripId)
        w.key("start_time"); w.string(d.startTime)
        w.key("route_id"); w.string(d.route.routeId)
        w.key("route_short_name"); w.string(d.route.shortName)
        w.key("route_long_name"); w.string(d.route.longName)
        w.key("route_type"); w.int(d.route.routeType)
        w.key("mode"); w.string(d.route.mode)
        w.key("route_color"); w.string(d.route.color)
        w.key("route_text_color"); w.string(d.route.textColor)
        w.key("headsign"); w.string(d.headsign)
        w.key("direction_id"); w.int(d.directionId)
        w.key("stop_id"); w.string(d.stopId)
        w.key("stop_sequence"); w.int(d.stopSequence)
        w.key("service_date"); w.serviceDate(d.serviceDate)
        return w.finish()
    }

    /// An array of strings.
    mutating func strings(_ list: [String]) {
        beginArray()
        for item in list { string(item) }
        endArray()
    }

    /// `prediction_source` and `prediction_age_s` (nil source: no prediction, `schedule` with a null age).
    mutating func prediction(_ source: LivePredictionSource?, age: Int64?) {
        let source = source ?? .schedule
        key("prediction_source"); string(source.rawValue)
        key("prediction_age_s"); int(source == .schedule ? nil : age)
    }

    /// `platform` (the one the vehicle serves), `platform_changed` and `scheduled_platform`.
    mutating func platform(scheduled: String?, change: PlatformChange?) {
        key("platform"); string(change.map(\.platform) ?? scheduled)
        key("platform_changed"); bool(change != nil)
        key("scheduled_platform"); string(scheduled)
    }

    /// A `carriages` list (GATEWAY.md "carriage"). `departure`: a stop's list, whose `occupancy_status` is the
    /// predicted occupancy on departure; else a vehicle's, whose is the occupancy now.
    public mutating func carriages(_ list: [LiveCarriage], departure: Bool) {
        beginArray()
        for c in list {
            beginObject()
            key("position"); int(c.position.map { Int64($0) })
            key("name"); string(c.name)
            let occupancy = departure ? c.departureOccupancy ?? c.occupancy : c.occupancy ?? c.departureOccupancy
            key("occupancy_status"); string(occupancy)
            key("quiet"); bool(c.quiet)
            key("toilet"); string(c.toilet)
            key("luggage_rack"); bool(c.luggageRack)
            endObject()
        }
        endArray()
    }

    public mutating func delayBadge(_ badge: DelayBadge?) {
        guard let badge else { return null() }
        beginObject()
        key("text"); string(badge.text)
        key("color"); string(badge.color.rawValue)
        key("accessibility_label"); string(badge.accessibilityLabel)
        endObject()
    }

    /// `data` of `trip`: the trip, its vehicle and every stop with schedule, prediction and status.
    /// `alerts`: the alerts its stops name, once each; `alertIds`: each stop's (by index; missing: none);
    /// `typicalDelays`: each stop's (by index, GATEWAY.md "typical delay"; missing: null).
    public mutating func tripData(
        _ trip: TripDetail, realtime: TripRealtime?, at: Int64, alerts: [AlertView] = [], alertIds: [[String]] = [],
        typicalDelays: [TypicalDelayView?] = []
    ) {
        let rows = TripRows(trip: trip, realtime: realtime)
        beginObject()
        key("trip_id"); string(trip.tripId)
        key("service_date"); serviceDate(trip.serviceDate)
        key("start_time"); string(trip.startTime)
        key("frequency_based"); bool(trip.frequencyBased)
        key("route"); route(trip.route)
        key("headsign"); string(trip.headsign)
        key("short_name"); string(trip.shortName)
        key("direction_id"); int(trip.directionId)
        key("block_id"); string(trip.blockId)
        key("shape_id"); string(trip.shapeId)
        key("wheelchair_accessible"); int(trip.wheelchairAccessible)
        key("bikes_allowed"); int(trip.bikesAllowed)
        key("timezone"); string(trip.timezone)
        key("detour"); detour(realtime?.detour, withShape: true)
        key("realtime"); bool(rows.appliesToTrip)
        key("status"); string(rows.tripStatus(at: at).rawValue)
        key("vehicle")
        if let vehicle = realtime?.vehicle { self.vehicle(vehicle) } else { null() }
        key("stops"); beginArray()
        for index in trip.stops.indices {
            tripStop(
                rows, index, alertIds: index < alertIds.count ? alertIds[index] : [],
                typicalDelay: index < typicalDelays.count ? typicalDelays[index] : nil)
        }
        endArray()
        key("alerts"); beginArray()
        for a in alerts { alert(a) }
        endArray()
        endObject()
    }

    private mutating func tripStop(
        _ rows: TripRows, _ index: Int, alertIds: [String], typicalDelay typical: TypicalDelayView?
    ) {
        let stop = rows.trip.stops[index]
        let rt = rows.realtime(index)
        let added = rows.added
        let delay = rows.delay(index)
        let status = rows.status(index)
        let arrivalOrigin = stop.arrivalUnix - Int64(stop.arrivalSecs)
        let departureOrigin = stop.departureUnix - Int64(stop.departureSecs)

        let role = rows.detourRole(index)
        let replacement = role == .replacement
        beginObject()
        key("stop_id"); string(stop.stopId)
        key("stop_name"); string(replacement && stop.stopName.isEmpty ? nil : stop.stopName)
        key("stop_sequence"); int(replacement ? nil : Int64(stop.stopSequence))
        key("detour_role"); string(role?.rawValue)
        key("scheduled_arrival_secs"); int(added ? nil : Int64(stop.arrivalSecs))
        key("scheduled_arrival_unix"); int(added ? nil : stop.arrivalUnix)
        key("scheduled_departure_secs"); int(added ? nil : Int64(stop.departureSecs))
        key("scheduled_departure_unix"); int(added ? nil : stop.departureUnix)
        key("realtime_arrival_secs"); int(rt?.predictedArrival.map { $0 - arrivalOrigin })
        key("realtime_arrival_unix"); int(rt?.predictedArrival)
        key("realtime_departure_secs"); int(rt?.predictedDeparture.map { $0 - departureOrigin })
        key("realtime_departure_unix"); int(rt?.predictedDeparture)
        key("delay_s"); int(delay)
        key("status"); string(status.rawValue)
        key("delay_badge"); delayBadge(DelayBadge(status: status, delay: delay))
        let predicted = rt?.isPredicted ?? false
        prediction(predicted ? rt?.predictionSource : nil, age: rows.tripRealtime?.predictionAgeSeconds)
        platform(scheduled: stop.platformCode, change: rows.cancelled ? nil : rt?.platformChange)
        key("wheelchair_accessible"); int(stop.wheelchairBoarding)
        key("lat"); double(replacement && !stop.lat.isFinite ? nil : stop.lat)
        key("lon"); double(replacement && !stop.lon.isFinite ? nil : stop.lon)
        key("parent_station"); string(stop.parentStation)
        key("pickup_type"); int(rt?.pickupType.map(Int.init) ?? stop.pickupType)
        key("drop_off_type"); int(rt?.dropOffType.map(Int.init) ?? stop.dropOffType)
        key("stop_headsign"); string(stop.stopHeadsign)
        key("occupancy_status"); string(rt?.departureOccupancy)
        key("carriages"); carriages(rt?.carriages ?? [], departure: true)
        key("alert_ids"); strings(alertIds)
        key("typical_delay"); typicalDelay(typical)
        endObject()
    }
}

/// The merge rules of a trip's stops with their realtime part.
struct TripRows {
    let trip: TripDetail
    let tripRealtime: TripRealtime?

    init(trip: TripDetail, realtime: TripRealtime?) {
        self.trip = trip
        self.tripRealtime = realtime
    }

    var cancelled: Bool { tripRealtime?.cancelled ?? false }
    var added: Bool { tripRealtime?.added ?? false }

    func realtime(_ index: Int) -> LiveStop? {
        guard let stops = tripRealtime?.stops, index < stops.count else { return nil }
        return stops[index]
    }

    /// Departure delay (arrival delay at the last stop), falling back to the other one when only it is
    /// predicted; nil without a prediction and for added trips.
    func delay(_ index: Int) -> Int? {
        guard !added, let rt = realtime(index) else { return nil }
        let stop = trip.stops[index]
        let arrival = rt.predictedArrival.map { Int($0 - stop.arrivalUnix) }
        let departure = rt.predictedDeparture.map { Int($0 - stop.departureUnix) }
        return index == trip.stops.count - 1 ? (arrival ?? departure) : (departure ?? arrival)
    }

    func status(_ index: Int) -> DepartureStatus {
        DepartureStatus(
            delay: delay(index), cancelled: cancelled, skipped: realtime(index)?.skipped ?? false, added: added,
            detoured: detourRole(index) == .detoured)
    }

    /// The stop's part in the trip's detour; nil without one.
    func detourRole(_ index: Int) -> LiveDetourStop.Role? {
        guard let roles = tripRealtime?.detourRoles, index < roles.count else { return nil }
        return roles[index]
    }

    var appliesToTrip: Bool {
        guard let tripRealtime else { return false }
        if tripRealtime.cancelled || tripRealtime.added || tripRealtime.detour != nil { return true }
        return tripRealtime.stops.contains { rt in
            guard let rt else { return false }
            return rt.isPredicted || rt.skipped
        }
    }

    /// cancelled, added, else the status of the next stop: the first stop, not skipped, that has not departed
    /// at `at` (predicted, else scheduled time; the arrival at the last stop); the last stop once all passed.
    func tripStatus(at: Int64) -> DepartureStatus {
        if cancelled { return .cancelled }
        if added { return .added }
        guard !trip.stops.isEmpty else { return .scheduled }
        let last = trip.stops.count - 1
        for index in trip.stops.indices {
            let stop = trip.stops[index]
            let rt = realtime(index)
            if rt?.skipped ?? false || detourRole(index) == .detoured { continue }
            let time =
                index == last
                ? (rt?.predictedArrival ?? stop.arrivalUnix)
                : (rt?.predictedDeparture ?? stop.departureUnix)
            if time >= at { return status(index) }
        }
        return status(last)
    }
}
