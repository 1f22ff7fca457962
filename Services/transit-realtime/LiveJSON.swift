import GatewayProtocol
import TransitCore
import TransitModel

// The debug client's answer lines: {"id":…,"ok":true,"data":{…}} or {"id":…,"ok":false,"error":{…}}.

enum LiveJSON {
    static func answer(id: RawJSON?, _ result: Result<RealtimeResult, ServiceError>) -> [UInt8] {
        var w = JSONWriter(capacity: 4096)
        w.beginObject()
        w.key("id"); w.raw(id ?? .null)
        switch result {
        case .success(let data):
            w.key("ok"); w.bool(true)
            w.key("data"); w.result(data)
        case .failure(let error):
            w.key("ok"); w.bool(false)
            w.key("error"); w.beginObject()
            w.key("code"); w.string(code(error.status))
            w.key("message"); w.string(error.message)
            w.endObject()
        }
        w.endObject()
        w.newline()
        return w.bytes
    }

    static func error(id: RawJSON?, code: String, message: String) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("id"); w.raw(id ?? .null)
        w.key("ok"); w.bool(false)
        w.key("error"); w.beginObject()
        w.key("code"); w.string(code)
        w.key("message"); w.string(message)
        w.endObject()
        w.endObject()
        w.newline()
        return w.bytes
    }

    static func code(_ status: ServiceStatus) -> String {
        switch status {
        case .ok: "OK"
        case .notFound: "NOT_FOUND"
        case .invalidArgument: "INVALID_ARGUMENT"
        case .unavailable: "REALTIME_UNAVAILABLE"
        case .internal, .badRequest: "INTERNAL"
        }
    }
}

extension JSONWriter {
    mutating func result(_ r: RealtimeResult) {
        beginObject()
        switch r {
        case .snapshot(let s):
            key("epoch"); int(s.epoch)
            key("topic"); string(s.topic.rawValue)
            key("seq"); int(s.seq)
            payload(s.payload)
        case .trips(let trips):
            key("trips"); beginArray(); for t in trips { trip(t) }; endArray()
        case .visits(let visits):
            key("visits"); beginArray()
            for v in visits {
                beginObject()
                key("trip"); instance(v.trip)
                key("relationship"); string(v.relationship.rawValue)
                key("route_id"); string(v.routeId)
                key("source"); string(v.source)
                key("stop_index"); int(v.stopIndex)
                key("last_stop"); bool(v.isLastStop)
                key("stop"); stop(v.stop)
                endObject()
            }
            endArray()
        case .vehicles(let vehicles):
            key("vehicles"); beginArray(); for v in vehicles { vehicle(v) }; endArray()
        case .alerts(let alerts):
            key("alerts"); beginArray(); for a in alerts { alert(a) }; endArray()
        case .sources(let sources, let failedSends, let residentBytes):
            key("sources"); beginArray(); for s in sources { source(s) }; endArray()
            key("failed_sends"); int(failedSends)
            if let residentBytes { key("rss_bytes"); int(residentBytes) }
        case .delayHistograms(let histograms):
            key("histograms"); beginArray()
            for h in histograms {
                beginObject()
                key("samples"); int(h.histogram.samples)
                key("counts"); beginArray(); for c in h.histogram.counts { int(c) }; endArray()
                key("first_date"); string(String(h.firstDate))
                key("last_date"); string(String(h.lastDate))
                endObject()
            }
            endArray()
        }
        endObject()
    }

    private mutating func payload(_ p: LivePayload) {
        switch p {
        case .tripUpdates(let b):
            key("trips"); beginArray();
            for t in b.trips.sorted(by: { $0.instance.description < $1.instance.description }) { trip(t) }; endArray()
        case .vehicles(let b):
            key("vehicles"); beginArray(); for v in b.vehicles.sorted(by: { $0.key < $1.key }) { vehicle(v) };
            endArray()
        case .alerts(let b):
            key("alerts"); beginArray(); for a in b.alerts.sorted(by: { $0.key < $1.key }) { alert(a) }; endArray()
        case .sources(let s):
            key("sources"); beginArray(); for x in s { source(x) }; endArray()
        case .detours(let b):
            key("detours"); beginArray(); for d in b.detours.sorted(by: { $0.key < $1.key }) { detour(d) }; endArray()
        case .heartbeat:
            break
        }
    }

