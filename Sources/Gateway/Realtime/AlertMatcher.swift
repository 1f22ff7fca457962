import TransitJSON
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
        /// A route query: selectors naming a stop or a trip never match.
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

    func matches(_ e: AlertView.InformedEntity) -> Bool {
        let setsSomething = e.stopId != nil || e.routeId != nil || e.routeType != nil || e.agencyId != nil
            || e.tripId != nil || e.directionId != nil
        guard setsSomething else { return false }
        if subject.routeOnly {
            guard e.stopId == nil, e.tripId == nil, e.routeId != nil || e.routeType != nil || e.agencyId != nil else { return false }
        }
        if let stop = e.stopId, !subject.stopIds.contains(stop) { return false }
        if let route = e.routeId, !subject.routeIds.contains(route) { return false }
        if let type = e.routeType, !subject.routeTypes.contains(type) { return false }
        if let agency = e.agencyId, !subject.agencyIds.contains(agency) { return false }
        if let trip = e.tripId, !subject.tripIds.contains(trip) { return false }
        if let direction = e.directionId, let directions = subject.directionIds, !directions.contains(direction) { return false }
        return true
    }

    /// The active alerts with a matching entity, in the chosen language, by severity then id.
    func alerts(in records: [AlertRecord], at: Int64, language: String?) -> [AlertView] {
        records
            .filter { $0.isActive(at: at) && $0.informedEntities.contains(where: matches) }
            .sorted { (Self.rank($0.severity), $0.id) < (Self.rank($1.severity), $1.id) }
            .map { $0.view(language: language) }
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
