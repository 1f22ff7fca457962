// protobuf-c structs of protocol/realtime.proto -> realtime TransitModel values. Fields the encoder always
// sends are required (a missing one names its path); optional Swift properties read absent as nil.
import TransitModel
import TransitProtoC

extension TripInstanceKey {
    init(proto m: borrowing Transit__TripInstance) throws(ProtoDecodeError) {
        self.init(
            tripId: try requiredString(m.trip_id, "trip_id"),
            serviceDate: try requiredValue(m.has_service_date, m.service_date, "service_date"),
            startSecs: optionalValue(m.has_start_secs, m.start_secs))
    }
}

extension LiveStop {
    init(proto m: borrowing Transit__StopPrediction) throws(ProtoDecodeError) {
        self.init(
            stopId: try requiredString(m.stop_id, "stop_id"),
            stopSequence: try requiredValue(m.has_stop_sequence, m.stop_sequence, "stop_sequence"),
            assignedStopId: optionalString(m.assigned_stop_id),
            scheduledArrival: optionalValue(m.has_scheduled_arrival_unix, m.scheduled_arrival_unix),
            scheduledDeparture: optionalValue(m.has_scheduled_departure_unix, m.scheduled_departure_unix),
            predictedArrival: optionalValue(m.has_predicted_arrival_unix, m.predicted_arrival_unix),
            predictedDeparture: optionalValue(m.has_predicted_departure_unix, m.predicted_departure_unix),
            arrivalDelay: optionalValue(m.has_arrival_delay, m.arrival_delay),
            departureDelay: optionalValue(m.has_departure_delay, m.departure_delay),
            status: try LiveStopStatus(proto: try requiredValue(m.has_status, m.status, "status"), field: "status"),
            predictionSource: try LivePredictionSource(
                proto: m.has_prediction_source != 0
                    ? m.prediction_source : TRANSIT__PREDICTION_SOURCE__PREDICTION_SCHEDULE,
                field: "prediction_source"),
            departureOccupancy: optionalString(m.departure_occupancy),
            stopHeadsign: optionalString(m.stop_headsign),
            carriages: try repeatedMessages(m.n_carriages, m.carriages, "carriages", LiveCarriage.init(proto:)))
        assignedPlatform = optionalString(m.assigned_platform)
        pickupType = optionalValue(m.has_pickup_type, m.pickup_type)
        dropOffType = optionalValue(m.has_drop_off_type, m.drop_off_type)
    }
}

extension LiveCarriage {
    init(proto m: borrowing Transit__Carriage) throws(ProtoDecodeError) {
        self.init(
            position: optionalValue(m.has_position, m.position),
            name: optionalString(m.name),
            occupancy: optionalString(m.occupancy),
            departureOccupancy: optionalString(m.departure_occupancy),
            quiet: optionalValue(m.has_quiet, m.quiet).map { $0 != 0 },
            toilet: optionalString(m.toilet),
            luggageRack: optionalValue(m.has_luggage_rack, m.luggage_rack).map { $0 != 0 })
    }
}

extension LiveVehicleFeatures {
    init(proto m: borrowing Transit__VehicleFeatures) throws(ProtoDecodeError) {
        self.init(
            airConditioned: optionalValue(m.has_air_conditioned, m.air_conditioned).map { $0 != 0 },
            wheelchairAccessible: optionalValue(m.has_wheelchair_accessible, m.wheelchair_accessible).map { $0 != 0 },
            model: optionalString(m.model),
            performingPriorTrip: optionalValue(m.has_performing_prior_trip, m.performing_prior_trip).map { $0 != 0 },
            specialAttributes: optionalValue(m.has_special_attributes, m.special_attributes))
    }
}

extension LiveTrip {
    init(proto m: borrowing Transit__TripPrediction) throws(ProtoDecodeError) {
        self.init(
            instance: try requiredMessage(m.trip, "trip", TripInstanceKey.init(proto:)),
            relationship: try LiveTripRelationship(
                proto: try requiredValue(m.has_relationship, m.relationship, "relationship"), field: "relationship"),
            staticTripId: optionalString(m.static_trip_id),
            routeId: optionalString(m.route_id),
            directionId: optionalValue(m.has_direction_id, m.direction_id).map { Int($0) },
            vehicleId: optionalString(m.vehicle_id),
            vehicleLabel: optionalString(m.vehicle_label),
            timestamp: optionalValue(m.has_timestamp, m.timestamp),
            tripDelay: optionalValue(m.has_trip_delay, m.trip_delay),
            stops: try repeatedMessages(m.n_stops, m.stops, "stops", LiveStop.init(proto:)),
            source: try requiredString(m.source, "source"),
            entityId: optionalString(m.entity_id),
            tripHeadsign: optionalString(m.trip_headsign),
            modificationsId: optionalString(m.modifications_id))
    }
}

