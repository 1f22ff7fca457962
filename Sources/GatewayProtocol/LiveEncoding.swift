import TransitCore
import TransitPresentation

// Encoders of the realtime-only objects: vehicle and alert (GATEWAY.md §5), and the data of `vehicles`
// and `alerts`.

extension JSONWriter {
    public mutating func vehicle(_ v: VehicleSnapshot) {
        beginObject()
        key("vehicle_id"); string(v.vehicleId)
        key("label"); string(v.label)
        key("trip_id"); string(v.tripId)
        key("route_id"); string(v.routeId)
        key("route_short_name"); string(v.routeShortName)
        key("route_color"); string(v.routeColor)
        key("mode"); string(v.mode)
        key("headsign"); string(v.headsign)
        key("service_date"); serviceDate(v.serviceDate)
        key("start_time"); string(v.startTime)
        key("lat"); double(v.lat)
        key("lon"); double(v.lon)
        key("bearing"); double(v.bearing)
        key("speed_mps"); double(v.speedMetresPerSecond)
        key("current_stop_sequence"); int(v.currentStopSequence.map { Int64($0) })
        key("stop_id"); string(v.stopId)
        key("current_status"); string(v.currentStatus)
        key("occupancy_status"); string(v.occupancyStatus)
        key("occupancy_percentage"); int(v.occupancyPercentage)
        key("congestion_level"); string(v.congestionLevel)
        key("timestamp"); int(v.timestamp)
        key("air_conditioned"); bool(v.airConditioned)
        key("wheelchair_accessible"); bool(v.wheelchairAccessible)
        key("model"); string(v.model)
        key("license_plate"); string(v.licensePlate)
        key("odometer_m"); double(v.odometerMetres)
        key("carriages"); carriages(v.carriages, departure: false)
        endObject()
    }

    /// `data` of `vehicles`.
    public mutating func vehicleListData(_ vehicles: [VehicleSnapshot]) {
        beginObject()
        key("vehicles"); beginArray()
        for v in vehicles { vehicle(v) }
        endArray()
        endObject()
    }

    public mutating func alert(_ a: AlertView) {
        let banner = AlertBanner(effect: a.effect, header: a.header)
        beginObject()
        key("id"); string(a.id)
        key("header"); string(a.header)
        key("description"); string(a.description)
        key("url"); string(a.url)
        key("tts_header"); string(a.ttsHeader)
        key("tts_description"); string(a.ttsDescription)
        key("cause"); string(a.cause)
        key("effect"); string(a.effect)
        key("severity"); string(a.severity)
        key("cause_detail"); string(a.causeDetail)
        key("effect_detail"); string(a.effectDetail)
        key("image")
        if let image = a.image {
            beginObject()
            key("url"); string(image.url)
            key("media_type"); string(image.mediaType)
            key("alt_text"); string(image.altText)
            endObject()
        } else {
            null()
        }
        key("active_periods"); beginArray()
        for period in a.activePeriods {
            beginObject()
            key("start"); int(period.start)
            key("end"); int(period.end)
            endObject()
        }
        endArray()
        key("informed_entities"); beginArray()
        for entity in a.informedEntities {
            beginObject()
            key("agency_id"); string(entity.agencyId)
            key("route_id"); string(entity.routeId)
            key("route_type"); int(entity.routeType)
            key("direction_id"); int(entity.directionId)
            key("trip_id"); string(entity.tripId)
            key("stop_id"); string(entity.stopId)
            endObject()
        }
        endArray()
        key("limited_to_stop_ids"); beginArray()
        for stopId in a.limitedToStopIds { string(stopId) }
        endArray()
        key("banner"); beginObject()
        key("icon"); string(banner.icon)
        key("color"); string(banner.color.rawValue)
        key("accessibility_label"); string(banner.accessibilityLabel)
        endObject()
        endObject()
    }

    /// `data` of `alerts`.
    public mutating func alertListData(_ alerts: [AlertView]) {
        beginObject()
        key("alerts"); beginArray()
        for a in alerts { alert(a) }
        endArray()
        endObject()
    }
}
