import GTFSRealtime
import TransitModel

/// Applies a TripModifications entity's modifications to one static trip's pattern stops, per the spec's
/// trip-modifications rules (https://gtfs.org/realtime/feed-entities/trip-modifications/):
/// - a modification replaces the span from its start_stop_selector to its end_stop_selector (inclusive;
///   the stops are kept in the result as detoured) by its replacement stops; without an end selector
///   nothing is replaced and the replacement stops go right before the start stop. A selector names its
///   stop by stop_sequence (the original trip's), else by stop_id (the first visit; for the end selector,
///   the first at or after the start);
/// - a replacement stop arrives travel_time_to_stop seconds after the reference stop's arrival (the stop
///   before the start selector, or the trip's first stop when the modification starts there) and departs
///   when it arrives; without travel_time_to_stop its time is interpolated between its neighbours with
///   times, the span ending where the stop after the replaced ones arrived in the original trip (the
///   modification's duration in the original trip);
/// - every time after a modification gets its propagated_modification_delay; the delays of several
///   modifications add up along the trip (so a later reference stop carries the earlier delays);
/// - the served stops are numbered 1...n (stop_sequence), what a trip update naming the modified trip uses.
/// Spans must neither overlap nor touch (the spec requires touching spans merged), and travel times must not
/// decrease (negative only when the first stop is the reference): otherwise the trip keeps its schedule
/// and a problem says why. A replacement stop without coordinates (no Stop entity with stop_lat/stop_lon,
/// no static stop) is left out with a problem; the rest of the modification applies.
public struct TripModificationApplier: Sendable {
    /// Where replacement stops are: the feed's Stop entities with both coordinates, over static stops.
    private var locations: [String: GeoPoint]
    /// Stop entities of the feed without coordinates (only to say so in a problem).
    private var stopsWithoutCoordinates: Set<String>
    /// Whether a replacement stop that no Stop entity of the feed defines, and whose coordinates are not
    /// known, is kept (without a location) instead of left out: for a caller that does not know the static
    /// stops (the realtime service reaches the static data only through the static service). A Stop entity
    /// without coordinates is left out either way.
    private var keepsUnlocatedStops = false

    /// `feedStops`: the feed's Stop entities; `staticStops`: the static stops' coordinates by stop id (those
    /// a replacement stop may name).
    /// `keepsUnlocatedStops`: see the property.
    public init(feedStops: [RealtimeStop], staticStops: [String: GeoPoint] = [:], keepsUnlocatedStops: Bool = false) {
        locations = staticStops
        self.keepsUnlocatedStops = keepsUnlocatedStops
        stopsWithoutCoordinates = []
        for stop in feedStops {
            if let lat = stop.stopLat, let lon = stop.stopLon, lat.isFinite, lon.isFinite {
                locations[stop.stopId] = GeoPoint(latitude: Double(lat), longitude: Double(lon))
                stopsWithoutCoordinates.remove(stop.stopId)
            } else if locations[stop.stopId] == nil {
                stopsWithoutCoordinates.insert(stop.stopId)
            }
        }
    }

    /// The result for one trip: the modified trip, or nil when the trip keeps its schedule; and the
    /// problems met either way.
    public struct Outcome: Sendable, Hashable {
        public var modifiedTrip: ModifiedTrip?
        public var problems: [TripModificationProblem]
    }

