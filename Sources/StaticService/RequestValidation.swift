import TransitCore
import TransitModel

/// Checks the ranges of `StaticRequestLimits`; deeper checks (mode names, cursor contents, the bulk date
/// span) happen in `StaticStore`, which reports them as invalid arguments too.
enum RequestValidation {
    static func validate(_ query: StaticQuery) throws(ServiceError) {
        switch query {
        case .stop(let q):
            try checkId(q.stopId, "stop_id")
        case .search(let q):
            try checkLimit(q.limit)
            guard q.query.utf8.count <= StaticRequestLimits.maxSearchBytes else {
                throw invalid(
                    "field \"q\": at most \(StaticRequestLimits.maxSearchBytes) bytes, got \(q.query.utf8.count)")
            }
        case .nearby(let q):
            try checkLimit(q.limit)
            guard q.lat.isFinite, (-90.0...90.0).contains(q.lat) else {
                throw invalid("field \"lat\": expected a number from -90 to 90, got \(q.lat)")
            }
            guard q.lon.isFinite, (-180.0...180.0).contains(q.lon) else {
                throw invalid("field \"lon\": expected a number from -180 to 180, got \(q.lon)")
            }
            guard q.radiusMetres.isFinite, q.radiusMetres > 0, q.radiusMetres <= StaticRequestLimits.maxRadiusMetres
            else {
                throw invalid(
                    "field \"radius_m\": expected a number > 0 and <= \(Int(StaticRequestLimits.maxRadiusMetres)), got \(q.radiusMetres)"
                )
            }
        case .routes:
            break
        case .departures(let q):
            try checkId(q.stopId, "stop_id")
            try checkLimit(q.limit)
            try checkAt(q.at)
            if let routeId = q.routeId { try checkId(routeId, "route_id") }
            if let cursor = q.cursor, cursor.utf8.count > StaticRequestLimits.maxCursorBytes {
                throw invalid("field \"cursor\": not a cursor of this service (\(cursor.utf8.count) bytes)")
            }
        case .trip(let q):
            try checkId(q.tripId, "trip_id")
            try checkAt(q.at)
            if let date = q.serviceDate { try checkDate(date, "date") }
        case .tripSchedules(let q):
            guard !q.tripIds.isEmpty || !q.descriptors.isEmpty else {
                throw invalid("field \"trip_ids\": expected at least one trip id or descriptor")
            }
            for (i, d) in q.descriptors.enumerated() {
                try checkId(d.routeId, "descriptors[\(i)].route_id")
                try checkDate(d.startDate, "descriptors[\(i)].start_date")
            }
            try checkDate(q.fromDate, "from_date")
            try checkDate(q.toDate, "to_date")
            guard q.fromDate <= q.toDate else {
                throw invalid("from_date \(q.fromDate) is after to_date \(q.toDate)")
            }
            if !q.knownPatternIds.isEmpty {
                guard let version = q.knownDatabaseVersion, !version.isEmpty else {
                    throw invalid(
                        "field \"known_pattern_ids\": needs known_database_version (the database_version they came with)"
                    )
                }
                guard version.utf8.count <= StaticRequestLimits.maxIdBytes else {
                    throw invalid(
                        "field \"known_database_version\": at most \(StaticRequestLimits.maxIdBytes) bytes, got \(version.utf8.count)"
                    )
                }
            }
        case .feedInfo:
            break
        case .shape(let q):
            guard (q.shapeId == nil) != (q.tripId == nil) else {
                throw invalid("expected exactly one of \"shape_id\" and \"trip_id\"")
            }
            if let id = q.shapeId { try checkId(id, "shape_id") }
            if let id = q.tripId { try checkId(id, "trip_id") }
        case .route(let q):
            try checkId(q.routeId, "route_id")
        case .stopsInBBox(let q):
            try checkLimit(q.limit)
            if let problem = q.problem { throw invalid(problem) }
        case .plan(let q):
            try checkPlan(q)
        }
    }

    /// The ranges of `plan` (GATEWAY.md "plan"; the gateway checks them first, with the same messages).
    private static func checkPlan(_ q: PlanRequest) throws(ServiceError) {
        func check<T: Comparable>(_ name: String, _ value: T, _ range: ClosedRange<T>) throws(ServiceError) {
            guard range.contains(value) else {
                throw invalid(
                    "field \"\(name)\": expected a number from \(range.lowerBound) to \(range.upperBound), got \(value)"
                )
            }
        }
        try check("max_transfers", Int64(q.maxTransfers), PlanLimits.maxTransfers)
        try check("transfer_slack_s", Int64(q.transferSlackSeconds), PlanLimits.transferSlack)
        try check("walk_radius_m", q.walkRadiusMetres, PlanLimits.walkRadius)
        try check("walk_speed_mps", q.walkSpeed, PlanLimits.walkSpeed)
        try check("access_radius_m", q.accessRadiusMetres, PlanLimits.accessRadius)
        try check("window_s", Int64(q.windowSeconds), PlanLimits.window)
        try check("limit", Int64(q.limit), PlanLimits.limit)
        try check("budget_ms", q.budgetMilliseconds, PlanLimits.budgetMilliseconds)
        try checkAt(q.at)
        try checkAt(q.arriveBy)
        if q.at != nil && q.arriveBy != nil { throw invalid("fields \"at\" and \"arrive_by\": give one of them") }
        if q.arriveBy != nil && q.windowSeconds > 0 { throw invalid("field \"window_s\": not with \"arrive_by\"") }
        if q.from == q.to { throw invalid("fields \"from\" and \"to\": the same place") }
        for (name, place) in [("from", q.from), ("to", q.to)] {
            switch place {
            case .stop(let id): try checkId(id, name + ".stop_id")
            case .coordinate(let lat, let lon):
                guard lat.isFinite, (-90.0...90.0).contains(lat), lon.isFinite, (-180.0...180.0).contains(lon) else {
                    throw invalid("field \"\(name)\": (\(lat), \(lon)) is not a coordinate")
                }
            }
        }
    }

    private static func invalid(_ message: String) -> ServiceError { ServiceError(.invalidArgument, message) }

    private static func checkLimit(_ limit: Int) throws(ServiceError) {
        let range = StaticRequestLimits.limitRange
        guard range.contains(limit) else {
            throw invalid(
                "field \"limit\": expected an integer from \(range.lowerBound) to \(range.upperBound), got \(limit)")
        }
    }

    private static func checkId(_ id: String, _ field: String) throws(ServiceError) {
        guard !id.isEmpty else { throw invalid("field \"\(field)\": must not be empty") }
        guard id.utf8.count <= StaticRequestLimits.maxIdBytes else {
            throw invalid("field \"\(field)\": at most \(StaticRequestLimits.maxIdBytes) bytes, got \(id.utf8.count)")
        }
    }

    private static func checkAt(_ at: Int64?) throws(ServiceError) {
        guard let at else { return }
        let range = StaticRequestLimits.atRange
        guard range.contains(at) else {
            throw invalid(
                "field \"at\": expected unix seconds from \(range.lowerBound) to \(range.upperBound), got \(at)")
        }
    }

    /// A real calendar day written YYYYMMDD (20250230 is not one).
    static func checkDate(_ value: ServiceDate, _ field: String) throws(ServiceError) {
        let year = Int(value / 10_000), month = Int(value / 100 % 100), day = Int(value % 100)
        guard (1900...2199).contains(year), (1...12).contains(month),
            (1...CivilCalendar.daysInMonth(year: year, month: month)).contains(day)
        else {
            throw invalid("field \"\(field)\": expected a date YYYYMMDD, got \(value)")
        }
    }
}
