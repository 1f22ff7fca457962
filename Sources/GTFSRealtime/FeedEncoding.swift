// The Swift model -> protobuf-c structs in an arena, ready to pack. Absent optionals stay absent on the
// wire; `problems` and `skippedFields` of a FeedMessage are not part of the format and are not encoded, nor are
// Transport for NSW's additions (`tfnswCarriages`, `VehicleDescriptor.tfnsw`).
import TransitModel
import TransitProto
import TransitProtoC

struct FeedEncoding {
    let arena: ProtoArena

    func feedMessage(_ f: FeedMessage) -> UnsafeMutablePointer<TransitRealtime__FeedMessage> {
        arena.message(transit_realtime__feed_message__init) { m in
            m.header = header(f.header)
            (m.n_entity, m.entity) = arena.messages(f.entities, entity)
        }
    }

    func header(_ h: FeedHeader) -> UnsafeMutablePointer<TransitRealtime__FeedHeader> {
        arena.message(transit_realtime__feed_header__init) { m in
            m.gtfs_realtime_version = arena.string(h.gtfsRealtimeVersion)
            (m.has_incrementality, m.incrementality) = cEnum(h.incrementality)
            (m.has_timestamp, m.timestamp) = ifPresent(h.timestamp)
            m.feed_version = arena.string(h.feedVersion)
        }
    }

    func entity(_ e: FeedEntity) -> UnsafeMutablePointer<TransitRealtime__FeedEntity> {
        arena.message(transit_realtime__feed_entity__init) { m in
            m.id = arena.string(e.id)
            if let deleted = e.isDeleted { (m.has_is_deleted, m.is_deleted) = (1, cBool(deleted)) }
            m.trip_update = e.tripUpdate.map(tripUpdate)
            m.vehicle = e.vehicle.map(vehiclePosition)
            m.alert = e.alert.map(alert)
            m.shape = e.shape.map(shape)
            m.stop = e.stop.map(stop)
            m.trip_modifications = e.tripModifications.map(tripModifications)
        }
    }

    // MARK: trip updates

    func tripDescriptor(_ t: TripDescriptor) -> UnsafeMutablePointer<TransitRealtime__TripDescriptor> {
        arena.message(transit_realtime__trip_descriptor__init) { m in
            m.trip_id = arena.string(t.tripId)
            m.route_id = arena.string(t.routeId)
            (m.has_direction_id, m.direction_id) = ifPresent(t.directionId)
            m.start_time = arena.string(t.startTime)
            m.start_date = arena.string(t.startDate)
            (m.has_schedule_relationship, m.schedule_relationship) = cEnum(t.scheduleRelationship)
            m.modified_trip = t.modifiedTrip.map { s in
                arena.message(transit_realtime__trip_descriptor__modified_trip_selector__init) { m in
                    m.modifications_id = arena.string(s.modificationsId)
                    m.affected_trip_id = arena.string(s.affectedTripId)
                    m.start_time = arena.string(s.startTime)
                    m.start_date = arena.string(s.startDate)
                }
            }
        }
    }

    func tripUpdate(_ u: TripUpdate) -> UnsafeMutablePointer<TransitRealtime__TripUpdate> {
        arena.message(transit_realtime__trip_update__init) { m in
            m.trip = tripDescriptor(u.trip)
            m.vehicle = u.vehicle.map(vehicleDescriptor)
            (m.n_stop_time_update, m.stop_time_update) = arena.messages(u.stopTimeUpdates, stopTimeUpdate)
            (m.has_timestamp, m.timestamp) = ifPresent(u.timestamp)
            (m.has_delay, m.delay) = ifPresent(u.delay)
            m.trip_properties = u.tripProperties.map { p in
                arena.message(transit_realtime__trip_update__trip_properties__init) { m in
                    m.trip_id = arena.string(p.tripId)
                    m.start_date = arena.string(p.startDate)
                    m.start_time = arena.string(p.startTime)
                    m.shape_id = arena.string(p.shapeId)
                    m.trip_headsign = arena.string(p.tripHeadsign)
                    m.trip_short_name = arena.string(p.tripShortName)
                }
            }
        }
    }

