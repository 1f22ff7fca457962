import TransitCore
import TransitModel
import TransitPresentation

// The `trip` answer from the live state (GATEWAY.md "trip"): the same fields as `tripData`, null where the
// static data was not available.

extension JSONWriter {
    /// `data` of `trip` for a trip answered from the live state.
    /// `alerts`, `alertIds`: as for `tripData`.
    public mutating func liveTripData(
        _ trip: LiveTripView, at: Int64, alerts: [AlertView] = [], alertIds: [[String]] = []
    ) {
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
        key("detour"); null()  // a detour is read through the static trip (GATEWAY.md "Detours")
        key("realtime"); bool(trip.realtime)
        key("status"); string(trip.status(at: at).rawValue)
        key("vehicle")
        if let vehicle = trip.vehicle { self.vehicle(vehicle) } else { null() }
        key("stops"); beginArray()
        for index in trip.stops.indices {
            liveTripStop(trip, index, alertIds: index < alertIds.count ? alertIds[index] : [])
        }
        endArray()
        key("alerts"); beginArray()
        for a in alerts { alert(a) }
        endArray()
        endObject()
    }

    private mutating func liveTripStop(_ trip: LiveTripView, _ index: Int, alertIds: [String]) {
        let stop = trip.stops[index]
        let added = trip.added
        let delay = trip.delay(index)
        let status = trip.status(index)
        let origin = trip.origin
        func secs(_ unix: Int64?) -> Int64? {
            guard let unix, let origin else { return nil }
            return unix - origin
        }
        let scheduledArrival = added ? nil : stop.scheduledArrivalUnix
        let scheduledDeparture = added ? nil : stop.scheduledDepartureUnix

        beginObject()
        key("stop_id"); string(stop.stopId)
        key("stop_name"); string(stop.stopName)
        key("stop_sequence"); int(stop.stopSequence)
        key("detour_role"); null()
        key("scheduled_arrival_secs"); int(secs(scheduledArrival))
        key("scheduled_arrival_unix"); int(scheduledArrival)
        key("scheduled_departure_secs"); int(secs(scheduledDeparture))
        key("scheduled_departure_unix"); int(scheduledDeparture)
        key("realtime_arrival_secs"); int(secs(stop.predictedArrivalUnix))
        key("realtime_arrival_unix"); int(stop.predictedArrivalUnix)
        key("realtime_departure_secs"); int(secs(stop.predictedDepartureUnix))
        key("realtime_departure_unix"); int(stop.predictedDepartureUnix)
        key("delay_s"); int(delay)
        key("status"); string(status.rawValue)
        key("delay_badge"); delayBadge(DelayBadge(status: status, delay: delay))
        let predicted = stop.predictedArrivalUnix != nil || stop.predictedDepartureUnix != nil
        prediction(predicted ? stop.predictionSource : nil, age: stop.predictionAgeSeconds)
        platform(scheduled: stop.platformCode, change: stop.platformChange)
        key("wheelchair_accessible"); int(stop.wheelchairBoarding)
        key("lat"); double(stop.lat)
        key("lon"); double(stop.lon)
        key("parent_station"); string(stop.parentStation)
        key("pickup_type"); int(stop.pickupType)
        key("drop_off_type"); int(stop.dropOffType)
        key("stop_headsign"); string(stop.stopHeadsign)
        key("alert_ids"); strings(alertIds)
        endObject()
    }
}
