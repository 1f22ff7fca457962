import GTFSRealtime
import TransitModel

/// Trips named without trip_id. The GTFS-Realtime reference (TripDescriptor): "If trip_id is not provided,
/// route_id, direction_id, start_time and start_date must all be provided" to identify the trip instance;
/// start_time is the first departure of a non-frequency trip, or an instance's start in a frequencies.txt
/// window. The static service finds the matching trips (`TripSchedulesQuery.descriptors`); the resolver
/// then treats a single match as if the update had named it, and drops none or several.
extension TripUpdateResolver {
    /// The static-side descriptor (route id with the feed's prefix) of a realtime descriptor without
    /// trip_id; throws a drop naming what is missing or malformed.
    public static func startDescriptor(
        of trip: TripDescriptor, idPrefix: String
    ) throws(TripUpdateDrop) -> TripStartDescriptor {
        var missing: [String] = []
        if trip.routeId.nonEmpty == nil { missing.append("route_id") }
        if trip.directionId == nil { missing.append("direction_id") }
        if trip.startDate.nonEmpty == nil { missing.append("start_date") }
        if trip.startTime.nonEmpty == nil { missing.append("start_time") }
        guard missing.isEmpty, let route = trip.routeId, let direction = trip.directionId,
            let dateText = trip.startDate, let timeText = trip.startTime
        else {
            throw TripUpdateDrop(
                .unknownTrip, tripId: nil,
                "no trip_id, and no \(missing.joined(separator: ", ")) to find the trip by route_id, direction_id, "
                    + "start_date and start_time")
        }
        guard let date = GTFSTimeText.parseDate(dateText) else {
            throw TripUpdateDrop(.malformed, tripId: nil, "start_date \"\(dateText)\" is not a YYYYMMDD date")
        }
        guard GTFSTimeText.parseTime(timeText) != nil else {
            throw TripUpdateDrop(.malformed, tripId: nil, "start_time \"\(timeText)\" is not a GTFS time (HH:MM:SS)")
        }
        let routeId = idPrefix + route
        // The static service refuses longer ids (and with them the whole bulk request).
        guard routeId.utf8.count <= 255, direction <= UInt32(Int32.max) else {
            throw TripUpdateDrop(.malformed, tripId: nil, "route_id or direction_id out of range")
        }
        return TripStartDescriptor(routeId: routeId, directionId: Int(direction), startDate: date, startTime: timeText)
    }

    /// The static trip a descriptor without trip_id names: exactly one match, else a drop.
    func tripByStart(_ update: TripUpdate, schedules: some TripScheduleLookup) throws(TripUpdateDrop) -> StaticTrip {
        let descriptor = try Self.startDescriptor(of: update.trip, idPrefix: ids.prefix)
        let named =
            "route_id \"\(update.trip.routeId ?? "")\", direction_id \(descriptor.directionId), "
            + "start_date \(descriptor.startDate), start_time \(descriptor.startTime)"
        guard let matches = schedules.tripIds(matching: descriptor) else {
            throw TripUpdateDrop(
                .scheduleUnavailable, tripId: nil, "no answer yet from the static service for \(named)")
        }
        guard let tripId = matches.first else {
            throw TripUpdateDrop(.unknownTrip, tripId: nil, "no static trip has \(named)")
        }
        guard matches.count == 1 else {
            let shown = matches.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ") + (matches.count > 5 ? ", …" : "")
            throw TripUpdateDrop(
                .ambiguousInstance, tripId: nil, "\(matches.count) static trips have \(named): \(shown)")
        }
        guard let schedule = schedules.schedule(tripId: tripId) else {
            throw TripUpdateDrop(
                .scheduleUnavailable, tripId: nil, "\(named) is trip \"\(tripId)\", whose schedule is not loaded")
        }
        guard let pattern = schedules.pattern(id: schedule.patternId), !pattern.stops.isEmpty else {
            throw TripUpdateDrop(
                .unknownTrip, tripId: nil, "\(named) is trip \"\(tripId)\", whose pattern is not loaded or has no stops"
            )
        }
        return StaticTrip(schedule: schedule, stops: pattern.stops)
    }
}