    /// `modifications` (FeedEntity `entityId`) applied to the static trip `tripId` whose pattern is `stops`.
    /// `shapeId` and `shapePoints` (its SelectedTrips' shape) are passed through.
    public func apply(
        _ modifications: TripModifications, entityId: String, tripId: String, stops: [PatternStop],
        shapeId: String? = nil, shapePoints: [GeoPoint]? = nil
    ) -> Outcome {
        var problems: [TripModificationProblem] = []
        func keepSchedule(_ reason: TripModificationProblem.Reason, _ message: String) -> Outcome {
            problems.append(TripModificationProblem(reason, entityId: entityId, tripId: tripId, message))
            return Outcome(modifiedTrip: nil, problems: problems)
        }
        guard !stops.isEmpty else { return keepSchedule(.stopNotInTrip, "the trip has no stops") }

        // Where each modification lies in the trip.
        var spans: [Span] = []
        for (k, modification) in modifications.modifications.enumerated() {
            guard let start = Self.index(of: modification.startStopSelector, in: stops, from: 0) else {
                return keepSchedule(
                    .stopNotInTrip,
                    "start_stop_selector (\(Self.describe(modification.startStopSelector))) of modification \(k) "
                        + "names no stop of the trip")
            }
            var end: Int?
            if let selector = modification.endStopSelector {
                guard let found = Self.index(of: selector, in: stops, from: start), found >= start else {
                    return keepSchedule(
                        .stopNotInTrip,
                        "end_stop_selector (\(Self.describe(selector))) of modification \(k) names no stop of the "
                            + "trip at or after its start (stop_sequence \(stops[start].stopSequence))")
                }
                end = found
            }
            spans.append(Span(modification: k, start: start, end: end))
        }
        spans.sort { ($0.lower, $0.modification) < ($1.lower, $1.modification) }
        for (a, b) in zip(spans, spans.dropFirst()) where b.lower <= a.upper {
            let how =
                b.lower < a.upper || (a.end == nil && b.end == nil)
                ? "overlap" : "touch (the spec requires them merged)"
            return keepSchedule(
                .overlappingModifications, "modifications \(a.modification) and \(b.modification) \(how)")
        }

        var result: [ModifiedTripStop] = []
        result.reserveCapacity(stops.count + modifications.modifications.reduce(0) { $0 + $1.replacementStops.count })
        var delay: Int64 = 0  // the propagated delays so far
        var sequence: UInt32 = 0
        var next = 0  // the next span
        var i = 0
        while i < stops.count {
            if next < spans.count, spans[next].start == i {
                let span = spans[next]
                next += 1
                let modification = modifications.modifications[span.modification]
                let reference = max(span.start - 1, 0)
                let referenceArrival = Int64(stops[reference].arrivalOffset) + delay
                // The modification's duration in the original trip: up to the stop after the replaced ones.
                let after = min(span.end.map { $0 + 1 } ?? span.start, stops.count - 1)
                let duration = Int64(stops[after].arrivalOffset) - Int64(stops[reference].arrivalOffset)
                let travel: [Int64?]
                switch Self.travelTimes(
                    modification.replacementStops, duration: duration, referenceIsFirst: reference == 0)
                {
                case .success(let times): travel = times
                case .failure(let error):
                    return keepSchedule(.badTravelTime, "modification \(span.modification): \(error.message)")
                }
                for k in span.start..<(span.end.map { $0 + 1 } ?? span.start) {
                    result.append(
                        ModifiedTripStop(
                            stopId: stops[k].stopId, stopSequence: nil, arrivalOffset: stops[k].arrivalOffset,
                            departureOffset: stops[k].departureOffset,
                            role: .detoured(originalSequence: stops[k].stopSequence, modification: span.modification)))
                }
                for (r, replacement) in modification.replacementStops.enumerated() {
                    let location = locations[replacement.stopId]
                    // A Stop entity without coordinates is refused either way; an id no Stop entity defines is
                    // kept unlocated when the caller cannot know the static stops.
                    if location == nil, !keepsUnlocatedStops || stopsWithoutCoordinates.contains(replacement.stopId) {
                        let why =
                            stopsWithoutCoordinates.contains(replacement.stopId)
                            ? "its Stop entity has no stop_lat/stop_lon" : "no Stop entity or static stop has that id"
                        problems.append(
                            TripModificationProblem(
                                .replacementStopWithoutCoordinates, entityId: entityId, tripId: tripId,
                                "replacement stop \(r) (\"\(replacement.stopId)\") of modification \(span.modification): "
                                    + "\(why); left out"))
                        continue
                    }
                    sequence += 1
                    let arrival = Int32(clamping: referenceArrival + (travel[r] ?? 0))
                    result.append(
                        ModifiedTripStop(
                            stopId: replacement.stopId, stopSequence: sequence, arrivalOffset: arrival,
                            departureOffset: arrival, role: .replacement(modification: span.modification),
                            location: location))
                }
                delay += Int64(modification.propagatedModificationDelay ?? 0)
                if let end = span.end {
                    i = end + 1
                    continue
                }
            }
            let stop = stops[i]
            sequence += 1
            var kept = ModifiedTripStop(
                stopId: stop.stopId, stopSequence: sequence,
                arrivalOffset: Int32(clamping: Int64(stop.arrivalOffset) + delay),
                departureOffset: Int32(clamping: Int64(stop.departureOffset) + delay),
                role: .kept(originalSequence: stop.stopSequence))
            kept.propagatedDelay = Int32(clamping: delay)
            kept.pickupType = stop.pickupType
            kept.dropOffType = stop.dropOffType
            kept.timepoint = stop.timepoint
            result.append(kept)
            i += 1
        }
        let trip = ModifiedTrip(
            modificationsId: entityId, tripId: tripId, shapeId: shapeId, shapePoints: shapePoints, stops: result)
        return Outcome(modifiedTrip: trip, problems: problems)
    }

