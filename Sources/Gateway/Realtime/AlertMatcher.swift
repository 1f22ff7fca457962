import GatewayProtocol
import TransitModel

/// Which alerts concern a stop, a route or a trip (GATEWAY.md "alerts"): an informed-entity selector matches
/// when every field it sets is satisfied by what the static service says about the asked entity.
struct AlertMatcher {
    /// What an informed entity's fields are checked against.
    struct Subject {
        var stopIds: Set<String> = []
        var routeIds: Set<String> = []
        var routeTypes: Set<Int> = []
        var agencyIds: Set<String> = []
        /// nil: any direction of a matching route.
        var directionIds: Set<Int>?
        var tripIds: Set<String> = []
        /// A route query: selectors naming a trip never match, and one naming a stop only together with the
        /// route's own id (the alert then concerns the route at that stop).
        var routeOnly = false
    }

    let subject: Subject

    /// A stop query: the stop, its parent station and its platforms; the routes serving them; the trips with
    /// live data at them.
    static func stop(_ result: StopResult, liveTrips: Set<String>) -> AlertMatcher {
        var s = Subject()
        s.stopIds.insert(result.stop.stopId)
        if let parent = result.parent { s.stopIds.insert(parent.stopId) }
        if let parent = result.stop.parentStation { s.stopIds.insert(parent) }
        for platform in result.platforms { s.stopIds.insert(platform.stopId) }
        s.add(routes: result.routes)
        s.tripIds = liveTrips
        return AlertMatcher(subject: s)
    }

    static func route(_ route: Route) -> AlertMatcher {
        var s = Subject()
        s.add(routes: [route])
        s.routeOnly = true
        return AlertMatcher(subject: s)
    }

    /// A trip query: its trip, route (type, agency) and direction, and the stops it serves (with their stations).
    static func trip(_ trip: TripDetail) -> AlertMatcher {
        var s = Subject()
        s.add(routes: [trip.route])
        s.directionIds = trip.directionId.map { [$0] } ?? []
        s.tripIds = [trip.tripId]
        for stop in trip.stops {
            s.stopIds.insert(stop.stopId)
            if let parent = stop.parentStation { s.stopIds.insert(parent) }
        }
        return AlertMatcher(subject: s)
    }

    /// With the static service down: only the given id itself.
    static func idOnly(_ selector: AlertsQuery.Selector) -> AlertMatcher {
        var s = Subject()
        switch selector {
        case .stop(let id): s.stopIds = [id]
        case .route(let id): s.routeIds = [id]; s.routeOnly = true
        case .trip(let id): s.tripIds = [id]
        }
        return AlertMatcher(subject: s)
    }

    /// How an informed entity concerns the subject.
    enum Match: Equatable {
        case whole
        /// A route query: the route at this stop only.
        case atStop(String)
    }

    func matches(_ e: AlertView.InformedEntity) -> Bool { match(e) != nil }

    func match(_ e: AlertView.InformedEntity) -> Match? {
        let setsSomething =
            e.stopId != nil || e.routeId != nil || e.routeType != nil || e.agencyId != nil
            || e.tripId != nil || e.directionId != nil
        guard setsSomething else { return nil }
        var result = Match.whole
        if subject.routeOnly {
            guard e.tripId == nil, e.routeId != nil || e.routeType != nil || e.agencyId != nil else { return nil }
            if let stop = e.stopId {
                guard let route = e.routeId, subject.routeIds.contains(route) else { return nil }
                result = .atStop(stop)
            }
        } else if let stop = e.stopId, !subject.stopIds.contains(stop) {
            return nil
        }
        if let route = e.routeId, !subject.routeIds.contains(route) { return nil }
        if let type = e.routeType, !subject.routeTypes.contains(type) { return nil }
        if let agency = e.agencyId, !subject.agencyIds.contains(agency) { return nil }
        if let trip = e.tripId, !subject.tripIds.contains(trip) { return nil }
        if let direction = e.directionId, let directions = subject.directionIds, !directions.contains(direction) {
            return nil
        }
        return result
    }

    /// Whether an informed entity selects one departure row or trip stop (the GTFS-Realtime EntitySelector
    /// rule: every field it sets must hold; a stop matches the row's stop or its parent station; a direction
    /// matches any row whose direction is unknown). An entity setting nothing selects nothing. The alerts of a
    /// row are those with some entity selecting it (`AlertIndex`).
    static func selects(_ e: AlertView.InformedEntity, _ row: some AlertSubject) -> Bool {
        guard e.stopId != nil || e.routeId != nil || e.routeType != nil || e.agencyId != nil || e.tripId != nil
        else { return false }
        if let stop = e.stopId, stop != row.stopId, stop != row.parentStation { return false }
        if let route = e.routeId, route != row.routeId { return false }
        if let type = e.routeType, type != row.routeType { return false }
        if let agency = e.agencyId, agency != row.agencyId { return false }
        if let trip = e.tripId, trip != row.tripId { return false }
        if let direction = e.directionId, let own = row.directionId, direction != own { return false }
        return true
    }

    /// The active alerts with a matching entity, in the chosen language, by severity then id. An alert whose
    /// matches all name a stop carries those stops (`limitedToStopIds`).
    func alerts(in records: [AlertRecord], at: Int64, language: String?) -> [AlertView] {
        var found: [(record: AlertRecord, stops: [String])] = []
        for record in records where record.isActive(at: at) {
            var whole = false
            var stops = Set<String>()
            for entity in record.informedEntities {
                switch match(entity) {
                case .whole?: whole = true
                case .atStop(let stop)?: stops.insert(stop)
                case nil: break
                }
            }
            guard whole || !stops.isEmpty else { continue }
            found.append((record, whole ? [] : stops.sorted()))
        }
        return
            found
            .sorted { (Self.rank($0.record.severity), $0.record.id) < (Self.rank($1.record.severity), $1.record.id) }
            .map {
                var view = $0.record.view(language: language)
                view.limitedToStopIds = $0.stops
                return view
            }
    }

    static func rank(_ severity: String) -> Int {
        switch severity {
        case "SEVERE": return 0
        case "WARNING": return 1
        case "INFO": return 2
        default: return 3
        }
    }
}

extension AlertMatcher.Subject {
    mutating func add(routes: [Route]) {
        for route in routes {
            routeIds.insert(route.routeId)
            routeTypes.insert(route.routeType)
            if let agency = route.agencyId { agencyIds.insert(agency) }
        }
    }
}
