import GTFSCSV
import SQLiteKit
import TransitCore

extension ImportBuilder {
    /// routes.txt: inserts routes (trip counts are filled in at the end).
    func importRoutes(_ feed: FeedContext) throws {
        guard let (reader, tally) = try open(feed, "routes.txt") else { return }
        let id = try reader.required("route_id")
        let agency = reader.column("agency_id")
        let shortName = reader.column("route_short_name")
        let longName = reader.column("route_long_name")
        let desc = reader.column("route_desc")
        let type = try reader.required("route_type")
        let url = reader.column("route_url")
        let color = reader.column("route_color")
        let textColor = reader.column("route_text_color")
        let sortOrder = reader.column("route_sort_order")
        let insert = try db.prepare(
            """
            INSERT INTO routes (route_pk, route_id, feed_pk, agency_pk, short_name, long_name, desc, route_type,
                                mode, url, color, text_color, sort_order)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        while try reader.next() {
            tally.read += 1
            let given = try reader.string(id)
            if given.isEmpty { throw reader.missingValue(id) }
            let routeID = feed.prefixed(given)
            if feed.routes[routeID] != nil {
                try reject("duplicate route_id", reader, id, tally)
                continue
            }
            if let owner = routeOwners[routeID] {
                throw collision("route_id", routeID, feed: feed, owner: owner, reader: reader, column: id)
            }
            let agencyID = try reader.string(agency)
            let agencyPk: Int
            if agencyID.isEmpty {
                agencyPk = feed.firstAgencyPk ?? 0
            } else if let pk = feed.agencies[feed.prefixed(agencyID)] {
                agencyPk = pk
            } else {
                try reject("unknown agency_id", reader, agency, tally)
                continue
            }
            let routeType = try reader.requiredInt(type)
            let mode = Mode(routeType: routeType)
            let pk = routes.count + 1
            try insert.bind([
                pk, routeID, feed.feedPk, agencyPk, reader.optionalString(shortName),
                reader.optionalString(longName), reader.optionalString(desc), routeType, mode.rawValue,
                reader.optionalString(url), reader.optionalString(color),
                reader.optionalString(textColor), try reader.int(sortOrder),
            ])
            try insert.run()
            routes.append(RouteInfo(routeType: routeType, mode: mode))
            feed.routes[routeID] = pk
            routeOwners[routeID] = feed.index
            tally.imported += 1
            feed.counts.routes += 1
        }
    }

    /// A service id of `feed` -> service_pk, registering it (calendar and calendar_dates share services).
    private func servicePk(
        _ serviceID: String, _ feed: FeedContext, _ reader: CSVReader,
        _ column: CSVColumn, insert: Statement
    ) throws -> Int {
        if let pk = feed.services[serviceID] { return pk }
        if let owner = serviceOwners[serviceID] {
            throw collision("service_id", serviceID, feed: feed, owner: owner, reader: reader, column: column)
        }
        let pk = nextServicePk
        nextServicePk += 1
        try insert.bind([pk, serviceID, feed.feedPk])
        try insert.run()
        feed.services[serviceID] = pk
        serviceOwners[serviceID] = feed.index
        feed.counts.services += 1
        return pk
    }

    /// calendar.txt and calendar_dates.txt.
    func importCalendars(_ feed: FeedContext) throws {
        let insertService = try db.prepare("INSERT INTO services (service_pk, service_id, feed_pk) VALUES (?, ?, ?)")
        var withCalendar = Set<Int>()
        if let (reader, tally) = try open(feed, "calendar.txt") {
            let id = try reader.required("service_id")
            let days = try ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
                .map { try reader.required($0) }
            let start = try reader.required("start_date")
            let end = try reader.required("end_date")
            let insert = try db.prepare(
                """
                INSERT INTO calendar (service_pk, monday, tuesday, wednesday, thursday, friday, saturday, sunday,
                                      start_date, end_date)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            while try reader.next() {
                tally.read += 1
                let given = try reader.string(id)
                if given.isEmpty { throw reader.missingValue(id) }
                let pk = try servicePk(feed.prefixed(given), feed, reader, id, insert: insertService)
                if withCalendar.contains(pk) {
                    try reject("duplicate service_id", reader, id, tally)
                    continue
                }
                withCalendar.insert(pk)
                insert.bind(1, pk)
                for (offset, day) in days.enumerated() {
                    let flag = try reader.int(day, default: 0)
                    guard flag == 0 || flag == 1 else {
                        throw reader.error("bad day flag \(flag) (expected 0 or 1)", column: day)
                    }
                    insert.bind(Int32(offset + 2), flag)
                }
                guard let startDate = try reader.date(start) else { throw reader.missingValue(start) }
                guard let endDate = try reader.date(end) else { throw reader.missingValue(end) }
                insert.bind(9, startDate)
                insert.bind(10, endDate)
                try insert.run()
                feed.noteServiceDate(startDate)
                feed.noteServiceDate(endDate)
                tally.imported += 1
            }
        }
        if let (reader, tally) = try open(feed, "calendar_dates.txt") {
            let id = try reader.required("service_id")
            let date = try reader.required("date")
            let type = try reader.required("exception_type")
            let insert = try db.prepare(
                "INSERT OR IGNORE INTO calendar_dates (service_pk, date, exception_type) VALUES (?, ?, ?)")
            while try reader.next() {
                tally.read += 1
                let given = try reader.string(id)
                if given.isEmpty { throw reader.missingValue(id) }
                let pk = try servicePk(feed.prefixed(given), feed, reader, id, insert: insertService)
                guard let day = try reader.date(date) else { throw reader.missingValue(date) }
                let exception = try reader.requiredInt(type)
                guard exception == 1 || exception == 2 else {
                    throw reader.error("bad exception_type \(exception) (expected 1 or 2)", column: type)
                }
                try insert.bind([pk, day, exception])
                try insert.run()
                if db.changes == 0 {
                    try reject("duplicate service_id and date", reader, date, tally)
                    continue
                }
                if exception == 1 { feed.noteServiceDate(day) }
                tally.imported += 1
            }
        }
    }
}
