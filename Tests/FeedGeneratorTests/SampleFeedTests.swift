import Foundation
import Testing
import TransitTesting

/// The bundled sample feed (data/sample-gtfs): sound, and holding every case its README promises.
@Suite("Sample feed")
struct SampleFeedTests {
    static let directory: String = SampleDatabase.feedPath

    let feed: FeedFixture

    init() throws {
        feed = try FeedFixture(directory: Self.directory)
    }

    func raw(_ file: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.directory + "/" + file)))
    }

    @Test("every reference resolves, sequences increase, times never go backwards")
    func integrity() {
        #expect(feed.problems() == [])
    }

    @Test("small: a few hundred trips, a few thousand stop times")
    func size() {
        #expect((300..<1_000).contains(feed.trips.rows.count))
        #expect((1_000..<8_000).contains(feed.stopTimes.rows.count))
    }

    @Test("valid 2025-01-01 to 2030-12-31 in Australia/Sydney")
    func validity() {
        #expect(feed.feedInfo.column("feed_start_date") == ["20250101"])
        #expect(feed.feedInfo.column("feed_end_date") == ["20301231"])
        #expect(!feed.feedInfo.column("feed_version")[0].isEmpty)
        #expect(Set(feed.calendar.column("start_date")) == ["20250101"])
        #expect(Set(feed.calendar.column("end_date")) == ["20301231"])
        #expect(Set(feed.agency.column("agency_timezone")) == ["Australia/Sydney"])
        #expect(feed.agency.rows.count >= 5)
    }

    @Test("every mode: trains, metro, buses, school bus, rail replacement, ferries, light rail")
    func modes() {
        #expect(Set(feed.routes.column("route_type")) == ["2", "401", "700", "712", "714", "4", "900"])
        let t1 = feed.routes.rows(where: "route_short_name", is: "T1")
        #expect(t1.count == 1 && feed.routes.value(t1[0], "route_color") == "F99D1C")
    }

    @Test("Central is a station with named platform children, an entrance and a node")
    func stations() {
        let central = feed.stops.rows(where: "stop_id", is: "200060")
        #expect(central.count == 1 && feed.stops.value(central[0], "location_type") == "1")
        let p16 = feed.stops.rows(where: "stop_id", is: "20006016")
        #expect(p16.count == 1)
        #expect(feed.stops.value(p16[0], "stop_name") == "Central Station, Platform 16")
        #expect(feed.stops.value(p16[0], "platform_code") == "16")
        #expect(feed.stops.value(p16[0], "parent_station") == "200060")
        let children = feed.stops.rows(where: "parent_station", is: "200060")
        #expect(children.filter { feed.stops.value($0, "location_type") == "0" }.count >= 10)
        let entrance = feed.stops.rows(where: "stop_id", is: "200060E1")
        #expect(entrance.count == 1 && feed.stops.value(entrance[0], "location_type") == "2")
        #expect(feed.stops.value(feed.stops.rows(where: "stop_id", is: "200060N1")[0], "location_type") == "3")
        for id in ["200070", "200080", "200020"] {
            #expect(feed.stops.value(feed.stops.rows(where: "stop_id", is: id)[0], "location_type") == "1")
        }
        // bus stops have no parent; wheelchair_boarding takes all three values
        #expect(feed.stops.value(feed.stops.rows(where: "stop_id", is: "2000421")[0], "parent_station") == "")
        #expect(Set(feed.stops.column("wheelchair_boarding")) == ["0", "1", "2"])
    }

    @Test("T1.WKD.0.2340 departs 23:40 and runs past midnight")
    func afterMidnight() {
        let rows = feed.stopTimes(of: "T1.WKD.0.2340")
        #expect(feed.stopTimes.value(rows[0], "departure_time") == "23:40:00")
        let last = gtfsSeconds(feed.stopTimes.value(rows[rows.count - 1], "arrival_time")) ?? 0
        #expect(last > 24 * 3600)
        // N70 starts after midnight of its service day
        #expect(feed.stopTimes.value(feed.stopTimes(of: "N70.SAT.0.2610")[0], "departure_time") == "26:10:00")
    }

    @Test("weekday holidays remove WKD and add SUN", arguments: ["20251225", "20260126", "20261225"])
    func holiday(_ date: String) {
        let rows = Set(feed.calendarDates.rows(where: "date", is: date).map { $0.joined(separator: ",") })
        #expect(rows.isSuperset(of: ["WKD,\(date),2", "SUN,\(date),1", "SCHOOL,\(date),2"]))
    }

    @Test("weekend holidays change nothing; their weekday substitutes do")
    func substitutes() {
        #expect(feed.calendarDates.rows(where: "date", is: "20260425").isEmpty)  // Anzac Day, a Saturday
        for date in ["20271227", "20271228", "20280103"] {
            let rows = Set(feed.calendarDates.rows(where: "date", is: date).map { $0.joined(separator: ",") })
            #expect(rows.isSuperset(of: ["WKD,\(date),2", "SUN,\(date),1"]))
        }
    }

    @Test("Watsons Bay Wharf has no service; three kinds of stop answer to Town Hall")
    func namesAndUnservedStops() {
        #expect(feed.stopTimes.rows(where: "stop_id", is: "10102031").isEmpty)
        #expect(!feed.stops.rows(where: "stop_id", is: "10102031").isEmpty)
        let townHall = feed.stops.rows.filter { feed.stops.value($0, "stop_name").hasPrefix("Town Hall") }
        let ids = Set(townHall.map { feed.stops.value($0, "stop_id") })
        #expect(ids.isSuperset(of: ["200070", "2000140", "2000444"]))
    }

    @Test("NYE and TRACKWORK exist only in calendar_dates")
    func calendarDatesOnly() {
        let inCalendar = Set(feed.calendar.column("service_id"))
        for service in ["NYE", "TRACKWORK"] {
            #expect(!inCalendar.contains(service))
            #expect(feed.calendarDates.rows(where: "service_id", is: service).allSatisfy { $0[2] == "1" })
            #expect(!feed.trips.rows(where: "service_id", is: service).isEmpty)
        }
        #expect(feed.calendarDates.rows(where: "service_id", is: "NYE").map { $0[1] }.contains("20251231"))
    }

    @Test("frequencies: M1 exact_times=1, light rail exact_times=0")
    func frequencies() {
        let exact = feed.frequencies.rows(where: "trip_id", is: "M1.WKD.0.FREQ")
        #expect(exact.count == 5 && exact.allSatisfy { feed.frequencies.value($0, "exact_times") == "1" })
        let headway = feed.frequencies.rows(where: "trip_id", is: "L2.WKD.0.FREQ")
        #expect(!headway.isEmpty && headway.allSatisfy { feed.frequencies.value($0, "exact_times") == "0" })
    }

    @Test("311 loops: same first and last stop, 2000245 twice with different stop_sequence")
    func loop() {
        let rows = feed.stopTimes(of: "311.WKD.0.0610")
        let stops = rows.map { feed.stopTimes.value($0, "stop_id") }
        #expect(stops.first == "2000161" && stops.last == "2000161")
        let visits = rows.filter { feed.stopTimes.value($0, "stop_id") == "2000245" }
        #expect(visits.count == 2)
        #expect(Set(visits.map { feed.stopTimes.value($0, "stop_sequence") }).count == 2)
    }

    @Test("city-bound L90 is set-down only at Neutral Bay; sequences step by 5")
    func setDownOnly() {
        let row = feed.stopTimes(of: "L90.WKD.1.0530").first { feed.stopTimes.value($0, "stop_id") == "2089144" }
        #expect(row.map { feed.stopTimes.value($0, "pickup_type") } == "1")
        #expect(
            feed.stopTimes(of: "L90.WKD.1.0530").map { feed.stopTimes.value($0, "stop_sequence") }.prefix(3) == [
                "5", "10", "15",
            ])
    }

    @Test("T8 stop_sequence 10, 20, 30; T4 single-digit hours")
    func oddButValidValues() {
        let t8 = feed.stopTimes(of: "T8.WKD.0.0545").map { feed.stopTimes.value($0, "stop_sequence") }
        #expect(t8.prefix(3) == ["10", "20", "30"])
        #expect(feed.stopTimes.value(feed.stopTimes(of: "T4.WKD.0.0507")[0], "departure_time") == "5:07:00")
    }

    @Test("CSV realism: BOM and CRLF in stops.txt, reordered and extra columns, quoted commas")
    func csvShapes() throws {
        let stops = try raw("stops.txt")
        #expect(Array(stops.prefix(3)) == [0xEF, 0xBB, 0xBF])
        let firstLineEnd = stops.firstIndex(of: 10)!
        #expect(stops[firstLineEnd - 1] == 13)
        for file in FeedFixture.files where file != "stops.txt" {
            let bytes = try raw(file)
            #expect(bytes.first != 0xEF, "\(file) should have no BOM")
            #expect(!bytes.contains(13), "\(file) should use LF only")
        }
        #expect(Array(feed.stopTimes.header.prefix(3)) == ["trip_id", "stop_sequence", "stop_id"])
        #expect(feed.trips.has("vehicle_category_id"))
        let routes = String(decoding: try raw("routes.txt"), as: UTF8.self)
        #expect(routes.contains("\"Sydney Trains Network, Penrith to Hornsby via City\""))
        #expect(routes.contains("\"\"Prepay Only\"\""))
        #expect(feed.routes.column("route_desc").contains("Sydney Buses Network, \"Prepay Only\" route"))
    }
}
