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
}
