import SQLiteKit
import TransitCore
import TransitModel

/// Columns every stop-returning query selects (`StopRow.select` + a WHERE clause).
struct StopRow {
    static let select = """
        SELECT s.stop_pk, s.stop_id, s.code, s.name, s.lat, s.lon, s.location_type, s.parent_pk, p.stop_id,
               s.platform_code, s.wheelchair_boarding, p.wheelchair_boarding, s.primary_route_type, s.primary_mode,
               COALESCE(s.timezone, p.timezone), s.feed_pk, s.mode_mask, s.trip_count
        FROM stops s LEFT JOIN stops p ON p.stop_pk = s.parent_pk
        """

    let pk: Int
    let parentPk: Int?
    let modeMask: Int
    let tripCount: Int
    var stop: Stop

    init(_ s: Statement, catalog: StoreCatalog) {
        pk = s.int(0)
        parentPk = s.optionalInt(7)
        modeMask = s.int(16)
        tripCount = s.int(17)
        // GTFS: a platform's wheelchair_boarding 0 means "inherit from the parent station".
        var wheelchair = s.int(10)
        if wheelchair == 0, parentPk != nil { wheelchair = s.optionalInt(11) ?? 0 }
        let timezone = s.string(14) ?? catalog.zone(ofFeedPk: s.int(15)).identifier
        let primary = s.optionalInt(12)
        stop = Stop(
            stopId: s.string(1) ?? "", code: s.string(2), name: s.string(3) ?? "",
            lat: s.optionalDouble(4) ?? 0, lon: s.optionalDouble(5) ?? 0, locationType: s.int(6),
            parentStation: s.string(8), platformCode: s.string(9), wheelchairBoarding: wheelchair,
            primaryRouteType: primary, mode: s.string(13) ?? primary.map { Mode(routeType: $0).rawValue },
            timezone: timezone)
    }
}

extension StaticStore {
    /// A stop (or station) by id, with its parent, its platforms (children of location_type 0) and the
    /// routes serving it (a station's include its platforms' routes) in natural route order.
    public func stop(id: String) throws(StoreError) -> StopResult {
        try run { c in
            let byId = try c.statement(StopRow.select + " WHERE s.stop_id = ?1")
            byId.bind(1, id)
            guard try byId.step() else { throw StoreError.notFound("stop \(id)") }
            let row = StopRow(byId, catalog: catalog)

            var parent: Stop?
            if let parentPk = row.parentPk {
                parent = try loadStop(c, pk: parentPk)?.stop
            }

            let children = try c.statement(StopRow.select + " WHERE s.parent_pk = ?1 AND s.location_type = 0")
            children.bind(1, row.pk)
            var platforms: [Stop] = []
            while try children.step() { platforms.append(StopRow(children, catalog: catalog).stop) }
            platforms.sort { a, b in
                let order = NaturalSort.compare(a.platformCode ?? a.name, b.platformCode ?? b.name)
                return order == .orderedSame ? a.stopId < b.stopId : order == .orderedAscending
            }

            return StopResult(
                stop: row.stop, parent: parent, platforms: platforms, routes: try routesServing(c, stopPk: row.pk))
        }
    }

    /// The stops of `ids` that the database has, by id (a plan's walks and its rides on added trips are named from
    /// them).
    public func stops(ids: some Sequence<String>) throws(StoreError) -> [String: Stop] {
        try run { c in
            let byId = try c.statement(StopRow.select + " WHERE s.stop_id = ?1")
            var stops: [String: Stop] = [:]
            for id in ids where stops[id] == nil {
                byId.reset()
                byId.bind(1, id)
                if try byId.step() { stops[id] = StopRow(byId, catalog: catalog).stop }
            }
            return stops
        }
    }

    func loadStop(_ c: StoreConnection, pk: Int) throws -> StopRow? {
        let byPk = try c.statement(StopRow.select + " WHERE s.stop_pk = ?1")
        byPk.bind(1, pk)
        return try byPk.step() ? StopRow(byPk, catalog: catalog) : nil
    }

    func routesServing(_ c: StoreConnection, stopPk: Int) throws -> [Route] {
        let statement = try c.statement("SELECT route_pk FROM stop_routes WHERE stop_pk = ?1")
        statement.bind(1, stopPk)
        var pks: Set<Int> = []
        while try statement.step() { pks.insert(statement.int(0)) }
        return catalog.sortedRoutes(pks)
    }
}
