import Foundation
import Testing
import TransitModel

@testable import TransitStore

/// Search ranking and primary route types on a Perth-zoned feed (every trip runs daily in 2026, → Z):
/// - "central" names: Central (CX, bus stop, 1 trip), Central Station (CS, station: CS1 2 train trips, CS2 1,
///   entrance CSE), Central Chalmers Street Light Rail (CC, stop, a light-rail frequency trip of 36 instances),
///   Central West Bus Interchange (CW, 2 bus trips), North Central (NC, 5), Museum of Central Art (MC, 1),
///   and Centennial Park (CP, 1), Gare Montréal (DI), Odd "Quote" Stop (NEAR) (Q).
/// - Primary route types: Mixed Station PRT with bus bay PA (3 bus trips) and platform PB (2 train trips);
///   TIE1 (2 bus + 2 tram), TIE2 (2 ferry + 2 metro), FQ (a bus frequency trip of 4 instances + 3 train trips),
///   MR (one trip of each of two bus routes + 5 train trips of one route).
enum SearchFeed {
    static func trips(_ prefix: String, _ count: Int, route: String, stop: String, hour: Int) -> (String, String) {
        var trips = "", times = ""
        for i in 0..<count {
            let id = "\(prefix)\(i)"
            trips += "\(route),ALL,\(id)\n"
            times += "\(id),\(hour):\(10 + i):00,\(hour):\(10 + i):00,\(stop),1\n"
            times += "\(id),\(hour):\(30 + i):00,\(hour):\(30 + i):00,Z,2\n"
        }
        return (trips, times)
    }

    static var files: [String: String] {
        let groups = [
            trips("TR", 2, route: "TRAIN", stop: "CS1", hour: 6), trips("TS", 1, route: "TRAIN", stop: "CS2", hour: 6),
            trips("LRF", 1, route: "LR", stop: "CC", hour: 6), trips("CX", 1, route: "BUS", stop: "CX", hour: 7),
            trips("CW", 2, route: "BUS", stop: "CW", hour: 7), trips("NC", 5, route: "BUS", stop: "NC", hour: 8),
            trips("MC", 1, route: "BUS", stop: "MC", hour: 8), trips("CP", 1, route: "BUS", stop: "CP", hour: 9),
            trips("PA", 3, route: "BUS", stop: "PA", hour: 9), trips("PB", 2, route: "TRAIN", stop: "PB", hour: 10),
            trips("TB", 2, route: "BUS", stop: "TIE1", hour: 10), trips("TT", 2, route: "TRAM", stop: "TIE1", hour: 11),
            trips("TF", 2, route: "FERRY", stop: "TIE2", hour: 11),
            trips("TM", 2, route: "METRO", stop: "TIE2", hour: 12),
            trips("FQB", 1, route: "BUS", stop: "FQ", hour: 12), trips("FQT", 3, route: "TRAIN", stop: "FQ", hour: 13),
            trips("MRB", 1, route: "BUS", stop: "MR", hour: 14), trips("MRC", 1, route: "BUS2", stop: "MR", hour: 14),
            trips("MRT", 5, route: "TRAIN", stop: "MR", hour: 15),
        ]
        return [
            "agency.txt": """
            agency_id,agency_name,agency_url,agency_timezone
            TP,Test Perth,https://example.com,Australia/Perth

            """,
            "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code
            CS,Central Station,-31.9500,115.8600,1,,
            CS1,Central Station Platform 1,-31.9501,115.8601,0,CS,1
            CS2,Central Station Platform 2,-31.9502,115.8602,0,CS,2
            CSE,Central Station Entrance,-31.9503,115.8603,2,CS,
            CC,Central Chalmers Street Light Rail,-31.9600,115.8700,0,,
            CX,Central,-31.9700,115.8800,0,,
            CW,Central West Bus Interchange,-31.9750,115.8850,0,,
            CP,Centennial Park,-31.9800,115.8900,0,,
            MC,Museum of Central Art,-31.9900,115.9000,0,,
            NC,North Central,-32.0000,115.9100,0,,
            DI,Gare Montréal,-32.0100,115.9200,0,,
            Q,"Odd ""Quote"" Stop (NEAR)",-32.0200,115.9300,0,,
            PRT,Mixed Station,-32.0300,115.9400,1,,
            PA,Mixed Station Bus Bay,-32.0301,115.9401,0,PRT,A
            PB,Mixed Station Platform,-32.0302,115.9402,0,PRT,1
            TIE1,Tie Tram Bus,-32.0400,115.9500,0,,
            TIE2,Tie Ferry Metro,-32.0500,115.9600,0,,
            FQ,Frequent Corner,-32.0600,115.9700,0,,
            MR,Many Routes Corner,-32.0700,115.9800,0,,
            Z,Terminus,-32.1000,116.0000,0,,

            """,
            "routes.txt": """
            route_id,agency_id,route_short_name,route_long_name,route_type
            BUS,TP,100,Bus,3
            BUS2,TP,200,Other Bus,3
            TRAIN,TP,T,Train,2
            TRAM,TP,TR,Tram,0
            FERRY,TP,F,Ferry,4
            METRO,TP,M,Metro,1
            LR,TP,L1,Light Rail,900

            """,
            "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            ALL,1,1,1,1,1,1,1,20260101,20261231

            """,
            "trips.txt": "route_id,service_id,trip_id\n" + groups.map(\.0).joined(),
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + groups.map(\.1).joined(),
            "frequencies.txt": """
            trip_id,start_time,end_time,headway_secs,exact_times
            LRF0,06:00:00,12:00:00,600,1
            FQB0,12:00:00,13:00:00,900,1

            """,
        ]
    }

