import Foundation
import Testing
import TransitModel

@testable import TransitStore

@Suite struct QueryStopsTests {
    func isInvalid(_ error: any Error) -> Bool {
        if case .invalidArgument = error as? StoreError { return true } else { return false }
    }

    @Test func stationWithPlatformsAndRoutes() throws {
        let r = try QueryTestFeed.store().stop(id: "STA")
        #expect(r.stop.name == "Central Station" && r.stop.locationType == 1)
        #expect(r.parent == nil)
        #expect(r.platforms.map(\.stopId) == ["P1", "P2"])  // not the entrance
        #expect(r.platforms.map(\.platformCode) == ["1", "2"])
        #expect(r.routes.map(\.shortName) == ["T1", "T2"])
        #expect(r.stop.primaryRouteType == 2 && r.stop.mode == "train")
        #expect(r.stop.timezone == "Australia/Sydney")
    }

    @Test func platformWithItsParent() throws {
        let r = try QueryTestFeed.store().stop(id: "P1")
        #expect(r.parent?.stopId == "STA")
        #expect(r.stop.parentStation == "STA")
        #expect(r.stop.wheelchairBoarding == 1)  // inherited
        #expect(r.platforms.isEmpty)
        #expect(r.routes.map(\.shortName) == ["T1"])
    }

    @Test func stopRoutesInNaturalOrderAndPrimaryMode() throws {
        let r = try QueryTestFeed.store().stop(id: "S2")
        #expect(r.routes.map(\.shortName) == ["2", "333", "M1", "T1", "T2"])
        #expect(r.stop.code == "200070")
        // Trains (T1, T2) are the most routes; M1's nine frequency instances do not outweigh them.
        #expect(r.stop.primaryRouteType == 2 && r.stop.mode == "train")
    }

    @Test func unknownStop() throws {
        #expect(throws: StoreError.notFound("stop NOPE")) { try QueryTestFeed.store().stop(id: "NOPE") }
    }

    @Test func searchFoldsPlatformsIntoTheirStation() throws {
        let store = try QueryTestFeed.store()
        // "Grand Central" (New York) only contains the word: it ranks after names starting with it.
        #expect(try store.search("central", limit: 10).map(\.stopId) == ["STA", "NY2"])
        let withPlatforms = try store.search("central", limit: 10, includePlatforms: true).map(\.stopId)
        #expect(Set(withPlatforms.prefix(3)) == ["STA", "P1", "P2"])
        #expect(withPlatforms.first == "STA")  // ranks with its platforms by prefix; the busiest first
        #expect(withPlatforms.last == "NY2")
    }

    @Test func searchRanksExactThenPrefixThenWords() throws {
        let store = try QueryTestFeed.store()
        #expect(try store.search("kings", limit: 10).map(\.stopId) == ["K0", "S4", "K2"])
        #expect(try store.search("KINGS", limit: 2).map(\.stopId) == ["K0", "S4"])
        #expect(try store.search("town hall", limit: 10).first?.stopId == "S2")
        #expect(try store.search("hall", limit: 10).map(\.stopId) == ["S2"])
        #expect(Set(try store.search("loop", limit: 10).map(\.stopId)) == ["L1", "L2", "L3"])
        #expect(try store.search("loop r", limit: 10).map(\.stopId) == ["L3"])
    }

    @Test func searchIgnoresCaseAndAccentsAndFindsCodes() throws {
        let store = try QueryTestFeed.store()
        #expect(try store.search("cafe", limit: 5).map(\.stopId) == ["CAFE"])
        #expect(try store.search("CAFÉ syd", limit: 5).map(\.stopId) == ["CAFE"])
        #expect(try store.search("200070", limit: 5).map(\.stopId) == ["S2"])
    }

