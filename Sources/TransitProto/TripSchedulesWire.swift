// A successful StaticResponse carrying TripSchedules, written straight to wire bytes.
//
// Why not protobuf-c: a cold bulk answer for 1,000 trips holds ≈ 45,000 pattern stops (≈ 1.1 MB). Through
// protobuf-c that is ≈ 50,000 structs and strings built in an arena, then packed by a packer that sizes each
// sub-message again at every level above it (four levels here): ≈ 3.5 ms of the ≈ 10 ms answer. Written
// directly it is one sizing pass and one writing pass over the Swift values.
//
// The bytes equal what the protobuf-c path (`ResponseCodec.encodeWithProtobufC`) writes for the same
// response; tests compare the two, so a field added to transit.proto must be added here too.
import TransitModel

enum TripSchedulesWire {
    // Field numbers of protocol/transit.proto.
    private enum Response {
        static let requestId = 1, status = 2, servedBy = 4, databaseVersion = 5, tripSchedules = 16
    }
    private enum Schedules {
        static let databaseVersion = 1, patterns = 2, trips = 3, unknownTripIds = 4, descriptorMatches = 5, stations = 6
    }
    private enum StationField { static let stationId = 1, platforms = 2 }
    private enum PlatformField { static let stopId = 1, platformCode = 2 }
    private enum MatchField { static let tripIds = 1 }
    private enum PatternField { static let patternId = 1, stops = 2 }
    private enum StopField {
        static let stopId = 1, stopSequence = 2, arrivalOffset = 3, departureOffset = 4, pickupType = 5,
            dropOffType = 6,
            timepoint = 7
    }
    private enum TripField {
        static let tripId = 1, routeId = 2, directionId = 3, patternId = 4, startSecs = 5, frequencies = 6,
            serviceDates = 7, timezone = 8, routeType = 9
    }
    private enum WindowField { static let startSecs = 1, endSecs = 2, headwaySecs = 3, exactTimes = 4 }

