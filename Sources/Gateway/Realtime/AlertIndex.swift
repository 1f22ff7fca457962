import GatewayProtocol
import TransitModel

/// The alerts of the live state indexed for per-row matching (GATEWAY.md "alert_ids"): built once per change
/// of the alert set, so a board row costs a few dictionary look-ups, not a pass over every alert.
///
/// Each informed entity is filed once, under its most selective field (trip, else stop, else route, else
/// route type, else agency); a row looks in the buckets of its own trip, stop, parent station, route, route
/// type and agency and checks each entity found with `AlertMatcher.selects` (every field it sets must hold).
struct AlertIndex: Sendable {
    /// One informed entity of `records[alert]`.
    struct Entry: Sendable {
        var alert: Int
        var entity: AlertView.InformedEntity
    }

    /// A trip stop as an `AlertSubject`, its fields copied (departure rows are matched in place:
    /// `DepartureRowSubject`).
    struct Row: AlertSubject {
        var stopId: String
        var parentStation: String?
        var routeId: String
        var routeType: Int
        var agencyId: String?
        var directionId: Int?
        var tripId: String
        /// When the row's vehicle leaves (its own departure time): the alert must be active then.
        var time: Int64
        /// Alerts the row names itself (its trip's detour: Modification.service_alert_id), by feed entity id:
        /// they apply whatever their informed entities say, while active.
        var linkedAlertIds: [String] = []
    }

    private(set) var records: [AlertRecord] = []
    private var byTrip = Buckets<String>()
    private var byStop = Buckets<String>()
    private var byRoute = Buckets<String>()
    private var byRouteType = Buckets<Int>()
    private var byAgency = Buckets<String>()

    init(_ records: [AlertRecord] = []) {
        self.records = records
        for (index, record) in records.enumerated() {
            for entity in record.informedEntities {
                let entry = Entry(alert: index, entity: entity)
                if let trip = entity.tripId {
                    byTrip.append(entry, to: trip)
                } else if let stop = entity.stopId {
                    byStop.append(entry, to: stop)
                } else if let route = entity.routeId {
                    byRoute.append(entry, to: route)
                } else if let type = entity.routeType {
                    byRouteType.append(entry, to: type)
                } else if let agency = entity.agencyId {
                    byAgency.append(entry, to: agency)
                }  // an entity naming none of these (a direction alone) selects nothing
            }
        }
    }

    var isEmpty: Bool { records.isEmpty }

    /// The positions in `records` of the alerts that apply to `row`, ascending, no repeats.
    func alerts(for row: some AlertSubject) -> [Int] {
        guard !records.isEmpty else { return [] }
        var found: [Int] = []
        func scan(_ entries: [Entry]?) {
            guard let entries else { return }
            for entry in entries where !found.contains(entry.alert) {
                guard AlertMatcher.selects(entry.entity, row), records[entry.alert].isActive(at: row.time) else {
                    continue
                }
                found.append(entry.alert)
            }
        }
        // Empty buckets are not looked in (each look-up hashes an id).
        if !byTrip.isEmpty { scan(byTrip[row.tripId]) }
        if !byStop.isEmpty {
            scan(byStop[row.stopId])
            if let parent = row.parentStation, parent != row.stopId { scan(byStop[parent]) }
        }
        if !byRoute.isEmpty { scan(byRoute[row.routeId]) }
        if !byRouteType.isEmpty { scan(byRouteType[row.routeType]) }
        if !byAgency.isEmpty, let agency = row.agencyId { scan(byAgency[agency]) }
        for id in row.linkedAlertIds {
            for (index, record) in records.enumerated()
            where record.id == id && !found.contains(index) && record.isActive(at: row.time) {
                found.append(index)
            }
        }
        if found.count < 2 { return found }
        return found.sorted()
    }
}

