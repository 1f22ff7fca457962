import TransitCore

/// Answers journey-planning queries over a `Timetable` (pure: no clock but the budget's, no I/O).
///
/// - Depart at (`window` 0): the Pareto set over (arrival, transfers) of the earliest journeys departing at or
///   after `at`: for each number of transfers up to `maxTransfers`, the earliest arrival, kept when it is earlier
///   than with fewer transfers; ordered by transfers.
/// - Depart at with a window: every journey Pareto-optimal over (departure later, arrival earlier, transfers
///   fewer) departing within [at, at + window] (rRAPTOR), ordered by departure, at most `limit`, `laterAt` for
///   the rest.
/// - Arrive by: the Pareto set over (departure later, transfers) by the same search over the reversed routes.
/// Journeys arrive at most `PlanQuery.horizon` after `at` (depart at most that before `arrive_by`).
public enum JourneyPlanner {
    /// `workspace`: the search's arrays kept between the queries of one thread (a static service worker keeps one);
    /// without it each query allocates its own.
    public static func plan(_ query: PlanQuery, on timetable: Timetable, workspace: PlannerWorkspace? = nil)
        throws(PlanError) -> PlanResult
    {
        try query.validate()
        if query.walkRadius > timetable.maxWalkRadius {
            throw .invalidArgument(
                "walk_radius_m \(query.walkRadius) exceeds the planner's footpath radius \(timetable.maxWalkRadius)")
        }
        let origin = try endpoints(query.from, on: timetable, query: query, name: "from")
        let destination = try endpoints(query.to, on: timetable, query: query, name: "to")
        // A station and one of its own platforms: the origin holds the destination.
        if case .stops = query.from, case .stops = query.to,
            origin.contains(where: { o in destination.contains { $0.stop == o.stop } })
        {
            throw .invalidArgument("from and to are the same place: one is a station and the other one of its stops")
        }
        // A coordinate inside the feed's area with no stop to walk to: say so, not "nothing connects".
        for (place, stops, name) in [(query.from, origin, "from"), (query.to, destination, "to")] where stops.isEmpty {
            if case .coordinate(let lat, let lon) = place {
                return PlanResult(
                    journeys: [], cut: false,
                    reason: "\(name): no stop within access_radius_m \(Int(query.accessRadius)) m of (\(lat), \(lon))")
            }
        }
        let instant: Int64
        switch query.time {
        case .departAt(let at): instant = at
        case .arriveBy(let by): instant = by
        }
        guard timetable.coveredUnix.contains(instant) else {
            let first = timetable.dates.first.map(String.init(describing:)) ?? "none"
            let last = timetable.dates.last.map(String.init(describing:)) ?? "none"
            return PlanResult(
                journeys: [], cut: false,
                reason: "the time is outside the timetable's service dates (\(first) to \(last))")
        }
        let deadline = query.budget.map { ContinuousClock.now + $0 }
        let modeMask = query.modes.isEmpty ? UInt8.max : UInt8(query.modes.reduce(0) { $0 | $1.bit })
        func options(limit: Int64, latestDeparture: Int64? = nil) -> RaptorSearch.Options {
            RaptorSearch.Options(
                maxTrips: query.maxTransfers + 1, slack: Int32(query.transferSlack), walkRadius: query.walkRadius,
                walkSpeed: query.walkSpeed, modeMask: modeMask, wheelchair: query.wheelchair,
                limit: Int32(clamping: limit),
                latestDeparture: latestDeparture.map { Int32(clamping: $0) } ?? RaptorSearch.infinity,
                deadline: deadline)
        }
        switch query.time {
        case .departAt(let at):
            let start = at - timetable.epoch
            let search = PlannerWorkspace.search(
                workspace, timetable: timetable, reverse: false,
                options: options(
                    limit: start + PlanQuery.horizon,
                    latestDeparture: query.window > 0 ? start + Int64(query.window) : nil))
            search.setEndpoints(
                sources: origin.map {
                    RaptorSearch.Endpoint(stop: $0.stop, offset: $0.offset, via: $0.via, distance: $0.distance)
                },
                targets: finalWalks(destination, timetable: timetable, query: query, reverse: false))
            var journeys: [Journey] = []
            if query.window == 0 {
                for k in search.run(departure: Int32(clamping: start)) {
                    journeys.append(journey(search.reconstruct(round: k), search: search))
                }
                return PlanResult(journeys: journeys, cut: search.cut, laterAt: nil)
            }
            let range = Int32(clamping: start)...Int32(clamping: start + Int64(query.window))
            for departure in search.departureTimes(in: range) {
                for k in search.run(departure: departure) {
                    journeys.append(journey(search.reconstruct(round: k), search: search))
                }
                if search.cut { break }
            }
            if journeys.isEmpty && !search.cut {
                // Nothing departs within the window: "nothing connects within 24 h" would be wrong when a journey
                // goes after it. A depart-at search from `at` finds whether one does, and when (for the reason).
                let later = PlannerWorkspace.search(
                    workspace, timetable: timetable, reverse: false, options: options(limit: start + PlanQuery.horizon))
                later.setEndpoints(
                    sources: origin.map {
                        RaptorSearch.Endpoint(stop: $0.stop, offset: $0.offset, via: $0.via, distance: $0.distance)
                    },
                    targets: finalWalks(destination, timetable: timetable, query: query, reverse: false))
                let earliest = later.run(departure: Int32(clamping: start)).last.map {
                    journey(later.reconstruct(round: $0), search: later)
                }
                guard let earliest else { return PlanResult(journeys: [], cut: later.cut) }
                return PlanResult(
                    journeys: [], cut: false, reason: PlanResult.noneInWindow(query.window),
                    earliestAfterWindow: earliest)
            }
            journeys.sort { ($0.departure, $0.transfers) < ($1.departure, $1.transfers) }
            let end = pageEnd(journeys, limit: query.limit)
            return PlanResult(
                journeys: Array(journeys[..<end]), cut: search.cut,
                laterAt: end < journeys.count ? journeys[end].departure : nil)
        case .arriveBy(let by):
            let end = by - timetable.epoch
            let search = PlannerWorkspace.search(
                workspace, timetable: timetable, reverse: true, options: options(limit: -end + PlanQuery.horizon))
            // In the reversed frame the destination is where the search starts (with the optional last walk
            // walked backwards first) and the origin is its target (no walk before the first trip from a stop).
            search.setEndpoints(
                sources: finalWalks(destination, timetable: timetable, query: query, reverse: true),
                targets: origin.map {
                    RaptorSearch.Endpoint(stop: $0.stop, offset: $0.offset, via: $0.via, distance: $0.distance)
                })
            var journeys: [Journey] = []
            for k in search.run(departure: Int32(clamping: -end)) {
                journeys.append(journey(search.reconstruct(round: k), search: search))
            }
            return PlanResult(journeys: journeys, cut: search.cut, laterAt: nil)
        }
    }