    private mutating func detour(_ d: LiveDetour) {
        beginObject()
        key("key"); string(d.key)
        key("modifications_id"); string(d.modificationsId)
        key("trip_id"); string(d.tripId)
        key("service_dates"); beginArray(); for date in d.serviceDates { serviceDate(date) }; endArray()
        key("start_times"); beginArray(); for s in d.startSecs { string(GTFSTime.format(Int(s))) }; endArray()
        key("shape_id"); string(d.shapeId)
        key("alert_ids"); beginArray(); for id in d.alertIds { string(id) }; endArray()
        key("stops"); beginArray()
        for stop in d.stops {
            beginObject()
            key("stop_id"); string(stop.stopId)
            key("role"); string(stop.role.rawValue)
            key("original_sequence"); int(stop.originalSequence.map { Int64($0) })
            key("stop_sequence"); int(stop.stopSequence.map { Int64($0) })
            key("arrival_offset_s"); int(Int64(stop.arrivalOffset))
            key("departure_offset_s"); int(Int64(stop.departureOffset))
            endObject()
        }
        endArray()
        endObject()
    }

    private mutating func instance(_ i: TripInstanceKey) {
        beginObject()
        key("trip_id"); string(i.tripId)
        key("service_date"); serviceDate(i.serviceDate)
        key("start_time"); string(i.startSecs.map { GTFSTime.format(Int($0)) })
        endObject()
    }

    private mutating func trip(_ t: LiveTrip) {
        beginObject()
        key("trip_id"); string(t.instance.tripId)
        key("service_date"); serviceDate(t.instance.serviceDate)
        key("start_time"); string(t.instance.startSecs.map { GTFSTime.format(Int($0)) })
        key("relationship"); string(t.relationship.rawValue)
        key("static_trip_id"); string(t.staticTripId)
        key("route_id"); string(t.routeId)
        key("direction_id"); int(t.directionId)
        key("vehicle_id"); string(t.vehicleId)
        key("vehicle_label"); string(t.vehicleLabel)
        key("timestamp"); int(t.timestamp.map { Int64(clamping: $0) })
        key("trip_delay"); int(t.tripDelay.map { Int64($0) })
        key("source"); string(t.source)
        key("entity_id"); string(t.entityId)
        key("stops"); beginArray(); for s in t.stops { stop(s) }; endArray()
        endObject()
    }

    private mutating func stop(_ s: LiveStop) {
        beginObject()
        key("stop_id"); string(s.stopId)
        key("stop_sequence"); int(s.stopSequence)
        key("assigned_stop_id"); string(s.assignedStopId)
        key("status"); string(s.status.rawValue)
        key("prediction_source"); string(s.predictionSource.rawValue)
        key("scheduled_arrival"); int(s.scheduledArrival)
        key("scheduled_departure"); int(s.scheduledDeparture)
        key("predicted_arrival"); int(s.predictedArrival)
        key("predicted_departure"); int(s.predictedDeparture)
        key("arrival_delay"); int(s.arrivalDelay.map { Int64($0) })
        key("departure_delay"); int(s.departureDelay.map { Int64($0) })
        key("departure_occupancy"); string(s.departureOccupancy)
        key("carriages"); carriages(s.carriages)
        endObject()
    }

    private mutating func carriages(_ list: [LiveCarriage]) {
        beginArray()
        for c in list {
            beginObject()
            key("position"); int(c.position.map { Int64($0) })
            key("name"); string(c.name)
            key("occupancy"); string(c.occupancy)
            key("departure_occupancy"); string(c.departureOccupancy)
            key("quiet"); bool(c.quiet)
            key("toilet"); string(c.toilet)
            key("luggage_rack"); bool(c.luggageRack)
            endObject()
        }
        endArray()
    }

