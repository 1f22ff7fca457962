// Realtime TransitModel values -> protobuf-c structs in an arena (protocol/realtime.proto). nil Swift
// optionals are absent on the wire; everything else is always sent.
import TransitModel
import TransitProtoC

extension ProtoArena {
    func proto(_ t: TripInstanceKey) -> UnsafeMutablePointer<Transit__TripInstance> {
        message(transit__trip_instance__init) { m in
            m.trip_id = string(t.tripId)
            (m.has_service_date, m.service_date) = present(t.serviceDate)
            (m.has_start_secs, m.start_secs) = ifPresent(t.startSecs)
        }
    }

    func proto(_ s: LiveStop) -> UnsafeMutablePointer<Transit__StopPrediction> {
        message(transit__stop_prediction__init) { m in
            m.stop_id = string(s.stopId)
            (m.has_stop_sequence, m.stop_sequence) = present(s.stopSequence)
            m.assigned_stop_id = string(s.assignedStopId)
            (m.has_scheduled_arrival_unix, m.scheduled_arrival_unix) = ifPresent(s.scheduledArrival)
            (m.has_scheduled_departure_unix, m.scheduled_departure_unix) = ifPresent(s.scheduledDeparture)
            (m.has_predicted_arrival_unix, m.predicted_arrival_unix) = ifPresent(s.predictedArrival)
            (m.has_predicted_departure_unix, m.predicted_departure_unix) = ifPresent(s.predictedDeparture)
            (m.has_arrival_delay, m.arrival_delay) = ifPresent(s.arrivalDelay)
            (m.has_departure_delay, m.departure_delay) = ifPresent(s.departureDelay)
            (m.has_status, m.status) = present(s.status.proto)
            if let source = s.predictionSource.sent {
                (m.has_prediction_source, m.prediction_source) = (1, source.proto)
            }
            m.departure_occupancy = string(s.departureOccupancy)
            m.stop_headsign = string(s.stopHeadsign)
            m.assigned_platform = string(s.assignedPlatform)
            (m.n_carriages, m.carriages) = messages(s.carriages, proto)
            (m.has_pickup_type, m.pickup_type) = ifPresent(s.pickupType)
            (m.has_drop_off_type, m.drop_off_type) = ifPresent(s.dropOffType)
        }
    }

    func proto(_ c: LiveCarriage) -> UnsafeMutablePointer<Transit__Carriage> {
        message(transit__carriage__init) { m in
            (m.has_position, m.position) = ifPresent(c.position)
            m.name = string(c.name)
            m.occupancy = string(c.occupancy)
            m.departure_occupancy = string(c.departureOccupancy)
            (m.has_quiet, m.quiet) = ifPresent(c.quiet.map(cBool))
            m.toilet = string(c.toilet)
            (m.has_luggage_rack, m.luggage_rack) = ifPresent(c.luggageRack.map(cBool))
        }
    }

    func proto(_ f: LiveVehicleFeatures) -> UnsafeMutablePointer<Transit__VehicleFeatures> {
        message(transit__vehicle_features__init) { m in
            (m.has_air_conditioned, m.air_conditioned) = ifPresent(f.airConditioned.map(cBool))
            (m.has_wheelchair_accessible, m.wheelchair_accessible) = ifPresent(f.wheelchairAccessible.map(cBool))
            m.model = string(f.model)
            (m.has_performing_prior_trip, m.performing_prior_trip) = ifPresent(f.performingPriorTrip.map(cBool))
            (m.has_special_attributes, m.special_attributes) = ifPresent(f.specialAttributes)
        }
    }

    func proto(_ t: LiveTrip) -> UnsafeMutablePointer<Transit__TripPrediction> {
        message(transit__trip_prediction__init) { m in
            m.trip = proto(t.instance)
            (m.has_relationship, m.relationship) = present(t.relationship.proto)
            m.static_trip_id = string(t.staticTripId)
            m.route_id = string(t.routeId)
            (m.has_direction_id, m.direction_id) = ifPresent(t.directionId.map { Int32(clamping: $0) })
            m.vehicle_id = string(t.vehicleId)
            m.vehicle_label = string(t.vehicleLabel)
            (m.has_timestamp, m.timestamp) = ifPresent(t.timestamp)
            (m.has_trip_delay, m.trip_delay) = ifPresent(t.tripDelay)
            (m.n_stops, m.stops) = messages(t.stops, proto)
            m.source = string(t.source)
            m.entity_id = string(t.entityId)
            m.trip_headsign = string(t.tripHeadsign)
            m.modifications_id = string(t.modificationsId)
        }
    }

