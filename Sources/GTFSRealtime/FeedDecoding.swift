// Unpacked protobuf-c structs -> the Swift model. Field-level failures throw ProtoDecodeError with the
// proto field path ("trip_update.trip", "alert.header_text.translation[0].text"); FeedDecoding.entities
// turns those into EntityProblems and drops only the broken part, so one bad entity never costs the feed.
import TransitModel
import TransitProto
import TransitProtoC

enum FeedDecoding {
    // MARK: feed and entities

    static func header(_ h: borrowing TransitRealtime__FeedHeader) throws(ProtoDecodeError) -> FeedHeader {
        FeedHeader(
            gtfsRealtimeVersion: try requiredString(h.gtfs_realtime_version, "gtfs_realtime_version"),
            incrementality: optionalEnum(h.has_incrementality, h.incrementality),
            timestamp: optionalValue(h.has_timestamp, h.timestamp),
            feedVersion: optionalString(h.feed_version)
        )
    }

    /// Decodes every entity; broken parts are left out and described in `problems`.
    static func entities(
        _ count: Int, _ elements: UnsafePointer<UnsafeMutablePointer<TransitRealtime__FeedEntity>?>?,
        problems: inout [EntityProblem]
    ) -> [FeedEntity] {
        guard count > 0, let elements else { return [] }
        var out: [FeedEntity] = []
        out.reserveCapacity(count)
        var seenIds = Set<String>(minimumCapacity: count)
        for index in 0..<count {
            guard let element = elements[index] else { continue }
            if let entity = entity(element.pointee, index: index, seenIds: &seenIds, problems: &problems) {
                out.append(entity)
            }
        }
        return out
    }

    private static func entity(
        _ e: borrowing TransitRealtime__FeedEntity, index: Int, seenIds: inout Set<String>,
        problems: inout [EntityProblem]
    ) -> FeedEntity? {
        guard let cId = e.id else {
            problems.append(
                EntityProblem(
                    index: index, entityId: nil, field: "id", reason: "missing required field", dropped: "entity"))
            return nil
        }
        let id = String(cString: cId)
        guard seenIds.insert(id).inserted else {
            problems.append(duplicateProblem(index: index, id: id))
            return nil
        }
        return content(e, id: id, index: index, problems: &problems)
    }

    static func duplicateProblem(index: Int, id: String) -> EntityProblem {
        EntityProblem(
            index: index, entityId: id, field: "id", reason: "duplicate entity id (the first one is kept)",
            dropped: "entity")
    }

    /// An entity whose id is known (and not a duplicate): its payloads, broken ones left out.
    static func content(
        _ e: borrowing TransitRealtime__FeedEntity, id: String, index: Int, problems: inout [EntityProblem]
    ) -> FeedEntity {
        var entity = FeedEntity(id: id, isDeleted: e.has_is_deleted != 0 ? e.is_deleted != 0 : nil)
        entity.tripUpdate = part(e.trip_update, "trip_update", index: index, id: id, problems: &problems, tripUpdate)
        entity.vehicle = part(e.vehicle, "vehicle", index: index, id: id, problems: &problems, vehiclePosition)
        entity.alert = part(e.alert, "alert", index: index, id: id, problems: &problems, alert)
        // The experimental detour entities; most feeds have none, so the common case checks three pointers.
        if e.shape != nil { entity.shape = part(e.shape, "shape", index: index, id: id, problems: &problems, shape) }
        if e.stop != nil { entity.stop = part(e.stop, "stop", index: index, id: id, problems: &problems, stop) }
        if e.trip_modifications != nil {
            entity.tripModifications = part(
                e.trip_modifications, "trip_modifications", index: index, id: id, problems: &problems,
                tripModifications)
        }
        return entity
    }