    private mutating func vehicle(_ v: LiveVehicle) {
        beginObject()
        key("key"); string(v.key)
        key("source"); string(v.source)
        key("vehicle_id"); string(v.vehicleId)
        key("label"); string(v.label)
        key("license_plate"); string(v.licensePlate)
        key("trip"); if let trip = v.trip { instance(trip) } else { null() }
        key("trip_id"); string(v.tripId)
        key("route_id"); string(v.routeId)
        key("direction_id"); int(v.directionId)
        key("start_date"); string(v.startDate)
        key("start_time"); string(v.startTime)
        key("lat"); double(v.position?.lat)
        key("lon"); double(v.position?.lon)
        key("bearing"); double(v.position?.bearing.map { Double($0) })
        key("speed_mps"); double(v.position?.speed.map { Double($0) })
        key("current_stop_sequence"); int(v.currentStopSequence.map { Int64($0) })
        key("stop_id"); string(v.stopId)
        key("current_status"); string(v.currentStatus)
        key("occupancy_status"); string(v.occupancyStatus)
        key("occupancy_percentage"); int(v.occupancyPercentage.map { Int64($0) })
        key("congestion_level"); string(v.congestionLevel)
        key("timestamp"); int(v.timestamp.map { Int64(clamping: $0) })
        key("carriages"); carriages(v.carriages)
        key("features")
        if let f = v.features {
            beginObject()
            key("air_conditioned"); bool(f.airConditioned)
            key("wheelchair_accessible"); bool(f.wheelchairAccessible)
            key("model"); string(f.model)
            key("performing_prior_trip"); bool(f.performingPriorTrip)
            key("special_attributes"); int(f.specialAttributes.map { Int64($0) })
            endObject()
        } else {
            null()
        }
        endObject()
    }

    private mutating func text(_ t: TranslatedText?) {
        guard let t else { return null() }
        beginArray()
        for tr in t.translations {
            beginObject()
            key("language"); string(tr.language)
            key("text"); string(tr.text)
            endObject()
        }
        endArray()
    }

    private mutating func periods(_ list: [LivePeriod]) {
        beginArray()
        for p in list {
            beginObject()
            key("start"); int(p.start.map { Int64(clamping: $0) })
            key("end"); int(p.end.map { Int64(clamping: $0) })
            endObject()
        }
        endArray()
    }

    private mutating func alert(_ a: LiveAlert) {
        beginObject()
        key("key"); string(a.key)
        key("source"); string(a.source)
        key("id"); string(a.entityId)
        key("cause"); string(a.cause)
        key("effect"); string(a.effect)
        key("severity"); string(a.severity)
        key("header"); text(a.headerText)
        key("description"); text(a.descriptionText)
        key("url"); text(a.url)
        key("active_periods"); periods(a.activePeriods)
        key("informed_entities"); beginArray()
        for e in a.informedEntities {
            beginObject()
            key("agency_id"); string(e.agencyId)
            key("route_id"); string(e.routeId)
            key("route_type"); int(e.routeType.map { Int64($0) })
            key("direction_id"); int(e.directionId.map { Int64($0) })
            key("trip_id"); string(e.tripId)
            key("trip_start_date"); string(e.tripStartDate)
            key("trip_start_time"); string(e.tripStartTime)
            key("stop_id"); string(e.stopId)
            endObject()
        }
        endArray()
        endObject()
    }

    private mutating func source(_ s: LiveSourceStatus) {
        beginObject()
        key("name"); string(s.name)
        key("kind"); string(s.kind.rawValue)
        key("detected_kinds"); beginArray(); for k in s.detectedKinds { string(k.rawValue) }; endArray()
        key("feed_timestamp"); int(s.feedTimestamp.map { Int64(clamping: $0) })
        key("age_s"); int(s.feedTimestamp.flatMap { ts in s.statusUnix.map { $0 - Int64(clamping: ts) } })
        key("stale"); bool(s.stale)
        key("stale_after_s"); int(s.staleAfterSecs)
        key("last_fetch_unix"); int(s.lastFetchUnix)
        key("last_success_unix"); int(s.lastSuccessUnix)
        key("updates_applied"); int(s.updatesApplied)
        key("not_modified"); int(s.notModified)
        key("older_ignored"); int(s.olderIgnored)
        key("errors"); int(s.errors)
        key("last_error"); string(s.lastError)
        key("last_error_unix"); int(s.lastErrorUnix)
        key("consecutive_errors"); int(s.consecutiveErrors)
        key("recovered_unix"); int(s.recoveredUnix)
        key("entities"); int(s.entities)
        key("drops"); beginObject()
        for (reason, count) in s.drops.sorted(by: { $0.key < $1.key }) { key(reason); int(count) }
        endObject()
        key("last_drop"); string(s.lastDrop)
        key("feed_version"); string(s.feedVersion)
        key("id_prefix"); string(s.idPrefix)
        key("match"); timetableMatch(s.match)
        key("stop_mismatch"); beginObject()
        key("count"); int(s.stopMismatches)
        key("first"); string(s.firstStopMismatch)
        endObject()
        key("skipped_fields"); beginArray()
        for f in s.skippedFields {
            beginObject()
            key("path"); string(f.path)
            key("count"); int(f.count)
            key("first"); string(f.first)
            endObject()
        }
        endArray()
        endObject()
    }
}