    func stopTimeUpdate(_ s: StopTimeUpdate) -> UnsafeMutablePointer<TransitRealtime__TripUpdate__StopTimeUpdate> {
        arena.message(transit_realtime__trip_update__stop_time_update__init) { m in
            (m.has_stop_sequence, m.stop_sequence) = ifPresent(s.stopSequence)
            m.stop_id = arena.string(s.stopId)
            m.arrival = s.arrival.map(stopTimeEvent)
            m.departure = s.departure.map(stopTimeEvent)
            (m.has_departure_occupancy_status, m.departure_occupancy_status) = cEnum(s.departureOccupancyStatus)
            (m.has_schedule_relationship, m.schedule_relationship) = cEnum(s.scheduleRelationship)
            m.stop_time_properties = s.stopTimeProperties.map { p in
                arena.message(transit_realtime__trip_update__stop_time_update__stop_time_properties__init) { m in
                    m.assigned_stop_id = arena.string(p.assignedStopId)
                    m.stop_headsign = arena.string(p.stopHeadsign)
                    (m.has_pickup_type, m.pickup_type) = cEnum(p.pickupType)
                    (m.has_drop_off_type, m.drop_off_type) = cEnum(p.dropOffType)
                }
            }
        }
    }

    func stopTimeEvent(_ e: StopTimeEvent) -> UnsafeMutablePointer<TransitRealtime__TripUpdate__StopTimeEvent> {
        arena.message(transit_realtime__trip_update__stop_time_event__init) { m in
            (m.has_delay, m.delay) = ifPresent(e.delay)
            (m.has_time, m.time) = ifPresent(e.time)
            (m.has_uncertainty, m.uncertainty) = ifPresent(e.uncertainty)
            (m.has_scheduled_time, m.scheduled_time) = ifPresent(e.scheduledTime)
        }
    }

    // MARK: vehicles

    func vehicleDescriptor(_ v: VehicleDescriptor) -> UnsafeMutablePointer<TransitRealtime__VehicleDescriptor> {
        arena.message(transit_realtime__vehicle_descriptor__init) { m in
            m.id = arena.string(v.id)
            m.label = arena.string(v.label)
            m.license_plate = arena.string(v.licensePlate)
            (m.has_wheelchair_accessible, m.wheelchair_accessible) = cEnum(v.wheelchairAccessible)
        }
    }

    func vehiclePosition(_ v: VehiclePosition) -> UnsafeMutablePointer<TransitRealtime__VehiclePosition> {
        arena.message(transit_realtime__vehicle_position__init) { m in
            m.trip = v.trip.map(tripDescriptor)
            m.vehicle = v.vehicle.map(vehicleDescriptor)
            m.position = v.position.map(position)
            (m.has_current_stop_sequence, m.current_stop_sequence) = ifPresent(v.currentStopSequence)
            m.stop_id = arena.string(v.stopId)
            (m.has_current_status, m.current_status) = cEnum(v.currentStatus)
            (m.has_timestamp, m.timestamp) = ifPresent(v.timestamp)
            (m.has_congestion_level, m.congestion_level) = cEnum(v.congestionLevel)
            (m.has_occupancy_status, m.occupancy_status) = cEnum(v.occupancyStatus)
            (m.has_occupancy_percentage, m.occupancy_percentage) = ifPresent(v.occupancyPercentage)
            (m.n_multi_carriage_details, m.multi_carriage_details) = arena.messages(v.multiCarriageDetails) { c in
                arena.message(transit_realtime__vehicle_position__carriage_details__init) { m in
                    m.id = arena.string(c.id)
                    m.label = arena.string(c.label)
                    (m.has_occupancy_status, m.occupancy_status) = cEnum(c.occupancyStatus)
                    (m.has_occupancy_percentage, m.occupancy_percentage) = ifPresent(c.occupancyPercentage)
                    (m.has_carriage_sequence, m.carriage_sequence) = ifPresent(c.carriageSequence)
                }
            }
        }
    }