    /// Where a range answer's page ends (GATEWAY.md "plan"): after at most `limit` journeys, never inside the
    /// journeys of one departure (the next page starts at a departure: a split one would be repeated from its
    /// start, page after page); when those of the first departure alone are more than `limit`, after all of them.
    static func pageEnd(_ journeys: [Journey], limit: Int) -> Int {
        guard journeys.count > limit else { return journeys.count }
        let split = journeys[limit].departure
        var end = limit
        while end > 0 && journeys[end - 1].departure == split { end -= 1 }
        return end > 0 ? end : journeys.firstIndex { $0.departure != split } ?? journeys.count
    }

    struct Access {
        var stop: Int32
        var offset: Int32
        var via: Int32
        var distance: Double
    }

    /// The stops of a place with the walk to them (none for stops).
    static func endpoints(_ place: PlanPlace, on timetable: Timetable, query: PlanQuery, name: String)
        throws(PlanError) -> [Access]
    {
        switch place {
        case .stops(let list):
            var result: [Access] = []
            for s in list {
                guard s >= 0 && s < timetable.stopCount else { throw .notFound("\(name): no stop \(s)") }
                for m in timetable.stopsMeant(by: s) where !result.contains(where: { $0.stop == Int32(m) }) {
                    result.append(Access(stop: Int32(m), offset: 0, via: Int32(m), distance: 0))
                }
            }
            return result
        case .coordinate(let lat, let lon):
            guard (-90...90).contains(lat), (-180...180).contains(lon) else {
                throw .invalidArgument("\(name): (\(lat), \(lon)) is not a coordinate")
            }
            if let b = timetable.bounds {
                let near = Walking.distance(
                    lat1: lat, lon1: lon, lat2: min(max(lat, b.minLat), b.maxLat),
                    lon2: min(max(lon, b.minLon), b.maxLon))
                guard near <= PlanQuery.maxDistanceOutsideStops else {
                    throw .invalidArgument(
                        "\(name): (\(lat), \(lon)) is \(Int(near / 1000)) km outside the area of the feed's stops (at most 5 km)"
                    )
                }
            }
            var result: [Access] = []
            for (i, s) in timetable.stops.enumerated() where s.served {
                guard let slat = s.lat, let slon = s.lon else { continue }
                let d = Walking.distance(lat1: lat, lon1: lon, lat2: slat, lon2: slon)
                if d <= query.accessRadius {
                    result.append(
                        Access(
                            stop: Int32(i), offset: Int32(Walking.seconds(metres: d, speed: query.walkSpeed)), via: -1,
                            distance: d))
                }
            }
            return result
        }
    }