    static let shared: Result<AcceptanceDB, any Error> = Result { try AcceptanceDB(name: "perth", files) }
    static func store() throws -> StaticStore { try shared.get().store }
}

@Suite struct AcceptanceSearchTests {
    func search(_ text: String, limit: Int = 20, mode: String? = nil, platforms: Bool = false) throws -> [String] {
        try SearchFeed.store().search(text, limit: limit, mode: mode, includePlatforms: platforms).map(\.stopId)
    }

    @Test func exactThenPrefixThenTokenMatches() throws {
        // Exact: Central. Prefix: the station before stops, then busier, then shorter. Token: busier first.
        let central = try search("central")
        #expect(central == ["CX", "CS", "CC", "CW", "NC", "MC"])
        #expect(try search("CENTRAL") == central)
        let two = try search("central", limit: 2)
        #expect(two == ["CX", "CS"])
        // "cen": no exact name; prefixes (station, busier, shorter), then words starting with "cen".
        let cen = try search("cen")
        #expect(cen == ["CS", "CC", "CW", "CX", "CP", "NC", "MC"])
        #expect(try search("central station") == ["CS"])
    }

    @Test func platformsFoldIntoStationsAndEntrancesNeverShow() throws {
        // Platforms matching the text bring their station, not themselves.
        #expect(try Set(search("platform")) == ["CS", "PRT"])
        #expect(try search("central station platform") == ["CS"])
        #expect(try search("central station", platforms: true) == ["CS", "CS1", "CS2"])
        #expect(try search("entrance").isEmpty)
        #expect(try search("entrance", platforms: true).isEmpty)
    }

    @Test func modeFilter() throws {
        #expect(try search("central", mode: "tram") == ["CC"])  // light rail (900) is tram
        #expect(try search("central", mode: "train") == ["CS"])
        #expect(try search("central", mode: "ferry").isEmpty)
    }

    @Test func diacriticsAndCase() throws {
        #expect(try search("montreal") == ["DI"])
        #expect(try search("MONTRÉAL") == ["DI"])
    }

    @Test func hostileInputIsJustText() throws {
        for text in [
            "\"", "\"\"", "NEAR(", "central\" OR \"x", "*", "cen*", "AND", ")", "^", "'", ":", "NOT central",
            "-central", "central\"", "name:central", "{central}", "central +", "\u{0}",
        ] {
            _ = try search(text)  // must not throw
        }
        #expect(try search("NEAR(") == ["Q"])
        #expect(try search("\"quote\"") == ["Q"])
        #expect(try search("cen*") == search("cen"))
        #expect(try search("\"").isEmpty)
        #expect(try search("central\" OR \"x").isEmpty)
    }
}

/// The primary route type: the route type of the most routes serving the stop and its children; ties go to
/// train, metro, tram, ferry, bus.
@Suite struct AcceptancePrimaryRouteTypeTests {
    func primary(_ id: String) throws -> (Int?, String?) {
        let s = try SearchFeed.store().stop(id: id).stop
        return (s.primaryRouteType, s.mode)
    }

    @Test func mostRoutesAtTheStationAndItsChildren() throws {
        #expect(try primary("PRT") == (2, "train"))  // one bus route at PA, one train route at PB: the tie to train
        #expect(try primary("MR") == (3, "bus"))  // two bus routes beat one train route's five trips
        #expect(try primary("PB") == (2, "train"))
        #expect(try primary("PA") == (3, "bus"))
        #expect(try primary("CS") == (2, "train"))
        #expect(try primary("CC") == (900, "tram"))
    }

    @Test func tiesGoByModeRank() throws {
        #expect(try primary("TIE1") == (0, "tram"))  // 2 tram = 2 bus
        #expect(try primary("TIE2") == (1, "metro"))  // 2 metro = 2 ferry
    }

    @Test func frequencyInstancesDoNotOutweighRoutes() throws {
        #expect(try primary("FQ") == (2, "train"))  // 4 bus instances of one route, 3 trips of one train route
    }
}

/// The forgiving tiers on the Perth feed: inside words, then one typo, then two; each below the word tiers.
@Suite struct AcceptanceForgivingSearchTests {
    func search(_ text: String, limit: Int = 20, mode: String? = nil, platforms: Bool = false) throws -> [String] {
        try SearchFeed.store().search(text, limit: limit, mode: mode, includePlatforms: platforms).map(\.stopId)
    }