    func position(_ p: Position) -> UnsafeMutablePointer<TransitRealtime__Position> {
        arena.message(transit_realtime__position__init) { m in
            (m.has_latitude, m.latitude) = present(p.latitude)
            (m.has_longitude, m.longitude) = present(p.longitude)
            (m.has_bearing, m.bearing) = ifPresent(p.bearing)
            (m.has_odometer, m.odometer) = ifPresent(p.odometer)
            (m.has_speed, m.speed) = ifPresent(p.speed)
        }
    }

    // MARK: alerts

    func alert(_ a: Alert) -> UnsafeMutablePointer<TransitRealtime__Alert> {
        arena.message(transit_realtime__alert__init) { m in
            (m.n_active_period, m.active_period) = arena.messages(a.activePeriods, timeRange)
            (m.n_communication_period, m.communication_period) = arena.messages(a.communicationPeriods, timeRange)
            (m.n_impact_period, m.impact_period) = arena.messages(a.impactPeriods, timeRange)
            (m.n_informed_entity, m.informed_entity) = arena.messages(a.informedEntities, entitySelector)
            (m.has_cause, m.cause) = cEnum(a.cause)
            (m.has_effect, m.effect) = cEnum(a.effect)
            m.url = a.url.map(translatedString)
            m.header_text = a.headerText.map(translatedString)
            m.description_text = a.descriptionText.map(translatedString)
            m.tts_header_text = a.ttsHeaderText.map(translatedString)
            m.tts_description_text = a.ttsDescriptionText.map(translatedString)
            (m.has_severity_level, m.severity_level) = cEnum(a.severityLevel)
            m.image = a.image.map(translatedImage)
            m.image_alternative_text = a.imageAlternativeText.map(translatedString)
            m.cause_detail = a.causeDetail.map(translatedString)
            m.effect_detail = a.effectDetail.map(translatedString)
        }
    }

    func timeRange(_ r: TimeRange) -> UnsafeMutablePointer<TransitRealtime__TimeRange> {
        arena.message(transit_realtime__time_range__init) { m in
            (m.has_start, m.start) = ifPresent(r.start)
            (m.has_end, m.end) = ifPresent(r.end)
        }
    }

    func entitySelector(_ s: EntitySelector) -> UnsafeMutablePointer<TransitRealtime__EntitySelector> {
        arena.message(transit_realtime__entity_selector__init) { m in
            m.agency_id = arena.string(s.agencyId)
            m.route_id = arena.string(s.routeId)
            (m.has_route_type, m.route_type) = ifPresent(s.routeType)
            m.trip = s.trip.map(tripDescriptor)
            m.stop_id = arena.string(s.stopId)
            (m.has_direction_id, m.direction_id) = ifPresent(s.directionId)
        }
    }

    func translatedString(_ t: TranslatedText) -> UnsafeMutablePointer<TransitRealtime__TranslatedString> {
        arena.message(transit_realtime__translated_string__init) { m in
            (m.n_translation, m.translation) = arena.messages(t.translations) { x in
                arena.message(transit_realtime__translated_string__translation__init) { m in
                    m.text = arena.string(x.text)
                    m.language = arena.string(x.language)
                }
            }
        }
    }

    func translatedImage(_ t: TranslatedImage) -> UnsafeMutablePointer<TransitRealtime__TranslatedImage> {
        arena.message(transit_realtime__translated_image__init) { m in
            (m.n_localized_image, m.localized_image) = arena.messages(t.localizedImages) { x in
                arena.message(transit_realtime__translated_image__localized_image__init) { m in
                    m.url = arena.string(x.url)
                    m.media_type = arena.string(x.mediaType)
                    m.language = arena.string(x.language)
                }
            }
        }
    }