    func proto(_ p: LivePosition) -> UnsafeMutablePointer<Transit__Position> {
        message(transit__position__init) { m in
            (m.has_lat, m.lat) = present(p.lat)
            (m.has_lon, m.lon) = present(p.lon)
            (m.has_bearing, m.bearing) = ifPresent(p.bearing)
            (m.has_speed, m.speed) = ifPresent(p.speed)
            (m.has_odometer, m.odometer) = ifPresent(p.odometer)
        }
    }

    func proto(_ v: LiveVehicle) -> UnsafeMutablePointer<Transit__VehicleState> {
        message(transit__vehicle_state__init) { m in
            m.key = string(v.key)
            m.source = string(v.source)
            m.entity_id = string(v.entityId)
            m.trip = v.trip.map { proto($0) }
            m.trip_id = string(v.tripId)
            m.route_id = string(v.routeId)
            (m.has_direction_id, m.direction_id) = ifPresent(v.directionId.map { Int32(clamping: $0) })
            m.start_time = string(v.startTime)
            m.start_date = string(v.startDate)
            m.trip_relationship = string(v.tripRelationship)
            m.vehicle_id = string(v.vehicleId)
            m.label = string(v.label)
            m.license_plate = string(v.licensePlate)
            m.position = v.position.map { proto($0) }
            (m.has_current_stop_sequence, m.current_stop_sequence) = ifPresent(v.currentStopSequence)
            m.stop_id = string(v.stopId)
            m.current_status = string(v.currentStatus)
            (m.has_timestamp, m.timestamp) = ifPresent(v.timestamp)
            m.congestion_level = string(v.congestionLevel)
            m.occupancy_status = string(v.occupancyStatus)
            (m.has_occupancy_percentage, m.occupancy_percentage) = ifPresent(v.occupancyPercentage)
            m.wheelchair_accessible = string(v.wheelchairAccessible)
            (m.n_carriages, m.carriages) = messages(v.carriages, proto)
            m.features = v.features.map { proto($0) }
        }
    }

    func proto(_ t: TranslatedText.Translation) -> UnsafeMutablePointer<Transit__Translation> {
        message(transit__translation__init) { m in
            m.text = string(t.text)
            m.language = string(t.language)
        }
    }

    func proto(_ t: TranslatedText?) -> UnsafeMutablePointer<Transit__TranslatedText>? {
        guard let t else { return nil }
        return message(transit__translated_text__init) { m in
            (m.n_translations, m.translations) = messages(t.translations, proto)
        }
    }

    func proto(_ i: TranslatedImage.LocalizedImage) -> UnsafeMutablePointer<Transit__TranslatedImage__LocalizedImage> {
        message(transit__translated_image__localized_image__init) { m in
            m.url = string(i.url)
            m.media_type = string(i.mediaType)
            m.language = string(i.language)
        }
    }

    func proto(_ t: TranslatedImage?) -> UnsafeMutablePointer<Transit__TranslatedImage>? {
        guard let t else { return nil }
        return message(transit__translated_image__init) { m in
            (m.n_localized_images, m.localized_images) = messages(t.localizedImages, proto)
        }
    }

    func proto(_ p: LivePeriod) -> UnsafeMutablePointer<Transit__TimeRange> {
        message(transit__time_range__init) { m in
            (m.has_start, m.start) = ifPresent(p.start)
            (m.has_end, m.end) = ifPresent(p.end)
        }
    }

    func proto(_ e: LiveInformedEntity) -> UnsafeMutablePointer<Transit__InformedEntity> {
        message(transit__informed_entity__init) { m in
            m.agency_id = string(e.agencyId)
            m.route_id = string(e.routeId)
            (m.has_route_type, m.route_type) = ifPresent(e.routeType)
            (m.has_direction_id, m.direction_id) = ifPresent(e.directionId)
            m.trip_id = string(e.tripId)
            m.trip_start_date = string(e.tripStartDate)
            m.trip_start_time = string(e.tripStartTime)
            m.stop_id = string(e.stopId)
        }
    }