extension LiveDetour {
    init(proto m: borrowing Transit__TripDetour) throws(ProtoDecodeError) {
        self.init(
            key: try requiredString(m.key, "key"),
            source: try requiredString(m.source, "source"),
            modificationsId: try requiredString(m.modifications_id, "modifications_id"),
            tripId: try requiredString(m.trip_id, "trip_id"),
            serviceDates: repeatedValues(m.n_service_dates, m.service_dates),
            startSecs: repeatedValues(m.n_start_secs, m.start_secs),
            tripStartSecs: optionalValue(m.has_trip_start_secs, m.trip_start_secs),
            shapeId: optionalString(m.shape_id),
            shapePolyline: optionalString(m.shape_polyline),
            alertIds: repeatedStrings(m.n_alert_ids, m.alert_ids),
            stops: try repeatedMessages(m.n_stops, m.stops, "stops", LiveDetourStop.init(proto:)))
    }
}

extension LiveDetourStop {
    init(proto m: borrowing Transit__DetourStop) throws(ProtoDecodeError) {
        let role: Role
        switch try requiredValue(m.has_role, m.role, "role") {
        case TRANSIT__DETOUR_STOP_ROLE__DETOUR_KEPT: role = .kept
        case TRANSIT__DETOUR_STOP_ROLE__DETOUR_DETOURED: role = .detoured
        case TRANSIT__DETOUR_STOP_ROLE__DETOUR_REPLACEMENT: role = .replacement
        default: throw .missing("role")
        }
        self.init(
            stopId: try requiredString(m.stop_id, "stop_id"), role: role,
            originalSequence: optionalValue(m.has_original_sequence, m.original_sequence),
            stopSequence: optionalValue(m.has_stop_sequence, m.stop_sequence),
            arrivalOffset: try requiredValue(m.has_arrival_offset, m.arrival_offset, "arrival_offset"),
            departureOffset: try requiredValue(m.has_departure_offset, m.departure_offset, "departure_offset"),
            propagatedDelay: optionalValue(m.has_propagated_delay, m.propagated_delay) ?? 0,
            lat: optionalValue(m.has_lat, m.lat), lon: optionalValue(m.has_lon, m.lon))
    }
}

extension LivePosition {
    init(proto m: borrowing Transit__Position) throws(ProtoDecodeError) {
        self.init(
            lat: try requiredValue(m.has_lat, m.lat, "lat"),
            lon: try requiredValue(m.has_lon, m.lon, "lon"),
            bearing: optionalValue(m.has_bearing, m.bearing),
            speed: optionalValue(m.has_speed, m.speed),
            odometer: optionalValue(m.has_odometer, m.odometer))
    }
}

extension LiveVehicle {
    init(proto m: borrowing Transit__VehicleState) throws(ProtoDecodeError) {
        self.init(
            key: try requiredString(m.key, "key"),
            source: try requiredString(m.source, "source"),
            entityId: try requiredString(m.entity_id, "entity_id"),
            trip: try optionalMessage(m.trip, "trip", TripInstanceKey.init(proto:)),
            tripId: optionalString(m.trip_id),
            routeId: optionalString(m.route_id),
            directionId: optionalValue(m.has_direction_id, m.direction_id).map { Int($0) },
            startTime: optionalString(m.start_time),
            startDate: optionalString(m.start_date),
            tripRelationship: optionalString(m.trip_relationship),
            vehicleId: optionalString(m.vehicle_id),
            label: optionalString(m.label),
            licensePlate: optionalString(m.license_plate),
            position: try optionalMessage(m.position, "position", LivePosition.init(proto:)),
            currentStopSequence: optionalValue(m.has_current_stop_sequence, m.current_stop_sequence),
            stopId: optionalString(m.stop_id),
            currentStatus: optionalString(m.current_status),
            timestamp: optionalValue(m.has_timestamp, m.timestamp),
            congestionLevel: optionalString(m.congestion_level),
            occupancyStatus: optionalString(m.occupancy_status),
            occupancyPercentage: optionalValue(m.has_occupancy_percentage, m.occupancy_percentage),
            wheelchairAccessible: optionalString(m.wheelchair_accessible),
            carriages: try repeatedMessages(m.n_carriages, m.carriages, "carriages", LiveCarriage.init(proto:)),
            features: try optionalMessage(m.features, "features", LiveVehicleFeatures.init(proto:)))
    }
}