    /// One payload of an entity, or nil (with a problem recorded) when it breaks the spec.
    @inline(__always)
    private static func part<M, R>(
        _ message: UnsafePointer<M>?, _ field: StaticString, index: Int, id: String,
        problems: inout [EntityProblem], _ decode: (borrowing M) throws(ProtoDecodeError) -> R
    ) -> R? {
        do {
            return try optionalMessage(message, field, decode)
        } catch {
            problems.append(
                EntityProblem(
                    index: index, entityId: id, field: error.field, reason: reason(error), dropped: "\(field)"))
            return nil
        }
    }

    private static func reason(_ error: ProtoDecodeError) -> String {
        switch error.reason {
        case .missingField: "missing required field"
        case .unknownEnumValue(let value): "unknown enum value \(value)"
        case .malformed: "malformed"
        }
    }

    // MARK: trip updates

    static func tripDescriptor(_ t: borrowing TransitRealtime__TripDescriptor) -> TripDescriptor {
        TripDescriptor(
            tripId: optionalString(t.trip_id),
            routeId: optionalString(t.route_id),
            directionId: optionalValue(t.has_direction_id, t.direction_id),
            startTime: optionalString(t.start_time),
            startDate: optionalString(t.start_date),
            scheduleRelationship: optionalEnum(t.has_schedule_relationship, t.schedule_relationship),
            modifiedTrip: t.modified_trip.map { s in
                ModifiedTripSelector(
                    modificationsId: optionalString(s.pointee.modifications_id),
                    affectedTripId: optionalString(s.pointee.affected_trip_id),
                    startTime: optionalString(s.pointee.start_time),
                    startDate: optionalString(s.pointee.start_date))
            }
        )
    }

    static func tripUpdate(_ u: borrowing TransitRealtime__TripUpdate) throws(ProtoDecodeError) -> TripUpdate {
        TripUpdate(
            trip: try requiredMessage(u.trip, "trip", tripDescriptor),
            vehicle: u.vehicle.map { vehicleDescriptor($0.pointee) },
            stopTimeUpdates: try stopTimeUpdates(u.n_stop_time_update, u.stop_time_update),
            timestamp: optionalValue(u.has_timestamp, u.timestamp),
            delay: optionalValue(u.has_delay, u.delay),
            tripProperties: u.trip_properties.map { p in
                TripProperties(
                    tripId: optionalString(p.pointee.trip_id),
                    startDate: optionalString(p.pointee.start_date),
                    startTime: optionalString(p.pointee.start_time),
                    shapeId: optionalString(p.pointee.shape_id),
                    tripHeadsign: optionalString(p.pointee.trip_headsign),
                    tripShortName: optionalString(p.pointee.trip_short_name))
            }
        )
    }

    /// The stop time updates of a trip update, decoded straight into the array's storage: returning each one
    /// by value made the compiler copy it out and destroy the original (~100,000 times per feed).
    static func stopTimeUpdates(
        _ count: Int, _ elements: UnsafePointer<UnsafeMutablePointer<TransitRealtime__TripUpdate__StopTimeUpdate>?>?
    ) throws(ProtoDecodeError) -> [StopTimeUpdate] {
        guard count > 0, let elements else { return [] }
        var missing: Int?
        let out = [StopTimeUpdate](unsafeUninitializedCapacity: count) { buffer, initialized in
            for i in 0..<count {
                // protobuf-c never leaves a NULL element after a successful unpack; stay defensive anyway.
                guard let element = elements[i] else {
                    missing = i
                    return
                }
                let u = buffer.baseAddress! + i
                u.initialize(to: StopTimeUpdate())
                initialized = i + 1
                stopTimeUpdate(element.pointee, into: u)
            }
        }
        if let missing {
            throw ProtoDecodeError(message: "", field: "stop_time_update[\(missing)]", reason: .missingField)
        }
        return out
    }