    func proto(_ a: LiveAlert) -> UnsafeMutablePointer<Transit__AlertState> {
        message(transit__alert_state__init) { m in
            m.key = string(a.key)
            m.source = string(a.source)
            m.entity_id = string(a.entityId)
            (m.n_active_periods, m.active_periods) = messages(a.activePeriods, proto)
            (m.n_communication_periods, m.communication_periods) = messages(a.communicationPeriods, proto)
            (m.n_impact_periods, m.impact_periods) = messages(a.impactPeriods, proto)
            (m.n_informed_entities, m.informed_entities) = messages(a.informedEntities, proto)
            m.cause = string(a.cause)
            m.effect = string(a.effect)
            m.severity = string(a.severity)
            m.header_text = proto(a.headerText)
            m.description_text = proto(a.descriptionText)
            m.url = proto(a.url)
            m.tts_header_text = proto(a.ttsHeaderText)
            m.tts_description_text = proto(a.ttsDescriptionText)
            m.cause_detail = proto(a.causeDetail)
            m.effect_detail = proto(a.effectDetail)
            m.image = proto(a.image)
            m.image_alternative_text = proto(a.imageAlternativeText)
        }
    }

    func proto(_ s: LiveSourceStatus) -> UnsafeMutablePointer<Transit__SourceStatus> {
        message(transit__source_status__init) { m in
            m.name = string(s.name)
            (m.has_kind, m.kind) = present(s.kind.proto)
            (m.n_detected_kinds, m.detected_kinds) = values(s.detectedKinds.map(\.proto))
            (m.has_feed_timestamp, m.feed_timestamp) = ifPresent(s.feedTimestamp)
            (m.has_last_fetch_unix, m.last_fetch_unix) = ifPresent(s.lastFetchUnix)
            (m.has_last_success_unix, m.last_success_unix) = ifPresent(s.lastSuccessUnix)
            (m.has_stale, m.stale) = present(cBool(s.stale))
            (m.has_stale_after_s, m.stale_after_s) = present(s.staleAfterSecs)
            (m.has_updates_applied, m.updates_applied) = present(s.updatesApplied)
            (m.has_not_modified, m.not_modified) = present(s.notModified)
            (m.has_older_ignored, m.older_ignored) = present(s.olderIgnored)
            (m.has_errors, m.errors) = present(s.errors)
            m.last_error = string(s.lastError)
            (m.has_last_error_unix, m.last_error_unix) = ifPresent(s.lastErrorUnix)
            (m.has_consecutive_errors, m.consecutive_errors) = ifPresent(
                s.consecutiveErrors == 0 ? nil : s.consecutiveErrors)
            (m.has_recovered_unix, m.recovered_unix) = ifPresent(s.recoveredUnix)
            (m.has_entities, m.entities) = present(s.entities)
            (m.n_drops, m.drops) = messages(s.drops.sorted { $0.key < $1.key }) { drop in
                self.message(transit__drop_count__init) { d in
                    d.reason = self.string(drop.key)
                    (d.has_count, d.count) = present(drop.value)
                }
            }
            m.last_drop = string(s.lastDrop)
            (m.has_status_unix, m.status_unix) = ifPresent(s.statusUnix)
            (m.has_stop_mismatches, m.stop_mismatches) = ifPresent(s.stopMismatches == 0 ? nil : s.stopMismatches)
            m.first_stop_mismatch = string(s.firstStopMismatch)
            (m.n_skipped_fields, m.skipped_fields) = messages(s.skippedFields) { skipped in
                self.message(transit__skipped_field_count__init) { f in
                    f.path = self.string(skipped.path)
                    (f.has_count, f.count) = present(skipped.count)
                    f.first = self.string(skipped.first)
                }
            }
            if let match = s.match { m.match = proto(match) }
            m.feed_version = string(s.feedVersion)
            m.id_prefix = string(s.idPrefix.isEmpty ? nil : s.idPrefix)
        }
    }

