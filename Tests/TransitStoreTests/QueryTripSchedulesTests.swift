import Foundation
import SQLiteKit
import Testing
import TransitModel
import TransitTesting

@testable import TransitStore

@Suite struct QueryTripSchedulesTests {
    @Test func bulkSchedules() throws {
        let store = try QueryTestFeed.store()
        let r = try store.tripSchedules(
            tripIds: ["T1_0800", "FREQ", "LOOP", "nope", "T1_0800", "NY_LATE", "T1_HOL"],
            from: 20251004, through: 20251012)
        #expect(r.databaseVersion == store.databaseVersion && !r.databaseVersion.isEmpty)
        #expect(r.unknownTripIds == ["nope"])
        #expect(r.trips.map(\.tripId) == ["T1_0800", "FREQ", "LOOP", "NY_LATE", "T1_HOL"])

        let t1 = r.trips[0]
        // Weekdays of the range plus the added Saturday the 11th.
        #expect(t1.serviceDates == [20251006, 20251007, 20251008, 20251009, 20251010, 20251011])
        #expect(t1.routeId == "R_T1" && t1.routeType == 2 && t1.startSecs == 28800 && t1.frequencies.isEmpty)
        #expect(t1.timezone == "Australia/Sydney")
        #expect(r.trips[3].timezone == "America/New_York")
        #expect(r.trips[4].serviceDates.isEmpty)  // the holiday is outside the range

        let freq = r.trips[1]
        #expect(
            freq.frequencies == [
                FrequencyWindow(startSecs: 21600, endSecs: 25200, headwaySecs: 600, exactTimes: true),
                FrequencyWindow(startSecs: 25200, endSecs: 28800, headwaySecs: 1200, exactTimes: false),
            ])