extension TranslatedText {
    init(proto m: borrowing Transit__TranslatedText) throws(ProtoDecodeError) {
        self.init(
            try repeatedMessages(m.n_translations, m.translations, "translations") { (t) throws(ProtoDecodeError) in
                Translation(text: try requiredString(t.text, "text"), language: optionalString(t.language))
            })
    }
}

extension TranslatedImage {
    init(proto m: borrowing Transit__TranslatedImage) throws(ProtoDecodeError) {
        self.init(
            localizedImages: try repeatedMessages(m.n_localized_images, m.localized_images, "localized_images") {
                (i) throws(ProtoDecodeError) in
                LocalizedImage(
                    url: try requiredString(i.url, "url"), mediaType: try requiredString(i.media_type, "media_type"),
                    language: optionalString(i.language))
            })
    }
}

extension LivePeriod {
    init(proto m: borrowing Transit__TimeRange) throws(ProtoDecodeError) {
        self.init(start: optionalValue(m.has_start, m.start), end: optionalValue(m.has_end, m.end))
    }
}

extension LiveInformedEntity {
    init(proto m: borrowing Transit__InformedEntity) throws(ProtoDecodeError) {
        self.init(
            agencyId: optionalString(m.agency_id),
            routeId: optionalString(m.route_id),
            routeType: optionalValue(m.has_route_type, m.route_type),
            directionId: optionalValue(m.has_direction_id, m.direction_id),
            tripId: optionalString(m.trip_id),
            tripStartDate: optionalString(m.trip_start_date),
            tripStartTime: optionalString(m.trip_start_time),
            stopId: optionalString(m.stop_id))
    }
}

extension LiveAlert {
    init(proto m: borrowing Transit__AlertState) throws(ProtoDecodeError) {
        self.init(
            key: try requiredString(m.key, "key"),
            source: try requiredString(m.source, "source"),
            entityId: try requiredString(m.entity_id, "entity_id"),
            activePeriods: try repeatedMessages(
                m.n_active_periods, m.active_periods, "active_periods", LivePeriod.init(proto:)),
            communicationPeriods: try repeatedMessages(
                m.n_communication_periods, m.communication_periods, "communication_periods", LivePeriod.init(proto:)),
            impactPeriods: try repeatedMessages(
                m.n_impact_periods, m.impact_periods, "impact_periods", LivePeriod.init(proto:)),
            informedEntities: try repeatedMessages(
                m.n_informed_entities, m.informed_entities, "informed_entities", LiveInformedEntity.init(proto:)),
            cause: optionalString(m.cause) ?? "UNKNOWN_CAUSE",
            effect: optionalString(m.effect) ?? "UNKNOWN_EFFECT",
            severity: optionalString(m.severity) ?? "UNKNOWN_SEVERITY",
            headerText: try optionalMessage(m.header_text, "header_text", TranslatedText.init(proto:)),
            descriptionText: try optionalMessage(m.description_text, "description_text", TranslatedText.init(proto:)),
            url: try optionalMessage(m.url, "url", TranslatedText.init(proto:)),
            ttsHeaderText: try optionalMessage(m.tts_header_text, "tts_header_text", TranslatedText.init(proto:)),
            ttsDescriptionText: try optionalMessage(
                m.tts_description_text, "tts_description_text", TranslatedText.init(proto:)),
            causeDetail: try optionalMessage(m.cause_detail, "cause_detail", TranslatedText.init(proto:)),
            effectDetail: try optionalMessage(m.effect_detail, "effect_detail", TranslatedText.init(proto:)),
            image: try optionalMessage(m.image, "image", TranslatedImage.init(proto:)),
            imageAlternativeText: try optionalMessage(
                m.image_alternative_text, "image_alternative_text", TranslatedText.init(proto:)))
    }
}