/// What an informed entity is checked against (`AlertMatcher.selects`): a row's stop, route, trip and time.
/// Generic rather than one struct, so departure rows are matched in place (`DepartureRowSubject`): copying their
/// strings into an `AlertIndex.Row` was a retain and a release of each, on strings both event loops share.
protocol AlertSubject {
    var stopId: String { get }
    var parentStation: String? { get }
    var routeId: String { get }
    var routeType: Int { get }
    var agencyId: String? { get }
    var directionId: Int? { get }
    var tripId: String { get }
    /// When the row's vehicle leaves (its own departure time): the alert must be active then.
    var time: Int64 { get }
    /// Alerts the row names itself (its trip's detour), by feed entity id: they apply while active.
    var linkedAlertIds: [String] { get }
}

/// A departure row (a board's, a journey leg's) as an `AlertSubject`, its fields read from its departure.
struct DepartureRowSubject: AlertSubject {
    let departure: Departure
    let parentStation: String?
    let time: Int64
    let linkedAlertIds: [String]

    init(_ row: DepartureRow, parentStation: String?) {
        departure = row.departure
        self.parentStation = parentStation
        time = row.time
        linkedAlertIds = row.detour?.alertIds ?? []
    }

    var stopId: String { _read { yield departure.stopId } }
    var routeId: String { _read { yield departure.route.routeId } }
    var routeType: Int { departure.route.routeType }
    var agencyId: String? { _read { yield departure.route.agencyId } }
    var directionId: Int? { departure.directionId }
    var tripId: String { _read { yield departure.tripId } }
}

/// The alerts a board or trip carries once (`data.alerts`) and the ids each of its rows names (`alert_ids`).
struct RowAlerts {
    var views: [AlertView] = []
    var idsByRow: [[String]] = []

    /// `rows` matched against `index`: the alerts in the order the `alerts` op gives them (severity, then id).
    init<Subject: AlertSubject>(_ rows: [Subject], index: AlertIndex, language: String? = nil) {
        guard !index.isEmpty else {
            idsByRow = Array(repeating: [], count: rows.count)
            return
        }
        var used = Set<Int>()
        var perRow: [[Int]] = []
        perRow.reserveCapacity(rows.count)
        for row in rows {
            let found = index.alerts(for: row)
            used.formUnion(found)
            perRow.append(found)
        }
        guard !used.isEmpty else {
            idsByRow = Array(repeating: [], count: rows.count)
            return
        }
        let records = index.records
        let order = used.sorted {
            (AlertMatcher.rank(records[$0].severity), records[$0].id)
                < (AlertMatcher.rank(records[$1].severity), records[$1].id)
        }
        views = order.map { records[$0].view(language: language) }
        idsByRow = perRow.map { found in
            order.filter { found.contains($0) }.map { records[$0].id }
        }
    }
}

/// An alert index's entries by one field. A live state carries a handful of alerts, naming a few ids: up to
/// `linearLimit` ids are compared one by one, which is cheaper than hashing the row's id for a dictionary
/// (every row of every board is looked up; hashing was most of the alerts' cost per board). More ids go in
/// a dictionary.
struct Buckets<Key: Hashable & Sendable>: Sendable {
    static var linearLimit: Int { 8 }
    private var few: [(key: Key, entries: [AlertIndex.Entry])] = []
    private var many: [Key: [AlertIndex.Entry]] = [:]

    var isEmpty: Bool { few.isEmpty && many.isEmpty }

    mutating func append(_ entry: AlertIndex.Entry, to key: Key) {
        if !many.isEmpty {
            many[key, default: []].append(entry)
        } else if let i = few.firstIndex(where: { $0.key == key }) {
            few[i].entries.append(entry)
        } else if few.count < Self.linearLimit {
            few.append((key, [entry]))
        } else {
            many = Dictionary(uniqueKeysWithValues: few.map { ($0.key, $0.entries) })
            few = []
            many[key] = [entry]
        }
    }

    subscript(key: Key) -> [AlertIndex.Entry]? {
        if many.isEmpty {
            for bucket in few where bucket.key == key { return bucket.entries }
            return nil
        }
        return many[key]
    }
}