    /// `StaticResponse{request_id, status: OK, served_by, database_version, trip_schedules}`.
    static func response(
        requestId: UInt64, servedBy: String? = nil, databaseVersion: String? = nil, _ s: TripSchedules
    ) -> [UInt8] {
        // Sizes of every pattern and trip body, computed once and used again for their length prefixes.
        var patternSizes: [Int] = []
        patternSizes.reserveCapacity(s.patterns.count)
        var tripSizes: [Int] = []
        tripSizes.reserveCapacity(s.trips.count)
        var body = WireSize.string(Schedules.databaseVersion, s.databaseVersion)
        for i in s.patterns.indices {
            let size = patternSize(s.patterns[i])
            patternSizes.append(size)
            body += WireSize.delimited(Schedules.patterns, size)
        }
        for i in s.trips.indices {
            let size = tripSize(s.trips[i])
            tripSizes.append(size)
            body += WireSize.delimited(Schedules.trips, size)
        }
        for id in s.unknownTripIds { body += WireSize.string(Schedules.unknownTripIds, id) }
        for ids in s.descriptorMatches { body += WireSize.delimited(Schedules.descriptorMatches, matchSize(ids)) }
        for station in s.stations { body += WireSize.delimited(Schedules.stations, stationSize(station)) }
        let total =
            WireSize.varintField(Response.requestId, requestId) + WireSize.varintField(Response.status, 0)
            + (servedBy.map { WireSize.string(Response.servedBy, $0) } ?? 0)
            + (databaseVersion.map { WireSize.string(Response.databaseVersion, $0) } ?? 0)
            + WireSize.delimited(Response.tripSchedules, body)

        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            var out = WireOutput(buffer.baseAddress!)
            out.varintField(Response.requestId, requestId)
            out.varintField(Response.status, 0)  // OK
            if let servedBy { out.string(Response.servedBy, servedBy) }
            if let databaseVersion { out.string(Response.databaseVersion, databaseVersion) }
            out.delimitedHeader(Response.tripSchedules, body)
            out.string(Schedules.databaseVersion, s.databaseVersion)
            for i in s.patterns.indices {
                out.delimitedHeader(Schedules.patterns, patternSizes[i])
                write(s.patterns[i], &out)
            }
            for i in s.trips.indices {
                out.delimitedHeader(Schedules.trips, tripSizes[i])
                write(s.trips[i], &out)
            }
            for id in s.unknownTripIds { out.string(Schedules.unknownTripIds, id) }
            for ids in s.descriptorMatches {
                out.delimitedHeader(Schedules.descriptorMatches, matchSize(ids))
                for id in ids { out.string(MatchField.tripIds, id) }
            }
            for station in s.stations {
                out.delimitedHeader(Schedules.stations, stationSize(station))
                out.string(StationField.stationId, station.stationId)
                for platform in station.platforms {
                    out.delimitedHeader(StationField.platforms, platformSize(platform))
                    out.string(PlatformField.stopId, platform.stopId)
                    if let code = platform.platformCode { out.string(PlatformField.platformCode, code) }
                }
            }
            initialized = out.cursor - buffer.baseAddress!
            precondition(initialized == total, "TripSchedulesWire wrote \(initialized) bytes, sized \(total)")
        }
    }

    // MARK: sizes (bodies, without the field's own tag and length)

    private static func platformSize(_ p: StationPlatform) -> Int {
        WireSize.string(PlatformField.stopId, p.stopId)
            + (p.platformCode.map { WireSize.string(PlatformField.platformCode, $0) } ?? 0)
    }

    private static func stationSize(_ s: StationPlatforms) -> Int {
        var size = WireSize.string(StationField.stationId, s.stationId)
        for p in s.platforms { size += WireSize.delimited(StationField.platforms, platformSize(p)) }
        return size
    }

    /// The body size of a pattern stop whose stop id has `idLength` wire bytes.
    @inline(__always)
    private static func stopSize(_ p: borrowing PatternStop, idLength: Int) -> Int {
        WireSize.delimited(StopField.stopId, idLength)
            + WireSize.varintField(StopField.stopSequence, UInt64(p.stopSequence))
            + WireSize.int32Field(StopField.arrivalOffset, p.arrivalOffset)
            + WireSize.int32Field(StopField.departureOffset, p.departureOffset)
            + WireSize.int32Field(StopField.pickupType, Int32(clamping: p.pickupType))
            + WireSize.int32Field(StopField.dropOffType, Int32(clamping: p.dropOffType))
            + (p.timepoint ? 0 : WireSize.varintField(StopField.timepoint, 0))
    }

    private static func patternSize(_ p: Pattern) -> Int {
        var size = WireSize.varintField(PatternField.patternId, UInt64(p.patternId))
        p.stops.withUnsafeBufferPointer { stops in
            for i in stops.indices {
                let body = stopSize(stops[i], idLength: WireSize.wireLength(stops[i].stopId))
                size += WireSize.delimited(PatternField.stops, body)
            }
        }
        return size
    }

    private static func matchSize(_ tripIds: [String]) -> Int {
        var size = 0
        for id in tripIds { size += WireSize.string(MatchField.tripIds, id) }
        return size
    }

    private static func windowSize(_ w: FrequencyWindow) -> Int {
        WireSize.int32Field(WindowField.startSecs, w.startSecs) + WireSize.int32Field(WindowField.endSecs, w.endSecs)
            + WireSize.int32Field(WindowField.headwaySecs, w.headwaySecs)
            + WireSize.varintField(WindowField.exactTimes, 1)
    }

    private static func tripSize(_ t: TripSchedule) -> Int {
        var size = WireSize.string(TripField.tripId, t.tripId) + WireSize.string(TripField.routeId, t.routeId)
        if let direction = t.directionId {
            size += WireSize.int32Field(TripField.directionId, Int32(clamping: direction))
        }
        size += WireSize.varintField(TripField.patternId, UInt64(t.patternId))
        size += WireSize.int32Field(TripField.startSecs, t.startSecs)
        for w in t.frequencies { size += WireSize.delimited(TripField.frequencies, windowSize(w)) }
        // proto2 repeated scalars are not packed unless declared so: one tag per date.
        for date in t.serviceDates { size += WireSize.varintField(TripField.serviceDates, UInt64(date)) }
        size += WireSize.string(TripField.timezone, t.timezone)
        size += WireSize.int32Field(TripField.routeType, Int32(clamping: t.routeType))
        return size
    }

    // MARK: writing

    private static func write(_ p: Pattern, _ out: inout WireOutput) {
        out.varintField(PatternField.patternId, UInt64(p.patternId))
        // Elements read in place: copying a PatternStop out would retain and release its stop id.
        p.stops.withUnsafeBufferPointer { stops in
            for i in stops.indices {
                let idLength = WireSize.wireLength(stops[i].stopId)
                out.delimitedHeader(PatternField.stops, stopSize(stops[i], idLength: idLength))
                out.string(StopField.stopId, stops[i].stopId, length: idLength)
                out.varintField(StopField.stopSequence, UInt64(stops[i].stopSequence))
                out.int32Field(StopField.arrivalOffset, stops[i].arrivalOffset)
                out.int32Field(StopField.departureOffset, stops[i].departureOffset)
                out.int32Field(StopField.pickupType, Int32(clamping: stops[i].pickupType))
                out.int32Field(StopField.dropOffType, Int32(clamping: stops[i].dropOffType))
                if !stops[i].timepoint { out.varintField(StopField.timepoint, 0) }
            }
        }
    }

    private static func write(_ t: TripSchedule, _ out: inout WireOutput) {
        out.string(TripField.tripId, t.tripId)
        out.string(TripField.routeId, t.routeId)
        if let direction = t.directionId { out.int32Field(TripField.directionId, Int32(clamping: direction)) }
        out.varintField(TripField.patternId, UInt64(t.patternId))
        out.int32Field(TripField.startSecs, t.startSecs)
        for w in t.frequencies {
            out.delimitedHeader(TripField.frequencies, windowSize(w))
            out.int32Field(WindowField.startSecs, w.startSecs)
            out.int32Field(WindowField.endSecs, w.endSecs)
            out.int32Field(WindowField.headwaySecs, w.headwaySecs)
            out.varintField(WindowField.exactTimes, w.exactTimes ? 1 : 0)
        }
        for date in t.serviceDates { out.varintField(TripField.serviceDates, UInt64(date)) }
        out.string(TripField.timezone, t.timezone)
        out.int32Field(TripField.routeType, Int32(clamping: t.routeType))
    }
}