    @Test(arguments: [
        "\"", "NEAR(", "*", "-", "'", "central\"", "NEAR(central, 2)", "a OR b", "^", "{name}: x",
        "cen*", "(", ")", "\"\"\"", "AND", "NOT central", ":", "+", "   ",
    ])
    func searchTextIsAlwaysSafe(_ text: String) throws {
        let results = try QueryTestFeed.store().search(text, limit: 5)
        if text == "cen*" { #expect(results.map(\.stopId) == ["STA", "NY2"]) }
        if text == "\"" || text == "*" || text == "-" { #expect(results.isEmpty) }
    }

    @Test func searchModeFilter() throws {
        let store = try QueryTestFeed.store()
        #expect(try store.search("central", limit: 5, mode: "bus").isEmpty)
        #expect(try store.search("central", limit: 5, mode: "train").map(\.stopId) == ["STA"])
        #expect { try store.search("central", limit: 5, mode: "spaceship") } throws: { isInvalid($0) }
        #expect { try store.search("central", limit: 0) } throws: { isInvalid($0) }
    }

    @Test func nearbyNearestFirstWithDistances() throws {
        let stops = try QueryTestFeed.store().nearby(lat: -33.8832, lon: 151.2070, radiusMetres: 1500, limit: 10)
        #expect(stops.map(\.stopId) == ["STA", "S3", "L1", "L2", "L3", "S2"])
        // Reference distances computed separately (haversine, R = 6371008.8 m).
        let expected = [0, 766.6, 994.6, 1029.1, 1081.9, 1123.1]
        for (stop, metres) in zip(stops, expected) {
            #expect(abs((stop.distanceMetres ?? -100) - metres) < 1, "\(stop.stopId)")
        }
    }

    @Test func nearbyLimitModeAndBadArguments() throws {
        let store = try QueryTestFeed.store()
        #expect(
            try store.nearby(lat: -33.8832, lon: 151.2070, radiusMetres: 1500, limit: 2).map(\.stopId) == ["STA", "S3"])
        #expect(
            try store.nearby(lat: -33.8832, lon: 151.2070, radiusMetres: 1500, limit: 5, mode: "bus").map(\.stopId)
                == ["S3", "L1", "L2", "L3", "S2"])
        #expect(try store.nearby(lat: 0, lon: 0, radiusMetres: 1000, limit: 5).isEmpty)
        // Platforms alone in range bring their station.
        #expect(try store.nearby(lat: -33.88345, lon: 151.20725, radiusMetres: 10, limit: 5).map(\.stopId) == ["STA"])
        for (lat, lon, r) in [
            (-33.0, 151.0, 0.0), (91.0, 0.0, 100.0), (0.0, 181.0, 100.0), (0.0, 0.0, Double.nan),
            (0.0, 0.0, 1e9),
        ] {
            #expect { try store.nearby(lat: lat, lon: lon, radiusMetres: r, limit: 5) } throws: { isInvalid($0) }
        }
    }

    @Test func routesInNaturalOrderWithSectionsAndColours() throws {
        let store = try QueryTestFeed.store()
        let routes = try store.routes()
        #expect(
            routes.map { $0.shortName ?? $0.longName ?? "" }
                == ["2", "7", "10", "333", "712S", "F1", "L90", "Loop Service", "M1", "T1", "T2", "T10"])
        #expect(routes.map(\.section) == ["#", "#", "#", "#", "#", "F", "L", "L", "M", "T", "T", "T"])
        let t1 = try #require(routes.first { $0.routeId == "R_T1" })
        #expect(t1.color == "#F99D1C" && t1.textColor == "#000000" && t1.mode == "train" && t1.feed == "syd")
        #expect(routes.first { $0.routeId == "R_LOOP" }?.color == nil)  // "zz12" is not a colour
        #expect(routes.first { $0.routeId == "R_712" }?.mode == "bus")
        #expect(try store.routes(mode: "train").map(\.shortName) == ["T1", "T2", "T10"])
        #expect(try store.routes(mode: "metro").map(\.shortName) == ["7", "M1"])
        #expect { try store.routes(mode: "hovercraft") } throws: { isInvalid($0) }
    }

    @Test func feedInfoListsBothFeeds() throws {
        let info = try QueryTestFeed.store().feedInfo()
        #expect(info.feeds.map(\.name) == ["syd", "nyc"])
        let syd = info.feeds[0]
        #expect(syd.version == "syd-1" && syd.startDate == 20250101 && syd.endDate == 20301231)
        #expect(syd.timezone == "Australia/Sydney" && info.feeds[1].timezone == "America/New_York")
        #expect(info.routes == 12 && info.trips == 14)
        #expect(!info.databaseVersion.isEmpty)
    }
}
