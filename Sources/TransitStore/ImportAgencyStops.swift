import Foundation
import GTFSCSV
import SQLiteKit

/// A stop as read from stops.txt, kept in memory until the schedule statistics are known.
struct StopRecord {
    var id: String
    var feed: Int
    var code: String?
    var name: String
    var ttsName: String?
    var desc: String?
    var lat: Double?
    var lon: Double?
    var zone: String?
    var url: String?
    var locationType: Int
    var parentID: String?
    var timezone: String?
    var wheelchair: Int
    var level: String?
    var platformCode: String?
    var line: Int
    /// Resolved after all feeds are read: index of the parent (-1 none) and of the board stop.
    var parent = -1
    var board = -1

    func sameContent(as other: StopRecord) -> Bool {
        code == other.code && name == other.name && lat == other.lat && lon == other.lon
            && locationType == other.locationType && parentID == other.parentID
            && platformCode == other.platformCode && wheelchair == other.wheelchair
    }
}

extension ImportBuilder {
    /// agency.txt: inserts agencies, registers their ids, sets the feed's timezone.
    func importAgencies(_ feed: FeedContext) throws {
        guard let (reader, tally) = try open(feed, "agency.txt") else { return }
        let id = reader.column("agency_id")
        let name = try reader.required("agency_name")
        let timezone = try reader.required("agency_timezone")
        let url = reader.column("agency_url")
        let lang = reader.column("agency_lang")
        let phone = reader.column("agency_phone")
        let fareURL = reader.column("agency_fare_url")
        let email = reader.column("agency_email")
        let insert = try db.prepare(
            """
            INSERT INTO agency (agency_id, feed_pk, name, url, timezone, lang, phone, fare_url, email)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        while try reader.next() {
            tally.read += 1
            // A feed with a single agency may omit agency_id: the agency then takes the feed's name.
            let given = try reader.string(id)
            let agencyID = feed.prefixed(given.isEmpty ? feed.name : given)
            if feed.agencies[agencyID] != nil {
                try reject("duplicate agency_id", reader, id, tally)
                continue
            }
            let agencyName = try reader.string(name)
            let zone = try reader.string(timezone)
            if zone.isEmpty { throw reader.missingValue(timezone) }
            guard TimeZone(identifier: zone) != nil else {
                throw reader.error("unknown time zone \"\(zone)\"", column: timezone)
            }
            if let owner = agencyOwners[agencyID] {
                // The same operator in two feeds of one network (per-mode feeds share agencies as they share
                // stops): one agency, the first feed's row, when name and timezone agree. Otherwise the ids
                // collide like route ids do.
                guard let shared = agencyRecords[agencyID], shared.name == agencyName,
                    shared.timezone == zone
                else {
                    throw collision("agency_id", agencyID, feed: feed, owner: owner, reader: reader, column: id)
                }
                feed.agencies[agencyID] = shared.pk
                if feed.firstAgencyPk == nil {
                    feed.firstAgencyPk = shared.pk
                    feed.timezone = zone
                }
                tally.skip("agency_id already defined by an earlier feed (same name and timezone; shared)")
                continue
            }
            try insert.bind([
                agencyID, feed.feedPk, agencyName, reader.optionalString(url), zone,
                reader.optionalString(lang), reader.optionalString(phone),
                reader.optionalString(fareURL), reader.optionalString(email),
            ])
            try insert.run()
            let pk = Int(db.lastInsertRowID)
            feed.agencies[agencyID] = pk
            agencyOwners[agencyID] = feed.index
            agencyRecords[agencyID] = (pk, agencyName, zone)
            if feed.firstAgencyPk == nil {
                feed.firstAgencyPk = pk
                feed.timezone = zone
            }
            tally.imported += 1
            feed.counts.agencies += 1
        }
        if feed.firstAgencyPk == nil {
            throw ImportError("\(reader.fileName): no agency (agency.txt needs at least one row)")
        }
    }

    /// feed_info.txt (optional): publisher, version, validity.
    func importFeedInfo(_ feed: FeedContext) throws {
        guard let (reader, tally) = try open(feed, "feed_info.txt") else { return }
        let names = [
            "feed_publisher_name", "feed_publisher_url", "feed_lang", "default_lang", "feed_version",
            "feed_contact_email", "feed_contact_url",
        ]
        let columns = names.map { reader.column($0) }
        let start = reader.column("feed_start_date")
        let end = reader.column("feed_end_date")
        if try reader.next() {
            tally.read += 1
            for (name, column) in zip(names, columns) { feed.info[name] = try reader.optionalString(column) }
            feed.infoStartDate = try reader.date(start)
            feed.infoEndDate = try reader.date(end)
            tally.imported += 1
        }
        while try reader.next() {
            tally.read += 1
            tally.skip("more than one feed_info row (the first is used)")
        }
    }

    /// stops.txt: collects stops in memory (first feed wins for a shared stop_id).
    func readStops(_ feed: FeedContext) throws {
        guard let (reader, tally) = try open(feed, "stops.txt") else { return }
        let id = try reader.required("stop_id")
        let code = reader.column("stop_code")
        let name = reader.column("stop_name")
        let tts = reader.column("tts_stop_name")
        let desc = reader.column("stop_desc")
        let lat = reader.column("stop_lat")
        let lon = reader.column("stop_lon")
        let zone = reader.column("zone_id")
        let url = reader.column("stop_url")
        let locationType = reader.column("location_type")
        let parent = reader.column("parent_station")
        let timezone = reader.column("stop_timezone")
        let wheelchair = reader.column("wheelchair_boarding")
        let level = reader.column("level_id")
        let platform = reader.column("platform_code")
        let firstOfFeed = stops.count
        while try reader.next() {
            tally.read += 1
            let idBytes = reader.bytes(id)
            if idBytes.isEmpty { throw reader.missingValue(id) }
            let latitude = try reader.double(lat)
            let longitude = try reader.double(lon)
            if let latitude, !(-90...90).contains(latitude) {
                throw reader.error("stop_lat \(latitude) out of range -90…90", column: lat)
            }
            if let longitude, !(-180...180).contains(longitude) {
                throw reader.error("stop_lon \(longitude) out of range -180…180", column: lon)
            }
            let type = try reader.int(locationType, default: 0)
            guard (0...4).contains(type) else {
                throw reader.error("bad location_type \(type) (expected 0–4)", column: locationType)
            }
            let record = try StopRecord(
                id: reader.string(id), feed: feed.index, code: reader.optionalString(code), name: reader.string(name),
                ttsName: reader.optionalString(tts), desc: reader.optionalString(desc), lat: latitude, lon: longitude,
                zone: reader.optionalString(zone), url: reader.optionalString(url), locationType: type,
                parentID: reader.optionalString(parent), timezone: reader.optionalString(timezone),
                wheelchair: try reader.int(wheelchair, default: 0), level: reader.optionalString(level),
                platformCode: reader.optionalString(platform), line: reader.line)
            let (index, inserted) = stopIDs.intern(idBytes)
            if !inserted {
                if index >= firstOfFeed {
                    try reject("duplicate stop_id", reader, id, tally)
                } else if stops[index].sameContent(as: record) {
                    tally.skip("stop_id already defined by an earlier feed (same values; first kept)")
                } else {
                    tally.skip("stop_id already defined by an earlier feed with different values (first kept)")
                }
                continue
            }
            stops.append(record)
            tally.imported += 1
            feed.counts.stops += 1
            if tally.read & 0xFFF == 0 { try checkpoint(feed, "stops.txt", rows: tally.read) }
        }
    }

    /// Links every stop to its parent station (unknown parents are dropped and counted) and picks the stop
    /// whose departures board it lists (the station for its platforms).
    func resolveStopParents() throws {
        var stopsTallies: [Int: FileTally] = [:]
        for tally in tallies where tally.file == "stops.txt" {
            if let feed = feeds.first(where: { $0.name == tally.feed }) { stopsTallies[feed.index] = tally }
        }
        for i in stops.indices {
            guard let parentID = stops[i].parentID else { continue }
            if let parent = stopIDs.find(parentID), parent != i {
                stops[i].parent = parent
            } else {
                let feed = feeds[stops[i].feed]
                let reason = "unknown parent_station (stop kept without parent)"
                if strict {
                    throw CSVError(
                        file: "\(feed.path)/stops.txt", line: stops[i].line,
                        reason: "\(reason): \"\(parentID)\"")
                }
                stopsTallies[feed.index]?.skip(reason)
            }
        }
        for i in stops.indices {
            let parent = stops[i].parent
            if stops[i].locationType == 0, parent >= 0, stops[parent].locationType == 1 {
                stops[i].board = parent
            } else {
                stops[i].board = i
            }
        }
    }
}