    @Test func insideWordsAfterWholeWords() throws {
        // "entral" starts no word: inside Central, the station first, then busier (CC's 36 light-rail instances,
        // NC 5, CW 2, CX 1, MC 1), then shorter. "Entrance" is never searchable (an entrance).
        #expect(try search("entral") == ["CS", "CC", "NC", "CW", "CX", "MC"])
        // A whole word outranks the same letters inside a word: "art" is Museum of Central Art's word, and
        // inside "Chalmers Street"? no; inside "Central Station Platform"? no.
        #expect(try search("tram") == ["TIE1"])
        // "ark" inside "Park".
        #expect(try search("ark") == ["CP"])
        // The mode filter holds for these tiers too.
        #expect(try search("entral", mode: "tram") == ["CC"])
        // Platforms fold into their station (PRT: 5 trips, CS: 3) unless asked for.
        #expect(try search("atform") == ["PRT", "CS"])
        #expect(try search("atform", platforms: true) == ["PB", "CS1", "CS2"])
    }

    @Test func rankingExactPrefixWordsInsideTypos() throws {
        // The word tiers are unchanged: exact CX, prefix CS/CC/CW, a word of NC/MC; no typo tier for them.
        #expect(try search("central") == ["CX", "CS", "CC", "CW", "NC", "MC"])
        #expect(try search("perk") == [])  // 4 letters: no typo allowed
        #expect(try search("parkk") == ["CP"])  // 5 letters: one typo
        // "quotte" is one edit from "quote"; "quottte" two, too many for 7 letters.
        #expect(try search("quotte") == ["Q"])
        #expect(try search("quottte").isEmpty)
        #expect(try search("montrael") == ["DI"])  // 8 letters: two edits allowed (a swap is one)
        #expect(try search("mnotrael") == ["DI"])  // two swaps
        #expect(try search("mnotraelx").isEmpty)  // three edits
    }

    @Test func typosRankBelowInsideMatches() throws {
        // No name holds "centrl": the typo tier alone answers, ordered as within every tier.
        #expect(try search("centrl") == ["CS", "CC", "NC", "CW", "CX", "MC"])
        // A query whose words match one name inside a word and another with a typo: the inside match first.
        // "ermin" is inside "Terminus"; "termnus" one edit from it.
        #expect(try search("ermin") == ["Z"])
        #expect(try search("termnus") == ["Z"])
        #expect(try search("parkk cen") == ["CP"])  // a typo and a prefix together
    }

    @Test func shortQueriesNeverMatchInsideWordsOrWithTypos() throws {
        // One or two letters: only names with a word starting with them.
        #expect(try search("ar") == ["MC"])  // "Art", not "Park", "Chalmers", "Central", "Gare"
        #expect(try search("e").isEmpty)  // no word starts with "e" (entrances are never searchable)
        #expect(try search("x").isEmpty)
        // Three and four letters: inside words, never a typo.
        #expect(try search("bsu").isEmpty)
        #expect(try search("stop") == ["Q"])
        #expect(try search("stpo").isEmpty)
    }
}

/// Every tier in one answer: exact, prefix, word, inside a word, one typo, two typos.
@Suite struct AcceptanceSearchTierTests {
    static let shared: Result<AcceptanceDB, any Error> = Result {
        try AcceptanceDB(
            name: "tiers",
            [
                "agency.txt":
                    "agency_id,agency_name,agency_url,agency_timezone\nA,A,https://example.com,Australia/Sydney\n",
                "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon
                EXACT,Waverley,-33.90,151.25
                PREFIX,Waverley Depot,-33.91,151.25
                WORD,North Waverley,-33.92,151.25
                INSIDE,Newaverley,-33.93,151.25
                ONE,Wavelrey Road,-33.94,151.25
                TWO,Wavvelrey Lane,-33.95,151.25
                THREE,Wvvelreyy Park,-33.96,151.25
                SHORT,Wave,-33.97,151.25

                """,
                "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR,A,1,One,3\n",
                "calendar.txt": """
                service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
                ALL,1,1,1,1,1,1,1,20260101,20261231

                """,
                "trips.txt": "route_id,service_id,trip_id\nR,ALL,T\n",
                "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T,08:00:00,08:00:00,EXACT,1
                T,08:10:00,08:10:00,SHORT,2

                """,
            ])
    }

    @Test func exactPrefixWordInsideOneTypoTwoTypos() throws {
        let store = try Self.shared.get().store
        #expect(
            try store.search("waverley", limit: 20).map(\.stopId) == [
                "EXACT", "PREFIX", "WORD", "INSIDE", "ONE", "TWO",
            ])
        // The forgiving tiers only fill what the better ones leave of the limit.
        #expect(try store.search("waverley", limit: 3).map(\.stopId) == ["EXACT", "PREFIX", "WORD"])
        #expect(try store.search("waverley", limit: 5).map(\.stopId) == ["EXACT", "PREFIX", "WORD", "INSIDE", "ONE"])
        // "wave" (4 letters) allows no typo: it starts Wave, Waverley… and Wavelrey, never Wavvelrey.
        #expect(
            try Set(store.search("wave", limit: 20).map(\.stopId)) == [
                "SHORT", "EXACT", "PREFIX", "WORD", "INSIDE", "ONE",
            ])
    }
}
