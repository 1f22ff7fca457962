import GatewayProtocol
import TransitModel

// A NOT_FOUND that says what the rider probably meant, on every op that takes a stop or a route: a stop's name
// given as stop_id names the `search` op and its best match; a route's short name given as route_id ("T1")
// names the route_id ("ST_T1"); a trip asked on a date no feed covers names the feeds' dates. Asked only on the
// error path; the ordinary answer pays nothing.
extension RequestDispatcher {
    /// `error` with the hint its request calls for; unchanged when it is no NOT_FOUND of a stop or a route, or
    /// nothing matches.
    func hinted(_ error: GatewayError, _ request: GatewayRequest) async -> GatewayError {
        guard error.code == .notFound else { return error }
        let message = error.message
        if message.hasPrefix("stop ") || message.hasPrefix("unknown stop_id"), let stopId = Self.askedStopId(request.op)
        {
            return await withSearchHint(error, stopId: stopId)
        }
        if message.hasPrefix("route ") || message.hasPrefix("unknown route_id"),
            let routeId = Self.askedRouteId(request.op)
        {
            return await withRouteHint(error, routeId: routeId)
        }
        if message.hasPrefix("trip "), case .trip(let query) = request.op, let date = query.serviceDate {
            return await withValidityHint(error, date: date)
        }
        return error
    }

    /// An unknown route_id that is a route's short name (or long name), compared case-insensitively: the
    /// NOT_FOUND names that route's id. Unchanged when none matches or the routes cannot be asked.
    func withRouteHint(_ error: GatewayError, routeId: String) async -> GatewayError {
        guard case .success(.routes(let routes)) = await keptStaticResult(.routes(RoutesQuery())) else { return error }
        let asked = routeId.lowercased()
        let matches = routes.filter { $0.shortName?.lowercased() == asked || $0.longName?.lowercased() == asked }
        guard !matches.isEmpty else { return error }
        let named = matches.prefix(3).map { "\(quote($0.routeId)) (\($0.mode))" }.joined(separator: ", ")
        let more = matches.count > 3 ? " and \(matches.count - 3) more" : ""
        return GatewayError(
            .notFound,
            "\(error.message); route_id takes an id, not a route's name: \(quote(routeId)) is route_id \(named)\(more)")
    }

    static func askedStopId(_ op: GatewayOp) -> String? {
        switch op {
        case .stop(let q): q.stopId
        case .departures(let q): q.stopId
        case .subscribe(let q): q.stopId
        case .alerts(let q):
            if case .stop(let id) = q.selector { id } else { nil }
        case .reliability(let q): q.stopId
        default: nil
        }
    }

    static func askedRouteId(_ op: GatewayOp) -> String? {
        switch op {
        case .route(let q): q.routeId
        case .departures(let q): q.routeId
        case .alerts(let q):
            if case .route(let id) = q.selector { id } else { nil }
        case .vehicles(let q):
            if case .route(let id) = q.selector { id } else { nil }
        case .reliability(let q): q.routeId
        default: nil
        }
    }
}