        // Each pattern once; offsets from the trip's start.
        #expect(Set(r.patterns.map(\.patternId)).count == r.patterns.count)
        #expect(Set(r.patterns.map(\.patternId)) == Set(r.trips.map(\.patternId)))
        let loop = try #require(r.patterns.first { $0.patternId == r.trips[2].patternId })
        #expect(loop.stops.map(\.stopId) == ["L1", "L2", "L3", "L1", "L2"])
        #expect(loop.stops.map(\.stopSequence) == [1, 2, 3, 4, 5])
        #expect(loop.stops.map(\.departureOffset) == [0, 300, 600, 900, 1200])
        let freqPattern = try #require(r.patterns.first { $0.patternId == freq.patternId })
        #expect(freqPattern.stops.map(\.arrivalOffset) == [0, 420, 720])
    }

    @Test func stationsOfThePatternsStopsComeWithAllTheirChildren() throws {
        let store = try QueryTestFeed.store()
        // T1_0800 leaves from P1 (a platform of STA); S2 and S3 have no station.
        let r = try store.tripSchedules(tripIds: ["T1_0800"], from: 20251006, through: 20251006)
        #expect(
            r.stations == [
                StationPlatforms(
                    stationId: "STA",
                    platforms: [
                        StationPlatform(stopId: "E1"), StationPlatform(stopId: "P1", platformCode: "1"),
                        StationPlatform(stopId: "P2", platformCode: "2"),
                    ])
            ])
        // A trip through no station: none; known patterns send none.
        #expect(try store.tripSchedules(tripIds: ["LOOP"], from: 20251006, through: 20251006).stations.isEmpty)
        let warm = try store.tripSchedules(
            tripIds: ["T1_0800"], from: 20251006, through: 20251006,
            knownPatternIds: [r.trips[0].patternId], knownDatabaseVersion: store.databaseVersion)
        #expect(warm.patterns.isEmpty && warm.stations.isEmpty)
    }

    @Test func oddIdsAndEmptyRequests() throws {
        let store = try QueryTestFeed.store()
        let odd = ["quote\"d", "back\\slash", "new\nline", "ünï", ""]
        let r = try store.tripSchedules(tripIds: odd, from: 20251006, through: 20251006)
        #expect(r.unknownTripIds == odd && r.trips.isEmpty && r.patterns.isEmpty)
        #expect(try store.tripSchedules(tripIds: [], from: 20251006, through: 20251006).trips.isEmpty)
    }

    @Test func knownPatternsAreLeftOut() throws {
        let store = try QueryTestFeed.store()
        let ids = ["T1_0800", "FREQ", "LOOP", "PU1"]
        let cold = try store.tripSchedules(tripIds: ids, from: 20251006, through: 20251006)
        #expect(cold.patterns.count == 4)
        let loopId = try #require(cold.trips.first { $0.tripId == "LOOP" }).patternId
        let freqId = try #require(cold.trips.first { $0.tripId == "FREQ" }).patternId
        // 999_999 names no pattern: ignored.
        let warm = try store.tripSchedules(
            tripIds: ids, from: 20251006, through: 20251006,
            knownPatternIds: [999_999, loopId, freqId, loopId],
            knownDatabaseVersion: store.databaseVersion)
        #expect(warm.trips == cold.trips && warm.unknownTripIds == cold.unknownTripIds)
        #expect(warm.patterns == cold.patterns.filter { $0.patternId != loopId && $0.patternId != freqId })
        #expect(warm.patterns.count == 2)

        // Known under another database version: stale, so everything is sent.
        let stale = try store.tripSchedules(
            tripIds: ids, from: 20251006, through: 20251006,
            knownPatternIds: [loopId, freqId], knownDatabaseVersion: "older-import")
        #expect(stale == cold)

        // Ids without the version they came with are refused.
        let message = errorMessage {
            _ = try store.tripSchedules(tripIds: ids, from: 20251006, through: 20251006, knownPatternIds: [loopId])
        }
        #expect(message?.contains("known_database_version") == true)
    }

    /// The in-memory patterns equal pattern_stops read directly, for every pattern of the database.
    @Test func cachedPatternsMatchTheDatabase() throws {
        let store = try QueryTestFeed.store()
        let db = try Database(path: store.path, mode: .readOnly)
        let allTrips = try column(db, "SELECT trip_id FROM trips")
        let r = try store.tripSchedules(tripIds: allTrips, from: 20251006, through: 20251006)
        #expect(r.unknownTripIds.isEmpty)
        let expected = try rows(
            db,
            """
            SELECT ps.pattern_pk, s.stop_id, ps.stop_sequence, ps.arrival_offset, ps.departure_offset, ps.pickup_type,
                   ps.drop_off_type
            FROM pattern_stops ps JOIN stops s ON s.stop_pk = ps.stop_pk ORDER BY ps.pattern_pk, ps.stop_index
            """)
        let got = r.patterns.flatMap { p in
            p.stops.map {
                [
                    "\(p.patternId)", $0.stopId, "\($0.stopSequence)", "\($0.arrivalOffset)", "\($0.departureOffset)",
                    "\($0.pickupType)", "\($0.dropOffType)",
                ]
            }
        }
        #expect(got == expected)
        #expect(got.contains { $0[1] == "S2" && $0[5] == "1" })  // PU1's pickup_type 1 survives the cache
    }

    /// A store reads the patterns of its own file: a new import at the same path, opened as a new store,
    /// answers with the new offsets while the old store keeps answering with its own.
    @Test func reopenedStoreHasTheNewPatterns() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("transit.db")
        func feed(_ name: String, secondStop: String) throws -> ImportOptions.Feed {
            var files = QueryTestFeed.nyc
            files["stop_times.txt"] = """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                NY_EARLY,01:00:00,01:00:00,NY1,1
                NY_EARLY,\(secondStop),\(secondStop),NY2,2
                NY_9,09:00:00,09:00:00,NY1,1
                NY_9,09:10:00,09:10:00,NY2,2
                NY_LATE,24:30:00,24:30:00,NY1,1
                NY_LATE,24:40:00,24:40:00,NY2,2
                """
            return ImportOptions.Feed(path: try folder.writeFeed(name, files), name: "nyc")
        }
        try runImport([try feed("a", secondStop: "01:10:00")], into: db)
        let first = try StaticStore(path: db, connections: 1)
        try runImport([try feed("b", secondStop: "01:25:00")], into: db)
        let second = try StaticStore(path: db, connections: 1)
        #expect(first.databaseVersion != second.databaseVersion)

        func offsets(_ store: StaticStore, known: [UInt32] = [], version: String? = nil) throws -> [[Int32]] {
            let r = try store.tripSchedules(
                tripIds: ["NY_EARLY", "NY_9"], from: 20260308, through: 20260308,
                knownPatternIds: known, knownDatabaseVersion: version)
            return r.trips.compactMap { t in
                r.patterns.first { $0.patternId == t.patternId }?.stops.map(\.arrivalOffset)
            }
        }
        #expect(try offsets(first) == [[0, 600], [0, 600]])
        let secondOffsets = try offsets(second)
        #expect(secondOffsets == [[0, 1500], [0, 600]])
        // The first store's pattern ids mean nothing to the second: sent again in full.
        let firstIds = try first.tripSchedules(tripIds: ["NY_EARLY", "NY_9"], from: 20260308, through: 20260308)
            .patterns.map(\.patternId)
        #expect(try offsets(second, known: firstIds, version: first.databaseVersion) == [[0, 1500], [0, 600]])
        #expect(try offsets(first) == [[0, 600], [0, 600]])
    }

    @Test func badRanges() throws {
        let store = try QueryTestFeed.store()
        for (from, to) in [(20251010 as UInt32, 20251001 as UInt32), (20250101, 20251231), (20251301, 20251302)] {
            #expect {
                try store.tripSchedules(tripIds: ["T1_0800"], from: from, through: to)
            } throws: { error in
                if case .invalidArgument = error as? StoreError { return true } else { return false }
            }
        }
    }
}