    @inline(__always)
    private static func stopTimeUpdate(
        _ s: borrowing TransitRealtime__TripUpdate__StopTimeUpdate, into u: UnsafeMutablePointer<StopTimeUpdate>
    ) {
        if s.has_stop_sequence != 0 { u.pointee.stopSequence = s.stop_sequence }
        if let id = s.stop_id { u.pointee.stopId = String(cString: id) }
        if let e = s.arrival { u.pointee.arrival = stopTimeEvent(e.pointee) }
        if let e = s.departure { u.pointee.departure = stopTimeEvent(e.pointee) }
        u.pointee.departureOccupancyStatus = optionalEnum(
            s.has_departure_occupancy_status, s.departure_occupancy_status)
        u.pointee.scheduleRelationship = optionalEnum(s.has_schedule_relationship, s.schedule_relationship)
        if let p = s.stop_time_properties {
            u.pointee.stopTimeProperties = StopTimeProperties(
                assignedStopId: optionalString(p.pointee.assigned_stop_id),
                stopHeadsign: optionalString(p.pointee.stop_headsign),
                pickupType: optionalEnum(p.pointee.has_pickup_type, p.pointee.pickup_type),
                dropOffType: optionalEnum(p.pointee.has_drop_off_type, p.pointee.drop_off_type))
        }
        if s.base.n_unknown_fields != 0 { TfnswExtensions.read(s.base, into: u) }
    }

    @inline(__always)
    static func stopTimeEvent(_ e: borrowing TransitRealtime__TripUpdate__StopTimeEvent) -> StopTimeEvent {
        StopTimeEvent(
            delay: optionalValue(e.has_delay, e.delay),
            time: optionalValue(e.has_time, e.time),
            uncertainty: optionalValue(e.has_uncertainty, e.uncertainty),
            scheduledTime: optionalValue(e.has_scheduled_time, e.scheduled_time)
        )
    }

    // MARK: vehicles

    static func vehicleDescriptor(_ v: borrowing TransitRealtime__VehicleDescriptor) -> VehicleDescriptor {
        VehicleDescriptor(
            id: optionalString(v.id),
            label: optionalString(v.label),
            licensePlate: optionalString(v.license_plate),
            wheelchairAccessible: optionalEnum(v.has_wheelchair_accessible, v.wheelchair_accessible),
            tfnsw: TfnswExtensions.vehicleDescriptor(v.base)
        )
    }

    static func vehiclePosition(_ v: borrowing TransitRealtime__VehiclePosition) throws(ProtoDecodeError)
        -> VehiclePosition
    {
        VehiclePosition(
            trip: v.trip.map { tripDescriptor($0.pointee) },
            vehicle: v.vehicle.map { vehicleDescriptor($0.pointee) },
            position: try optionalMessage(v.position, "position", position),
            currentStopSequence: optionalValue(v.has_current_stop_sequence, v.current_stop_sequence),
            stopId: optionalString(v.stop_id),
            currentStatus: optionalEnum(v.has_current_status, v.current_status),
            timestamp: optionalValue(v.has_timestamp, v.timestamp),
            congestionLevel: optionalEnum(v.has_congestion_level, v.congestion_level),
            occupancyStatus: optionalEnum(v.has_occupancy_status, v.occupancy_status),
            occupancyPercentage: optionalValue(v.has_occupancy_percentage, v.occupancy_percentage),
            multiCarriageDetails: try repeatedMessages(
                v.n_multi_carriage_details, v.multi_carriage_details, "multi_carriage_details"
            ) { c in
                CarriageDetails(
                    id: optionalString(c.id),
                    label: optionalString(c.label),
                    occupancyStatus: optionalEnum(c.has_occupancy_status, c.occupancy_status),
                    occupancyPercentage: optionalValue(c.has_occupancy_percentage, c.occupancy_percentage),
                    carriageSequence: optionalValue(c.has_carriage_sequence, c.carriage_sequence))
            },
            tfnswCarriages: TfnswExtensions.consist(v.base)
        )
    }

    static func position(_ p: borrowing TransitRealtime__Position) throws(ProtoDecodeError) -> Position {
        Position(
            latitude: try requiredValue(p.has_latitude, p.latitude, "latitude"),
            longitude: try requiredValue(p.has_longitude, p.longitude, "longitude"),
            bearing: optionalValue(p.has_bearing, p.bearing),
            odometer: optionalValue(p.has_odometer, p.odometer),
            speed: optionalValue(p.has_speed, p.speed)
        )
    }