    // MARK: trip modifications, shapes and stops (experimental)

    func tripModifications(_ t: TripModifications) -> UnsafeMutablePointer<TransitRealtime__TripModifications> {
        arena.message(transit_realtime__trip_modifications__init) { m in
            (m.n_selected_trips, m.selected_trips) = arena.messages(t.selectedTrips) { s in
                arena.message(transit_realtime__trip_modifications__selected_trips__init) { m in
                    (m.n_trip_ids, m.trip_ids) = arena.strings(s.tripIds)
                    m.shape_id = arena.string(s.shapeId)
                }
            }
            (m.n_start_times, m.start_times) = arena.strings(t.startTimes)
            (m.n_service_dates, m.service_dates) = arena.strings(t.serviceDates)
            (m.n_modifications, m.modifications) = arena.messages(t.modifications, modification)
        }
    }

    func modification(
        _ x: TripModifications.Modification
    ) -> UnsafeMutablePointer<TransitRealtime__TripModifications__Modification> {
        arena.message(transit_realtime__trip_modifications__modification__init) { m in
            m.start_stop_selector = stopSelector(x.startStopSelector)
            m.end_stop_selector = x.endStopSelector.map(stopSelector)
            (m.has_propagated_modification_delay, m.propagated_modification_delay) = ifPresent(
                x.propagatedModificationDelay)
            (m.n_replacement_stops, m.replacement_stops) = arena.messages(x.replacementStops) { r in
                arena.message(transit_realtime__replacement_stop__init) { m in
                    (m.has_travel_time_to_stop, m.travel_time_to_stop) = ifPresent(r.travelTimeToStop)
                    m.stop_id = arena.string(r.stopId)
                }
            }
            m.service_alert_id = arena.string(x.serviceAlertId)
            (m.has_last_modified_time, m.last_modified_time) = ifPresent(x.lastModifiedTime)
        }
    }

    func stopSelector(_ s: StopSelector) -> UnsafeMutablePointer<TransitRealtime__StopSelector> {
        arena.message(transit_realtime__stop_selector__init) { m in
            (m.has_stop_sequence, m.stop_sequence) = ifPresent(s.stopSequence)
            m.stop_id = arena.string(s.stopId)
        }
    }

    func shape(_ s: RealtimeShape) -> UnsafeMutablePointer<TransitRealtime__Shape> {
        arena.message(transit_realtime__shape__init) { m in
            m.shape_id = arena.string(s.shapeId)
            m.encoded_polyline = arena.string(s.encodedPolyline)
        }
    }

    func stop(_ s: RealtimeStop) -> UnsafeMutablePointer<TransitRealtime__Stop> {
        arena.message(transit_realtime__stop__init) { m in
            m.stop_id = arena.string(s.stopId)
            m.stop_code = s.stopCode.map(translatedString)
            m.stop_name = s.stopName.map(translatedString)
            m.tts_stop_name = s.ttsStopName.map(translatedString)
            m.stop_desc = s.stopDesc.map(translatedString)
            (m.has_stop_lat, m.stop_lat) = ifPresent(s.stopLat)
            (m.has_stop_lon, m.stop_lon) = ifPresent(s.stopLon)
            m.zone_id = arena.string(s.zoneId)
            m.stop_url = s.stopUrl.map(translatedString)
            m.parent_station = arena.string(s.parentStation)
            m.stop_timezone = arena.string(s.stopTimezone)
            (m.has_wheelchair_boarding, m.wheelchair_boarding) = cEnum(s.wheelchairBoarding)
            m.level_id = arena.string(s.levelId)
            m.platform_code = s.platformCode.map(translatedString)
        }
    }
}