extension LiveSourceStatus {
    init(proto m: borrowing Transit__SourceStatus) throws(ProtoDecodeError) {
        var kinds: [LiveSourceKind] = []
        for raw in repeatedValues(m.n_detected_kinds, m.detected_kinds) {
            kinds.append(try LiveSourceKind(proto: raw, field: "detected_kinds"))
        }
        var drops: [String: UInt64] = [:]
        for drop in try repeatedMessages(
            m.n_drops, m.drops, "drops",
            { (d) throws(ProtoDecodeError) in
                (try requiredString(d.reason, "reason"), try requiredValue(d.has_count, d.count, "count"))
            })
        {
            drops[drop.0, default: 0] += drop.1
        }
        self.init(
            name: try requiredString(m.name, "name"),
            kind: try LiveSourceKind(proto: try requiredValue(m.has_kind, m.kind, "kind"), field: "kind"),
            detectedKinds: kinds,
            feedTimestamp: optionalValue(m.has_feed_timestamp, m.feed_timestamp),
            lastFetchUnix: optionalValue(m.has_last_fetch_unix, m.last_fetch_unix),
            lastSuccessUnix: optionalValue(m.has_last_success_unix, m.last_success_unix),
            stale: try requiredBool(m.has_stale, m.stale, "stale"),
            staleAfterSecs: try requiredValue(m.has_stale_after_s, m.stale_after_s, "stale_after_s"),
            updatesApplied: optionalValue(m.has_updates_applied, m.updates_applied) ?? 0,
            notModified: optionalValue(m.has_not_modified, m.not_modified) ?? 0,
            olderIgnored: optionalValue(m.has_older_ignored, m.older_ignored) ?? 0,
            errors: optionalValue(m.has_errors, m.errors) ?? 0,
            lastError: optionalString(m.last_error),
            lastErrorUnix: optionalValue(m.has_last_error_unix, m.last_error_unix),
            entities: optionalValue(m.has_entities, m.entities) ?? 0,
            drops: drops,
            lastDrop: optionalString(m.last_drop),
            statusUnix: optionalValue(m.has_status_unix, m.status_unix),
            skippedFields: try repeatedMessages(m.n_skipped_fields, m.skipped_fields, "skipped_fields") {
                (f) throws(ProtoDecodeError) in
                LiveSkippedField(
                    path: try requiredString(f.path, "path"), count: try requiredValue(f.has_count, f.count, "count"),
                    first: optionalString(f.first) ?? "")
            })
        stopMismatches = optionalValue(m.has_stop_mismatches, m.stop_mismatches) ?? 0
        firstStopMismatch = optionalString(m.first_stop_mismatch)
        consecutiveErrors = optionalValue(m.has_consecutive_errors, m.consecutive_errors) ?? 0
        recoveredUnix = optionalValue(m.has_recovered_unix, m.recovered_unix)
        if let match = m.match { self.match = LiveTimetableMatch(proto: match.pointee) }
        feedVersion = optionalString(m.feed_version)
        idPrefix = optionalString(m.id_prefix) ?? ""
    }
}

extension LiveTimetableMatch {
    init(proto m: borrowing Transit__TimetableMatch) {
        func count(_ c: UnsafeMutablePointer<Transit__MatchCount>?) -> LiveMatchCount {
            guard let c else { return LiveMatchCount() }
            return LiveMatchCount(
                considered: optionalValue(c.pointee.has_considered, c.pointee.considered) ?? 0,
                matched: optionalValue(c.pointee.has_matched, c.pointee.matched) ?? 0)
        }
        self.init(
            tripUpdates: count(m.trip_updates), vehicles: count(m.vehicles),
            ratePermille: optionalValue(m.has_rate_permille, m.rate_permille),
            medianPermille: optionalValue(m.has_median_permille, m.median_permille),
            samples: optionalValue(m.has_samples, m.samples) ?? 0,
            minPermille: optionalValue(m.has_min_permille, m.min_permille) ?? 500,
            mismatch: (optionalValue(m.has_mismatch, m.mismatch) ?? 0) != 0,
            mismatchSinceUnix: optionalValue(m.has_mismatch_since_unix, m.mismatch_since_unix))
    }
}

// MARK: batches

extension LiveTripBatch {
    init(proto m: borrowing Transit__TripUpdatesBatch) throws(ProtoDecodeError) {
        self.init(
            trips: try repeatedMessages(m.n_trips, m.trips, "trips", LiveTrip.init(proto:)),
            removed: try repeatedMessages(m.n_removed, m.removed, "removed", TripInstanceKey.init(proto:)))
    }
}

extension LiveVehicleBatch {
    init(proto m: borrowing Transit__VehiclesBatch) throws(ProtoDecodeError) {
        self.init(
            vehicles: try repeatedMessages(m.n_vehicles, m.vehicles, "vehicles", LiveVehicle.init(proto:)),
            removed: repeatedStrings(m.n_removed, m.removed))
    }
}

extension LiveDetourBatch {
    init(proto m: borrowing Transit__DetoursBatch) throws(ProtoDecodeError) {
        self.init(
            detours: try repeatedMessages(m.n_detours, m.detours, "detours", LiveDetour.init(proto:)),
            removed: repeatedStrings(m.n_removed, m.removed))
    }
}