    func proto(_ t: LiveTimetableMatch) -> UnsafeMutablePointer<Transit__TimetableMatch> {
        message(transit__timetable_match__init) { m in
            m.trip_updates = proto(t.tripUpdates)
            m.vehicles = proto(t.vehicles)
            (m.has_rate_permille, m.rate_permille) = ifPresent(t.ratePermille)
            (m.has_median_permille, m.median_permille) = ifPresent(t.medianPermille)
            (m.has_samples, m.samples) = present(t.samples)
            (m.has_min_permille, m.min_permille) = present(t.minPermille)
            (m.has_mismatch, m.mismatch) = present(cBool(t.mismatch))
            (m.has_mismatch_since_unix, m.mismatch_since_unix) = ifPresent(t.mismatchSinceUnix)
        }
    }

    func proto(_ c: LiveMatchCount) -> UnsafeMutablePointer<Transit__MatchCount> {
        message(transit__match_count__init) { m in
            (m.has_considered, m.considered) = present(c.considered)
            (m.has_matched, m.matched) = present(c.matched)
        }
    }

    // MARK: batches

    func proto(_ b: LiveTripBatch) -> UnsafeMutablePointer<Transit__TripUpdatesBatch> {
        message(transit__trip_updates_batch__init) { m in
            (m.n_trips, m.trips) = messages(b.trips, proto)
            (m.n_removed, m.removed) = messages(b.removed, proto)
        }
    }

    func proto(_ b: LiveVehicleBatch) -> UnsafeMutablePointer<Transit__VehiclesBatch> {
        message(transit__vehicles_batch__init) { m in
            (m.n_vehicles, m.vehicles) = messages(b.vehicles, proto)
            (m.n_removed, m.removed) = strings(b.removed)
        }
    }

    func proto(_ b: LiveDetourBatch) -> UnsafeMutablePointer<Transit__DetoursBatch> {
        message(transit__detours_batch__init) { m in
            (m.n_detours, m.detours) = messages(b.detours, proto)
            (m.n_removed, m.removed) = strings(b.removed)
        }
    }

    func proto(_ d: LiveDetour) -> UnsafeMutablePointer<Transit__TripDetour> {
        message(transit__trip_detour__init) { m in
            m.key = string(d.key)
            m.source = string(d.source)
            m.modifications_id = string(d.modificationsId)
            m.trip_id = string(d.tripId)
            (m.n_service_dates, m.service_dates) = values(d.serviceDates)
            (m.n_start_secs, m.start_secs) = values(d.startSecs)
            (m.has_trip_start_secs, m.trip_start_secs) = ifPresent(d.tripStartSecs)
            m.shape_id = string(d.shapeId)
            m.shape_polyline = string(d.shapePolyline)
            (m.n_alert_ids, m.alert_ids) = strings(d.alertIds)
            (m.n_stops, m.stops) = messages(d.stops, proto)
        }
    }

    func proto(_ s: LiveDetourStop) -> UnsafeMutablePointer<Transit__DetourStop> {
        message(transit__detour_stop__init) { m in
            m.stop_id = string(s.stopId)
            let role: Transit__DetourStopRole
            switch s.role {
            case .kept: role = TRANSIT__DETOUR_STOP_ROLE__DETOUR_KEPT
            case .detoured: role = TRANSIT__DETOUR_STOP_ROLE__DETOUR_DETOURED
            case .replacement: role = TRANSIT__DETOUR_STOP_ROLE__DETOUR_REPLACEMENT
            }
            (m.has_role, m.role) = present(role)
            (m.has_original_sequence, m.original_sequence) = ifPresent(s.originalSequence)
            (m.has_stop_sequence, m.stop_sequence) = ifPresent(s.stopSequence)
            (m.has_arrival_offset, m.arrival_offset) = present(s.arrivalOffset)
            (m.has_departure_offset, m.departure_offset) = present(s.departureOffset)
            if s.propagatedDelay != 0 { (m.has_propagated_delay, m.propagated_delay) = present(s.propagatedDelay) }
            if let lat = s.lat, let lon = s.lon {
                (m.has_lat, m.lat) = present(lat)
                (m.has_lon, m.lon) = present(lon)
            }
        }
    }