    /// A modification's place in the trip: it replaces stops start...end, or (end nil) goes before start.
    private struct Span {
        let modification: Int
        let start: Int
        let end: Int?

        // Stop i is at 2i + 1 and the gap before it at 2i: a span covers the gaps on both sides of the
        // stops it replaces (its replacement stops go there), an insertion only its gap. Spans sharing a
        // point overlap or touch.
        var lower: Int { 2 * start }
        var upper: Int { end.map { 2 * $0 + 2 } ?? 2 * start }
    }

    /// Each replacement stop's arrival after the reference stop's: travel_time_to_stop where given, else
    /// interpolated by position between the neighbours with a time (the reference at 0, the stop after the
    /// span at `duration`). Fails when the given times decrease, or one is negative while the reference stop
    /// is not the trip's first.
    static func travelTimes(
        _ replacements: [ReplacementStop], duration: Int64, referenceIsFirst: Bool
    ) -> Result<[Int64?], TravelTimeError> {
        var times = replacements.map { $0.travelTimeToStop.map(Int64.init) }
        var last: Int64?
        for (r, time) in times.enumerated() {
            guard let time else { continue }
            if time < 0, !referenceIsFirst {
                return .failure(
                    TravelTimeError(
                        "travel_time_to_stop \(time) of replacement stop \(r) is negative while the reference stop is not the trip's first"
                    ))
            }
            if let last, time < last {
                return .failure(
                    TravelTimeError("travel_time_to_stop decreases at replacement stop \(r) (\(last) then \(time))"))
            }
            last = time
        }
        // Anchors: (position, time); position 0 is the reference stop, count + 1 the stop after the span.
        var anchors: [(position: Int, time: Int64)] = [(0, 0)]
        for (r, time) in times.enumerated() { if let time { anchors.append((r + 1, time)) } }
        anchors.append((times.count + 1, max(duration, anchors.last!.time)))
        var a = 0
        for r in times.indices where times[r] == nil {
            let position = r + 1
            while anchors[a + 1].position < position { a += 1 }
            let (p0, t0) = anchors[a]
            let (p1, t1) = anchors[a + 1]
            times[r] = t0 + (t1 - t0) * Int64(position - p0) / Int64(p1 - p0)
        }
        return .success(times)
    }

    struct TravelTimeError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// The index of the stop a selector names: by stop_sequence when given, else the first stop with its
    /// stop_id at or after `from`.
    static func index(of selector: StopSelector, in stops: [PatternStop], from: Int) -> Int? {
        if let sequence = selector.stopSequence {
            return StopUpdateMatcher.index(ofSequence: sequence, in: stops, hint: from)
        }
        guard let stopId = selector.stopId, !stopId.isEmpty, from < stops.count else { return nil }
        return stops[from...].firstIndex { $0.stopId == stopId }
    }

    static func describe(_ selector: StopSelector) -> String {
        [selector.stopSequence.map { "stop_sequence \($0)" }, selector.stopId.map { "stop_id \"\($0)\"" }]
            .compactMap { $0 }.joined(separator: ", ")
    }
}
