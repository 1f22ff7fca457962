import Foundation
import SQLiteKit
import Testing

@testable import TransitStore

@Suite struct ImportSchemaTests {
    @Test func schemaCreatesInAnEmptyDatabase() throws {
        let db = try Database(path: ":memory:")
        try Schema.createAll(in: db)
        let tables = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        var names: Set<String> = []
        while try tables.step() { names.insert(tables.string(0) ?? "") }
        for expected in [
            "meta", "feeds", "agency", "stops", "routes", "services", "calendar", "calendar_dates",
            "trips", "patterns", "pattern_stops", "departures", "frequencies", "frequency_stops",
            "stop_routes", "stop_search", "stop_rtree", "transfers",
        ] {
            #expect(names.contains(expected), "missing table \(expected)")
        }
    }

    @Test func departuresLookupIsAnIndexRangeScan() throws {
        let db = try Database(path: ":memory:")
        try Schema.createAll(in: db)
        let plan = try db.prepare(
            """
            EXPLAIN QUERY PLAN SELECT trip_pk FROM departures
            WHERE board_pk = 1 AND departure_secs BETWEEN 100 AND 200 ORDER BY departure_secs
            """)
        var details: [String] = []
        while try plan.step() { details.append(plan.string(3) ?? "") }
        #expect(details.contains { $0.contains("SEARCH departures USING PRIMARY KEY") }, "\(details)")
        #expect(!details.contains { $0.contains("TEMP B-TREE") }, "\(details)")
    }
}