    /// The destination's stops with the one walk allowed after the last trip (reached from any stop with a
    /// footpath into one of them); a coordinate's stops with their walk.
    static func finalWalks(_ place: [Access], timetable: Timetable, query: PlanQuery, reverse: Bool)
        -> [RaptorSearch.Endpoint]
    {
        var result = place.map {
            RaptorSearch.Endpoint(stop: $0.stop, offset: $0.offset, via: $0.via, distance: $0.distance)
        }
        var generated: [FootpathGraph.Edge] = []
        for d in place where d.via == d.stop {
            generated.removeAll(keepingCapacity: true)
            timetable.footpaths.generate(Int(d.stop), incoming: true, radius: query.walkRadius, into: &generated)
            for e in timetable.footpaths.incoming(Int(d.stop)) + generated {
                guard let w = FootpathGraph.time(e, radius: query.walkRadius, speed: query.walkSpeed) else { continue }
                result.append(RaptorSearch.Endpoint(stop: e.stop, offset: w, via: d.stop, distance: e.distance))
            }
        }
        return result
    }

    /// A frame's legs as a journey in real time and travel order.
    static func journey(_ frameLegs: [RaptorSearch.FrameLeg], search: RaptorSearch) -> Journey {
        let timetable = search.timetable
        var legs: [Leg] = []
        for leg in frameLegs {
            switch leg {
            case .walk(let from, let to, let distance, let duration):
                let a = from >= 0 ? Int(from) : nil, b = to >= 0 ? Int(to) : nil
                legs.append(
                    .walk(
                        WalkLeg(
                            from: search.reverse ? b : a, to: search.reverse ? a : b, distance: distance,
                            duration: Int(duration))))
            case .transit(let r, let trip, let board, let alight):
                let route = timetable.forward.routes[Int(r)]
                let n = route.stopCount, m = route.tripCount
                let t = search.reverse ? m - 1 - Int(trip) : Int(trip)
                let b = search.reverse ? n - 1 - Int(alight) : Int(board)
                let a = search.reverse ? n - 1 - Int(board) : Int(alight)
                let run = Int(route.runs[t])
                legs.append(
                    .transit(
                        TransitLeg(
                            run: run, boardStop: Int(route.stops[b]), alightStop: Int(route.stops[a]), boardPosition: b,
                            alightPosition: a, departure: timetable.epoch + Int64(route.departure(t * n + b)),
                            arrival: timetable.epoch + Int64(route.arrival(t * n + a)),
                            isLive: timetable.isLive(run: run))))
            }
        }
        if search.reverse { legs.reverse() }
        var departure: Int64 = 0, arrival: Int64 = 0, rides = 0
        if let i = legs.firstIndex(where: { if case .transit = $0 { true } else { false } }),
            case .transit(let first) = legs[i]
        {
            departure = first.departure - Int64(legs[..<i].reduce(0) { $0 + walkDuration($1) })
        }
        if let i = legs.lastIndex(where: { if case .transit = $0 { true } else { false } }),
            case .transit(let last) = legs[i]
        {
            arrival = last.arrival + Int64(legs[(i + 1)...].reduce(0) { $0 + walkDuration($1) })
        }
        for leg in legs { if case .transit = leg { rides += 1 } }
        return Journey(departure: departure, arrival: arrival, transfers: max(0, rides - 1), legs: legs)
    }

    private static func walkDuration(_ leg: Leg) -> Int { if case .walk(let w) = leg { w.duration } else { 0 } }
}

/// The arrays of a search, kept between the queries of one thread so that a query does not allocate and clear
/// rounds × stops labels (tens of MiB at NSW scale). Not thread-safe: one per worker thread.
public final class PlannerWorkspace {
    var search: RaptorSearch?
    /// The work each query's trip bounds may take (`TripsLeft`): more finds deeper levels and prunes more, at a cost
    /// per query. The default is what measured fastest at NSW scale; tests pass small ones to reach every depth, and
    /// a negative one finds none (the search then prunes nothing by trips: the bench's check of the pruning).
    let tripsLeftBudget: Int
    public static let defaultTripsLeftBudget = 100_000
    /// Whether the search prunes by the landmarks' bounds on the time left (`Landmarks`); off only for checks.
    let landmarkBounds: Bool

    public init(tripsLeftBudget: Int = PlannerWorkspace.defaultTripsLeftBudget, landmarkBounds: Bool = true) {
        self.tripsLeftBudget = tripsLeftBudget
        self.landmarkBounds = landmarkBounds
    }

    static func search(
        _ workspace: PlannerWorkspace?, timetable: Timetable, reverse: Bool, options: RaptorSearch.Options
    ) -> RaptorSearch {
        guard let workspace else {
            return RaptorSearch(
                timetable: timetable, reverse: reverse, options: options,
                tripsLeftBudget: PlannerWorkspace.defaultTripsLeftBudget, landmarkBounds: true)
        }
        if let search = workspace.search {
            search.prepare(timetable: timetable, reverse: reverse, options: options)
            return search
        }
        let search = RaptorSearch(
            timetable: timetable, reverse: reverse, options: options, tripsLeftBudget: workspace.tripsLeftBudget,
            landmarkBounds: workspace.landmarkBounds)
        workspace.search = search
        return search
    }
}