    func proto(_ b: LiveAlertBatch) -> UnsafeMutablePointer<Transit__AlertsBatch> {
        message(transit__alerts_batch__init) { m in
            (m.n_alerts, m.alerts) = messages(b.alerts, proto)
            (m.n_removed, m.removed) = strings(b.removed)
        }
    }

    /// `failedSends` and `residentBytes` only in a REP `sources` answer.
    func proto(sources: [LiveSourceStatus], failedSends: UInt64? = nil, residentBytes: UInt64? = nil)
        -> UnsafeMutablePointer<Transit__SourceStatusList>
    {
        message(transit__source_status_list__init) { m in
            (m.n_sources, m.sources) = messages(sources, proto)
            (m.has_failed_sends, m.failed_sends) = ifPresent(failedSends)
            (m.has_rss_bytes, m.rss_bytes) = ifPresent(residentBytes)
        }
    }

    func proto(_ h: LiveHeartbeat) -> UnsafeMutablePointer<Transit__Heartbeat> {
        message(transit__heartbeat__init) { m in
            (m.n_sources, m.sources) = messages(h.sources, proto)
            let topics = RealtimeTopic.allCases.compactMap { t in h.sequences[t].map { (t, $0) } }
            (m.n_topics, m.topics) = messages(topics) { entry in
                self.message(transit__topic_sequence__init) { s in
                    s.topic = self.string(entry.0.rawValue)
                    (s.has_seq, s.seq) = present(entry.1)
                }
            }
            m.database_version = string(h.databaseVersion)
            (m.has_rss_bytes, m.rss_bytes) = ifPresent(h.residentBytes)
            if let leader = h.leader { m.leader = proto(leader) }
        }
    }

    func proto(_ l: LiveLeadership) -> UnsafeMutablePointer<Transit__Leadership> {
        message(transit__leadership__init) { m in
            m.name = string(l.name)
            (m.has_lease_remaining_ms, m.lease_remaining_ms) = ifPresent(l.leaseRemainingMs)
            (m.n_etcd, m.etcd) = messages(l.etcd) { e in
                self.message(transit__etcd_endpoint__init) { p in
                    p.url = self.string(e.url)
                    (p.has_reachable, p.reachable) = ifPresent(e.reachable.map { $0 ? 1 : 0 })
                    p.last_error = self.string(e.lastError)
                }
            }
        }
    }

    func proto(_ v: LiveStopVisit) -> UnsafeMutablePointer<Transit__StopVisit> {
        message(transit__stop_visit__init) { m in
            m.trip = proto(v.trip)
            (m.has_relationship, m.relationship) = present(v.relationship.proto)
            m.route_id = string(v.routeId)
            m.source = string(v.source)
            m.stop = proto(v.stop)
            (m.has_stop_index, m.stop_index) = present(UInt32(clamping: v.stopIndex))
            (m.has_last_stop, m.last_stop) = present(cBool(v.isLastStop))
        }
    }

    func proto(_ s: RealtimeSnapshot) -> UnsafeMutablePointer<Transit__Snapshot> {
        message(transit__snapshot__init) { m in
            (m.has_epoch, m.epoch) = present(s.epoch)
            m.topic = string(s.topic.rawValue)
            (m.has_seq, m.seq) = present(s.seq)
            switch s.payload {
            case .tripUpdates(let b):
                m.state_case = TRANSIT__SNAPSHOT__STATE_TRIP_UPDATES
                m.trip_updates = proto(b)
            case .vehicles(let b):
                m.state_case = TRANSIT__SNAPSHOT__STATE_VEHICLES
                m.vehicles = proto(b)
            case .alerts(let b):
                m.state_case = TRANSIT__SNAPSHOT__STATE_ALERTS
                m.alerts = proto(b)
            case .sources(let list):
                m.state_case = TRANSIT__SNAPSHOT__STATE_SOURCES
                m.sources = proto(sources: list)
            case .detours(let b):
                m.state_case = TRANSIT__SNAPSHOT__STATE_DETOURS
                m.detours = proto(b)
            case .heartbeat:
                break  // not a state: encodes without one, and so does not decode (see RealtimeCodec)
            }
        }
    }
}