    // MARK: alerts

    static func alert(_ a: borrowing TransitRealtime__Alert) throws(ProtoDecodeError) -> Alert {
        let informed = try repeatedMessages(a.n_informed_entity, a.informed_entity, "informed_entity", entitySelector)
        // The reference requires at least one: an alert about nothing cannot be shown anywhere.
        guard !informed.isEmpty else { throw .missing("informed_entity") }
        return Alert(
            activePeriods: try repeatedMessages(a.n_active_period, a.active_period, "active_period", timeRange),
            communicationPeriods: try repeatedMessages(
                a.n_communication_period, a.communication_period, "communication_period", timeRange),
            impactPeriods: try repeatedMessages(a.n_impact_period, a.impact_period, "impact_period", timeRange),
            informedEntities: informed,
            cause: optionalEnum(a.has_cause, a.cause),
            effect: optionalEnum(a.has_effect, a.effect),
            url: try optionalMessage(a.url, "url", translatedString),
            headerText: try optionalMessage(a.header_text, "header_text", translatedString),
            descriptionText: try optionalMessage(a.description_text, "description_text", translatedString),
            ttsHeaderText: try optionalMessage(a.tts_header_text, "tts_header_text", translatedString),
            ttsDescriptionText: try optionalMessage(a.tts_description_text, "tts_description_text", translatedString),
            severityLevel: optionalEnum(a.has_severity_level, a.severity_level),
            image: try optionalMessage(a.image, "image", translatedImage),
            imageAlternativeText: try optionalMessage(
                a.image_alternative_text, "image_alternative_text", translatedString),
            causeDetail: try optionalMessage(a.cause_detail, "cause_detail", translatedString),
            effectDetail: try optionalMessage(a.effect_detail, "effect_detail", translatedString)
        )
    }

    static func timeRange(_ r: borrowing TransitRealtime__TimeRange) -> TimeRange {
        TimeRange(start: optionalValue(r.has_start, r.start), end: optionalValue(r.has_end, r.end))
    }

    static func entitySelector(_ s: borrowing TransitRealtime__EntitySelector) -> EntitySelector {
        EntitySelector(
            agencyId: optionalString(s.agency_id),
            routeId: optionalString(s.route_id),
            routeType: optionalValue(s.has_route_type, s.route_type),
            trip: s.trip.map { tripDescriptor($0.pointee) },
            stopId: optionalString(s.stop_id),
            directionId: optionalValue(s.has_direction_id, s.direction_id)
        )
    }

    static func translatedString(_ t: borrowing TransitRealtime__TranslatedString) throws(ProtoDecodeError)
        -> TranslatedText
    {
        TranslatedText(
            try repeatedMessages(t.n_translation, t.translation, "translation") {
                (x) throws(ProtoDecodeError) in
                TranslatedText.Translation(
                    text: try requiredString(x.text, "text"), language: optionalString(x.language))
            })
    }

    static func translatedImage(_ t: borrowing TransitRealtime__TranslatedImage) throws(ProtoDecodeError)
        -> TranslatedImage
    {
        TranslatedImage(
            localizedImages: try repeatedMessages(t.n_localized_image, t.localized_image, "localized_image") {
                (x) throws(ProtoDecodeError) in
                TranslatedImage.LocalizedImage(
                    url: try requiredString(x.url, "url"),
                    mediaType: try requiredString(x.media_type, "media_type"),
                    language: optionalString(x.language))
            })
    }

    // MARK: trip modifications, shapes and stops (experimental)