extension LiveAlertBatch {
    init(proto m: borrowing Transit__AlertsBatch) throws(ProtoDecodeError) {
        self.init(
            alerts: try repeatedMessages(m.n_alerts, m.alerts, "alerts", LiveAlert.init(proto:)),
            removed: repeatedStrings(m.n_removed, m.removed))
    }
}

func liveSources(proto m: borrowing Transit__SourceStatusList) throws(ProtoDecodeError) -> [LiveSourceStatus] {
    try repeatedMessages(m.n_sources, m.sources, "sources", LiveSourceStatus.init(proto:))
}

extension LiveHeartbeat {
    init(proto m: borrowing Transit__Heartbeat) throws(ProtoDecodeError) {
        var sequences: [RealtimeTopic: UInt64] = [:]
        for entry in try repeatedMessages(
            m.n_topics, m.topics, "topics",
            { (t) throws(ProtoDecodeError) in
                (try RealtimeTopic(wire: t.topic, field: "topic"), try requiredValue(t.has_seq, t.seq, "seq"))
            })
        {
            sequences[entry.0] = entry.1
        }
        self.init(
            sources: try repeatedMessages(m.n_sources, m.sources, "sources", LiveSourceStatus.init(proto:)),
            sequences: sequences,
            databaseVersion: optionalString(m.database_version),
            residentBytes: optionalValue(m.has_rss_bytes, m.rss_bytes),
            leader: try optionalMessage(m.leader, "leader", LiveLeadership.init(proto:)))
    }
}

extension LiveLeadership {
    init(proto m: borrowing Transit__Leadership) throws(ProtoDecodeError) {
        self.init(
            name: optionalString(m.name) ?? "",
            leaseRemainingMs: optionalValue(m.has_lease_remaining_ms, m.lease_remaining_ms),
            etcd: try repeatedMessages(m.n_etcd, m.etcd, "etcd") { (e) throws(ProtoDecodeError) in
                Endpoint(
                    url: optionalString(e.url) ?? "",
                    reachable: optionalValue(e.has_reachable, e.reachable).map { $0 != 0 },
                    lastError: optionalString(e.last_error))
            })
    }
}

extension LiveStopVisit {
    init(proto m: borrowing Transit__StopVisit) throws(ProtoDecodeError) {
        self.init(
            trip: try requiredMessage(m.trip, "trip", TripInstanceKey.init(proto:)),
            relationship: try LiveTripRelationship(
                proto: try requiredValue(m.has_relationship, m.relationship, "relationship"), field: "relationship"),
            routeId: optionalString(m.route_id),
            source: try requiredString(m.source, "source"),
            stop: try requiredMessage(m.stop, "stop", LiveStop.init(proto:)),
            stopIndex: Int(try requiredValue(m.has_stop_index, m.stop_index, "stop_index")),
            isLastStop: try requiredBool(m.has_last_stop, m.last_stop, "last_stop"))
    }
}

extension RealtimeSnapshot {
    init(proto m: borrowing Transit__Snapshot) throws(ProtoDecodeError) {
        let topic = try RealtimeTopic(wire: m.topic, field: "topic")
        let payload: LivePayload
        switch m.state_case {
        case TRANSIT__SNAPSHOT__STATE_TRIP_UPDATES:
            payload = .tripUpdates(try requiredMessage(m.trip_updates, "trip_updates", LiveTripBatch.init(proto:)))
        case TRANSIT__SNAPSHOT__STATE_VEHICLES:
            payload = .vehicles(try requiredMessage(m.vehicles, "vehicles", LiveVehicleBatch.init(proto:)))
        case TRANSIT__SNAPSHOT__STATE_ALERTS:
            payload = .alerts(try requiredMessage(m.alerts, "alerts", LiveAlertBatch.init(proto:)))
        case TRANSIT__SNAPSHOT__STATE_SOURCES:
            payload = .sources(try requiredMessage(m.sources, "sources", liveSources(proto:)))
        case TRANSIT__SNAPSHOT__STATE_DETOURS:
            payload = .detours(try requiredMessage(m.detours, "detours", LiveDetourBatch.init(proto:)))
        default:
            throw .missing("state")
        }
        guard payload.topic == topic else { throw .missing("state") }
        self.init(
            epoch: try requiredValue(m.has_epoch, m.epoch, "epoch"),
            seq: try requiredValue(m.has_seq, m.seq, "seq"),
            payload: payload)
    }
}