    static func tripModifications(_ t: borrowing TransitRealtime__TripModifications) throws(ProtoDecodeError)
        -> TripModifications
    {
        let selected = try repeatedMessages(t.n_selected_trips, t.selected_trips, "selected_trips") {
            (s) throws(ProtoDecodeError) in
            let ids = repeatedStrings(s.n_trip_ids, s.trip_ids)
            guard !ids.isEmpty else { throw .missing("trip_ids") }
            return TripModifications.SelectedTrips(tripIds: ids, shapeId: optionalString(s.shape_id))
        }
        // The reference requires at least one of each: without them the entity modifies nothing.
        guard !selected.isEmpty else { throw .missing("selected_trips") }
        let dates = repeatedStrings(t.n_service_dates, t.service_dates)
        guard !dates.isEmpty else { throw .missing("service_dates") }
        let modifications = try repeatedMessages(t.n_modifications, t.modifications, "modifications", modification)
        guard !modifications.isEmpty else { throw .missing("modifications") }
        return TripModifications(
            selectedTrips: selected, startTimes: repeatedStrings(t.n_start_times, t.start_times), serviceDates: dates,
            modifications: modifications)
    }

    static func modification(_ m: borrowing TransitRealtime__TripModifications__Modification)
        throws(ProtoDecodeError) -> TripModifications.Modification
    {
        TripModifications.Modification(
            startStopSelector: try requiredMessage(m.start_stop_selector, "start_stop_selector", stopSelector),
            endStopSelector: try optionalMessage(m.end_stop_selector, "end_stop_selector", stopSelector),
            propagatedModificationDelay: optionalValue(
                m.has_propagated_modification_delay, m.propagated_modification_delay),
            replacementStops: try repeatedMessages(m.n_replacement_stops, m.replacement_stops, "replacement_stops") {
                (r) throws(ProtoDecodeError) in
                ReplacementStop(
                    travelTimeToStop: optionalValue(r.has_travel_time_to_stop, r.travel_time_to_stop),
                    stopId: try requiredString(r.stop_id, "stop_id"))
            },
            serviceAlertId: optionalString(m.service_alert_id),
            lastModifiedTime: optionalValue(m.has_last_modified_time, m.last_modified_time)
        )
    }

    static func stopSelector(_ s: borrowing TransitRealtime__StopSelector) throws(ProtoDecodeError) -> StopSelector {
        let selector = StopSelector(
            stopSequence: optionalValue(s.has_stop_sequence, s.stop_sequence), stopId: optionalString(s.stop_id))
        // A selector must name its stop one way or the other.
        guard selector.stopSequence != nil || selector.stopId != nil else { throw .missing("stop_sequence") }
        return selector
    }

    static func shape(_ s: borrowing TransitRealtime__Shape) throws(ProtoDecodeError) -> RealtimeShape {
        RealtimeShape(
            shapeId: try requiredString(s.shape_id, "shape_id"),
            encodedPolyline: try requiredString(s.encoded_polyline, "encoded_polyline"))
    }

    static func stop(_ s: borrowing TransitRealtime__Stop) throws(ProtoDecodeError) -> RealtimeStop {
        RealtimeStop(
            stopId: try requiredString(s.stop_id, "stop_id"),
            stopCode: try optionalMessage(s.stop_code, "stop_code", translatedString),
            stopName: try optionalMessage(s.stop_name, "stop_name", translatedString),
            ttsStopName: try optionalMessage(s.tts_stop_name, "tts_stop_name", translatedString),
            stopDesc: try optionalMessage(s.stop_desc, "stop_desc", translatedString),
            stopLat: optionalValue(s.has_stop_lat, s.stop_lat),
            stopLon: optionalValue(s.has_stop_lon, s.stop_lon),
            zoneId: optionalString(s.zone_id),
            stopUrl: try optionalMessage(s.stop_url, "stop_url", translatedString),
            parentStation: optionalString(s.parent_station),
            stopTimezone: optionalString(s.stop_timezone),
            wheelchairBoarding: optionalEnum(s.has_wheelchair_boarding, s.wheelchair_boarding),
            levelId: optionalString(s.level_id),
            platformCode: try optionalMessage(s.platform_code, "platform_code", translatedString)
        )
    }
}
