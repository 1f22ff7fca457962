import Foundation
import SQLiteKit
import StrictJSON
import Testing
import TransitTesting

@testable import LoadGenerator

/// The map ops (shape, route, stops_in_bbox) and reliability in the load generator: their request lines, the
/// ids they are drawn from, and the checks of their answers.
@Suite struct MapAndReliabilityRequestTests {
    static let sydney = TimeZone(identifier: "Australia/Sydney")!

    static var pool: IdPool {
        var pool = IdPool()
        pool.shapes = ["SF_F1.1"]
        pool.shapeTrips = ["T1.1"]
        pool.routes.add("SF_F1", weight: 3)
        pool.routes.add("2459_333", weight: 1)
        pool.reliabilityStops.add("2026113", weight: 1)
        pool.boxes = [MapBox(minLat: -33.87, minLon: 151.2, maxLat: -33.86, maxLon: 151.215, mode: "tram")]
        return pool
    }

    static func integer(_ value: JSONValue?) -> Int64? {
        guard case .number(let n)? = value else { return nil }
        return n.int64
    }

    /// `count` requests of `mix`, each parsed.
    func requests(_ mix: String, count: Int = 400) throws -> [(LoadRequest, JSONObject)] {
        let window = try TimeWindow(parsing: "07:00-09:00", date: "20251222", timeZone: Self.sydney, now: 0)
        let workload = try LineWorkload(mix: OpMix(parsing: mix), pool: Self.pool, window: window)
        var rng = SeededRandom(seed: 3)
        return try (1...count).map { id in
            let request = workload.request(id: UInt64(id), rng: &rng)
            #expect(request.line.last == UInt8(ascii: "\n"))
            guard case .object(let o) = try JSONParser.parse(Array(request.line.dropLast())) else {
                throw WorkloadError("not an object")
            }
            #expect(Self.integer(o["id"]) == Int64(id))
            return (request, o)
        }
    }

    @Test func theDefaultMixNeverAsksTheNewOps() {
        let drawn = Set(stride(from: 0.0, to: 1.0, by: 0.001).map { OpMix.standard.op(at: $0) })
        #expect(drawn == [.departures, .trip, .alerts, .search, .stop])
        #expect(LoadOp(name: "stops_in_bbox") == .stopsInBBox)
    }

    @Test func shapeAsksByShapeOrTripAndSometimesGeoJSON() throws {
        let all = try requests("shape")
        var byShape = 0, geojson = 0
        for (request, o) in all {
            #expect(request.op == .shape && o["op"] == .string("shape"))
            // Exactly one of shape_id and trip_id, from the pool.
            #expect((o["shape_id"] == nil) != (o["trip_id"] == nil))
            if o["shape_id"] != nil { byShape += 1 }
            #expect(o["shape_id"] == nil || o["shape_id"] == .string("SF_F1.1"))
            #expect(o["trip_id"] == nil || o["trip_id"] == .string("T1.1"))
            if o["format"] == .string("geojson") {
                geojson += 1
                #expect(request.expectation == .geojson)
            } else {
                #expect(o["format"] == nil && request.expectation == .none)
            }
        }
        #expect((150...250).contains(byShape))
        #expect((60...140).contains(geojson))
    }

    @Test func routeAsksByWeightOnTheWindowsDate() throws {
        let all = try requests("route")
        let ferry = all.filter { $0.1["route_id"] == .string("SF_F1") }.count
        #expect((260...340).contains(ferry))  // weight 3 of 4
        for (request, o) in all {
            #expect(request.op == .route)
            #expect(o["date"] == .string("20251222"))
            #expect(Set(o.members.map(\.key)) == ["id", "op", "route_id", "date"])
        }
    }

    @Test func stopsInBBoxAsksTheBoxWithItsModeAndTheMapLimit() throws {
        let (request, o) = try requests("stops_in_bbox", count: 1)[0]
        #expect(
            String(decoding: request.line, as: UTF8.self)
                == #"{"id":1,"op":"stops_in_bbox","min_lat":-33.87,"min_lon":151.2,"max_lat":-33.86,"max_lon":151.215,"mode":"tram","limit":100}"#
                + "\n")
        #expect(request.expectation == .inside(Self.pool.boxes[0]))
        #expect(Self.integer(o["limit"]) == 100)
    }

    @Test func reliabilityAsksARouteAllDayOrAStopAtTheHourOfAt() throws {
        var byRoute = 0
        for (request, o) in try requests("reliability") {
            #expect(request.op == .reliability)
            if o["route_id"] != nil {
                byRoute += 1
                #expect(o["stop_id"] == nil && o["hour"] == nil)
            } else {
                #expect(o["stop_id"] == .string("2026113"))
                // `at` runs over 07:00–09:00 Sydney time.
                guard case .number(let hour)? = o["hour"] else {
                    Issue.record("no hour")
                    continue
                }
                #expect((7...9).contains(hour.double))
            }
        }
        #expect((150...250).contains(byRoute))
    }

    @Test func theHourAndDateFollowTheWindowsTimezone() throws {
        let window = try TimeWindow(parsing: "23:00-25:00", date: "20251222", timeZone: Self.sydney, now: 0)
        let workload = try LineWorkload(mix: OpMix(parsing: "route"), pool: Self.pool, window: window)
        #expect(workload.routeDate == "20251222")
        #expect(workload.hour(of: window.start) == 23)
        #expect(workload.hour(of: window.start + 3600) == 0)
        #expect(workload.hour(of: window.end - 1) == 0)
        #expect(workload.limit(of: .stopsInBBox) == 100 && workload.limit(of: .search) == 10)
    }
}

@Suite struct MapAndReliabilityIdsTests {
    @Test func theNewKindsRoundTripThroughAnIdsFile() throws {
        var pool = MapAndReliabilityRequestTests.pool
        pool.addStation("200060", weight: 30)
        pool.reliabilityStops.add("200060_1", weight: 2.5)
        pool.boxes.append(MapBox(minLat: -33.9, minLon: 151.1, maxLat: -33.8, maxLon: 151.2))
        let text = pool.idsFile
        #expect(text.contains("\nroute SF_F1 3\n"))
        #expect(text.contains("\nshape_trip T1.1\n"))
        #expect(text.contains("\nbbox -33.87 151.2 -33.86 151.215 tram\n"))
        #expect(text.contains("\nbbox -33.9 151.1 -33.8 151.2\n"))
        let back = try IdPool(idsFile: text, source: "ids.txt")
        #expect(back == pool)
        #expect(back.routes.pick(at: 0.74) == "SF_F1")
        #expect(back.routes.pick(at: 0.76) == "2459_333")
    }

    @Test func anOldIdsFileStillReadsAndFeedsOnlyTheOldOps() throws {
        let old =
            "# transit-bench load ids: KIND ID [WEIGHT]\nstation 200060 30\ntrip T1.1\nstop 2000331\nsearch Central Sta\n"
        let pool = try IdPool(idsFile: old, source: "old.txt")
        try pool.check(for: .standard)
        for op in ["shape", "route", "stops_in_bbox", "reliability"] {
            do {
                try pool.check(for: OpMix(parsing: op))
                Issue.record("\(op) ran without ids")
            } catch {
                #expect(error.description.contains("for op \(op)"))
            }
        }
    }

    @Test func aBadBboxOrWeightNamesItsLine() {
        for (text, message) in [
            ("bbox -33.8 151.1 -33.9 151.2\n", "old.txt:1: bbox: MIN_LAT"),
            ("stop 1\nbbox -33.8 151.1 -33.9\n", "old.txt:2: expected bbox"),
            ("bbox -33.8 east -33.7 151.2\n", "old.txt:1: bbox corners must be numbers"),
            ("route R1 0\n", "old.txt:1: route weight must be a number above 0"),
            ("reliability_stop S1 x\n", "old.txt:1: reliability_stop weight"),
        ] {
            do {
                _ = try IdPool(idsFile: text, source: "old.txt")
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.description.hasPrefix(message), "\(error.description)")
            }
        }
    }

    @Test func aPhoneViewIsAZoom15ScreenAroundItsCentre() {
        let box = MapBox.phoneView(centredOn: -33.8688, 151.2093, mode: "bus")
        #expect(abs((box.maxLon - box.minLon) - 0.01674) < 0.00002)
        #expect(abs((box.maxLat - box.minLat) - 0.01674 * 750 / 390 * cos(33.8688 * .pi / 180)) < 0.00003)
        #expect(box.contains(lat: -33.8688, lon: 151.2093))
        #expect(!box.contains(lat: -33.85, lon: 151.2093))
        #expect(box.contains(lat: -33.85, lon: 151.2093, margin: 0.01))
        #expect(box.mode == "bus")
    }

    @Test func theSampleDatabaseGivesIdsForEveryNewOp() throws {
        let path = try SampleDatabase.path()
        let window = try TimeWindow(
            parsing: "07:00-09:00", date: SampleTimes.mondayDate,
            timeZone: MapAndReliabilityRequestTests.sydney, now: 0)
        let pool = try IdPool(databasePath: path, window: window, seed: 1)
        for op in ["shape", "route", "stops_in_bbox", "reliability"] { try pool.check(for: OpMix(parsing: op)) }
        let db = try Database(path: path, mode: .readOnly)

        // Trips with shapes of shapes.txt, and their shapes.
        #expect(!pool.shapeTrips.isEmpty && !pool.shapes.isEmpty)
        let shapeOf = try db.prepare(
            "SELECT t.shape_id FROM trips t JOIN shapes s ON s.shape_id = t.shape_id WHERE t.trip_id = ?1")
        var shapesOfTrips = Set<String>()
        for trip in pool.shapeTrips {
            shapeOf.reset()
            shapeOf.bind(1, trip)
            #expect(try shapeOf.step(), "\(trip) has no shape")
            shapesOfTrips.insert(shapeOf.string(0) ?? "")
        }
        #expect(Set(pool.shapes) == shapesOfTrips)
        #expect(pool.shapes.count == shapesOfTrips.count)

        // Every route with trips, the busiest first.
        let routesWithTrips = try db.scalarInt("SELECT COUNT(*) FROM routes WHERE trip_count > 0")
        #expect(Int64(pool.routes.count) == routesWithTrips)
        #expect(pool.routes.weight(at: 0) >= pool.routes.weight(at: pool.routes.count - 1))

        // Map views of a phone's size, each around a served stop, one in five filtered by a mode.
        #expect(pool.boxes.count == IdPool.boxCount)
        #expect(pool.boxes.allSatisfy { $0.maxLat - $0.minLat < 0.03 && $0.maxLon - $0.minLon < 0.02 })
        #expect(pool.boxes.filter { $0.mode != nil }.count == IdPool.boxCount / IdPool.boxesPerModeFilter)
        let centre = try db.prepare(
            "SELECT COUNT(*) FROM stops WHERE parent_pk IS NULL AND trip_count > 0 AND lat BETWEEN ?1 AND ?2 AND lon BETWEEN ?3 AND ?4"
        )
        for box in pool.boxes.prefix(50) {
            centre.reset()
            centre.bind(1, box.minLat)
            centre.bind(2, box.maxLat)
            centre.bind(3, box.minLon)
            centre.bind(4, box.maxLon)
            _ = try centre.step()
            #expect(centre.int(0) >= 1)
        }

        // Reliability's stops: where departures leave from at the busiest boards.
        #expect(!pool.reliabilityStops.isEmpty)
        let departs = try db.prepare(
            "SELECT COUNT(*) FROM departures d JOIN stops s ON s.stop_pk = d.stop_pk WHERE s.stop_id = ?1")
        for stop in pool.reliabilityStops.ids.prefix(50) {
            departs.reset()
            departs.bind(1, stop)
            _ = try departs.step()
            #expect(departs.int(0) >= 1, "\(stop)")
        }

        // The same seed, the same pools.
        let again = try IdPool(databasePath: path, window: window, seed: 1)
        #expect(again == pool)
    }
}

@Suite struct MapAndReliabilityAnswerTests {
    func verdict(
        _ line: String, _ op: LoadOp, limit: Int = 100, full: Bool = true, expecting: AnswerExpectation = .none
    ) -> AnswerVerdict {
        Array(line.utf8).withUnsafeBytes {
            AnswerCheck.check($0, op: op, limit: limit, full: full, expecting: expecting)
        }
    }

    static let shape =
        #"{"id":12,"ok":true,"data":{"shape_id":"SF_F1.1","trip_id":null,"source":"shapes","point_count":3,"polyline":"vktmE{s|y[id@acAcg@u_A","distances":[0.0,1205.3,2398.1],"geojson":{"type":"LineString","coordinates":[[151.2123,-33.8606],[151.22319,-33.85463],[151.23354,-33.84821]]}},"meta":{"op":"shape","elapsed_us":250}}"#
    static let shapeOfTrip =
        #"{"id":11,"ok":true,"data":{"shape_id":null,"trip_id":"2519.SCHOOL.0.0805","source":"stops","point_count":4,"polyline":"zb|lEwj|x[kdArNv~@{vCrb@zJ","distances":null},"meta":{"op":"shape","elapsed_us":250}}"#

    @Test func aShapeIsOkWithItsPointsAndTheGeoJSONAskedFor() {
        #expect(verdict(Self.shape, .shape, expecting: .geojson) == .ok(rows: 3))
        #expect(verdict(Self.shapeOfTrip, .shape) == .ok(rows: 4))
        // GeoJSON asked for and missing: wrong even by the byte scan.
        #expect(verdict(Self.shapeOfTrip, .shape, full: false, expecting: .geojson) == .error(CheckCode.badShape))
        // GeoJSON not asked for and sent anyway, or with fewer coordinates than points: wrong on the full parse.
        #expect(verdict(Self.shape, .shape, full: false) == .ok(rows: 3))
        #expect(verdict(Self.shape, .shape) == .error(CheckCode.badShape))
        let short = Self.shape.replacingOccurrences(of: ",[151.23354,-33.84821]]", with: "]")
        #expect(verdict(short, .shape, expecting: .geojson) == .error(CheckCode.badShape))
    }

    @Test func aShapeWithoutPointsOrPolylineIsAnError() {
        let empty = Self.shapeOfTrip.replacingOccurrences(of: #""point_count":4"#, with: #""point_count":0"#)
        #expect(verdict(empty, .shape, full: false) == .error(CheckCode.implausibleRows))
        let noLine = Self.shapeOfTrip.replacingOccurrences(
            of: #""polyline":"zb|lEwj|x[kdArNv~@{vCrb@zJ""#, with: #""polyline":"""#)
        #expect(verdict(noLine, .shape, full: false) == .error(CheckCode.badShape))
        let notFound = #"{"id":11,"ok":false,"error":{"code":"NOT_FOUND","message":"shape x"}}"#
        #expect(verdict(notFound, .shape) == .error("NOT_FOUND"))
        // A board answered to a shape request is not a shape.
        #expect(verdict(AnswerCheckTests.departures, .shape) == .error(CheckCode.badShape))
    }

    static let route =
        #"{"id":13,"ok":true,"data":{"route":{"route_id":"2440_2519","agency_id":"2440","short_name":"2519","long_name":"Cherrybrook","route_type":712,"mode":"bus"},"service_span":{"date":"20260303","first":"08:05:00","last":"15:20:00"},"spans_by_day_type":{"weekday":{"first":"08:05:00","last":"15:20:00"},"saturday":null,"sunday":null},"typical_week":"20250303","patterns":[{"direction_id":0,"headsigns":["Pennant Hills High School"],"shape_ids":[],"trip_count":1,"first_departure":"08:05:00","last_departure":"08:05:00","service_span":{"date":"20260303","first":"08:05:00","last":"08:05:00"},"spans_by_day_type":{"weekday":null,"saturday":null,"sunday":null},"stops":[{"stop_id":"2126201","name":"Castle Hill Rd","lat":-33.7363,"lon":151.047,"parent_station":null},{"stop_id":"2120399","name":"Pennant Hills High School","lat":-33.7411,"lon":151.0669,"parent_station":null}]},{"direction_id":1,"headsigns":["Cherrybrook Station"],"shape_ids":["S1"],"trip_count":1,"first_departure":"15:20:00","last_departure":"15:20:00","service_span":{"date":"20260303","first":"15:20:00","last":"15:20:00"},"spans_by_day_type":{"weekday":null,"saturday":null,"sunday":null},"stops":[{"stop_id":"2120399","name":"Pennant Hills High School","lat":-33.7411,"lon":151.0669,"parent_station":null}]}]},"meta":{"op":"route","elapsed_us":250}}"#

    @Test func aRouteIsOkWithPatternsThatHaveStops() {
        #expect(verdict(Self.route, .route) == .ok(rows: 2))
        let noPatterns =
            #"{"id":1,"ok":true,"data":{"route":{"route_id":"R"},"service_span":{"date":"20260303","first":null,"last":null},"spans_by_day_type":{"weekday":null,"saturday":null,"sunday":null},"typical_week":null,"patterns":[]},"meta":{"op":"route","elapsed_us":1}}"#
        #expect(verdict(noPatterns, .route, full: false) == .error(CheckCode.implausibleRows))
        // A pattern without stops: the byte scan counts two stops for two patterns, the full parse finds one empty.
        let emptyPattern = Self.route.replacingOccurrences(
            of:
                #""stops":[{"stop_id":"2120399","name":"Pennant Hills High School","lat":-33.7411,"lon":151.0669,"parent_station":null}]}]"#,
            with: #""stops":[]}]"#)
        #expect(emptyPattern != Self.route)
        #expect(verdict(emptyPattern, .route, full: false) == .ok(rows: 2))
        #expect(verdict(emptyPattern, .route) == .error(CheckCode.badShape))
        #expect(verdict(Self.route, .trip) == .error(CheckCode.badShape))
    }

    static let box = MapBox(minLat: -33.87, minLon: 151.2, maxLat: -33.86, maxLon: 151.215)
    static let stopsInBBox =
        #"{"id":14,"ok":true,"data":{"stops":[{"stop_id":"2000440","code":"2000440","name":"Circular Quay Light Rail","lat":-33.8619,"lon":151.2096,"location_type":0,"parent_station":null,"mode":"tram","distance_m":null},{"stop_id":"2000441","code":"2000441","name":"Bridge Street Light Rail","lat":-33.864,"lon":151.2079,"location_type":0,"parent_station":null,"mode":"tram","distance_m":null}]},"meta":{"op":"stops_in_bbox","elapsed_us":250}}"#

    @Test func stopsInABoxAreOkInsideItAndErrorsOutsideIt() {
        #expect(verdict(Self.stopsInBBox, .stopsInBBox, expecting: .inside(Self.box)) == .ok(rows: 2))
        #expect(verdict(Self.stopsInBBox, .stopsInBBox, limit: 1) == .error(CheckCode.implausibleRows))
        // A station a little outside (brought in by its platform) passes; a stop across town does not.
        let nearby = Self.stopsInBBox.replacingOccurrences(of: #""lat":-33.864,"#, with: #""lat":-33.8555,"#)
        #expect(verdict(nearby, .stopsInBBox, expecting: .inside(Self.box)) == .ok(rows: 2))
        let far = Self.stopsInBBox.replacingOccurrences(of: #""lat":-33.864,"#, with: #""lat":-33.7,"#)
        #expect(verdict(far, .stopsInBBox, full: false, expecting: .inside(Self.box)) == .ok(rows: 2))
        #expect(verdict(far, .stopsInBBox, expecting: .inside(Self.box)) == .error(CheckCode.badShape))
        let empty = #"{"id":1,"ok":true,"data":{"stops":[]},"meta":{"op":"stops_in_bbox","elapsed_us":1}}"#
        #expect(verdict(empty, .stopsInBBox, expecting: .inside(Self.box)) == .error(CheckCode.implausibleRows))
        let tooLarge = #"{"id":1,"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"box too large"}}"#
        #expect(verdict(tooLarge, .stopsInBBox) == .error("INVALID_ARGUMENT"))
    }

    static let reliability =
        #"{"id":2,"ok":true,"data":{"route_id":"2459_333","stop_id":"2026113","hour":20,"day_type":"weekday","samples":12,"on_time_share":0.75,"early_share":0.083,"late_share":0.167,"on_time_window":{"early_s":-60,"late_s":299},"p10_s":-54,"p50_s":75,"p90_s":336,"buckets":[{"from_s":-120,"to_s":-60,"count":1},{"from_s":0,"to_s":60,"count":9},{"from_s":300,"to_s":360,"count":2}],"first_date":"20251204","last_date":"20251222","days":19},"meta":{"op":"reliability","elapsed_us":250,"at":1766394000,"source":"static+rt","stale":false,"feed_age_s":0}}"#
    static let noSamples =
        #"{"id":3,"ok":true,"data":{"route_id":"X","stop_id":null,"hour":null,"day_type":null,"samples":0,"on_time_share":null,"early_share":null,"late_share":null,"on_time_window":{"early_s":-60,"late_s":299},"p10_s":null,"p50_s":null,"p90_s":null,"buckets":[],"first_date":"20251204","last_date":"20251222","days":19},"meta":{"op":"reliability","elapsed_us":250,"at":1766394000,"source":"static+rt","stale":false,"feed_age_s":0}}"#

    @Test func reliabilityIsOkWhenItsBucketsAddUpAndItsSharesAreFractions() {
        #expect(verdict(Self.reliability, .reliability) == .ok(rows: 3))
        #expect(verdict(Self.noSamples, .reliability) == .ok(rows: 0))
        let miscounted = Self.reliability.replacingOccurrences(of: #""samples":12"#, with: #""samples":13"#)
        #expect(verdict(miscounted, .reliability, full: false) == .ok(rows: 3))
        #expect(verdict(miscounted, .reliability) == .error(CheckCode.badShape))
        let share = Self.reliability.replacingOccurrences(of: #""on_time_share":0.75"#, with: #""on_time_share":75"#)
        #expect(verdict(share, .reliability) == .error(CheckCode.badShape))
        let shareWithoutSamples = Self.noSamples.replacingOccurrences(
            of: #""on_time_share":null"#, with: #""on_time_share":1"#)
        #expect(verdict(shareWithoutSamples, .reliability) == .error(CheckCode.badShape))
        let noWindow = Self.reliability.replacingOccurrences(
            of: #""on_time_window":{"early_s":-60,"late_s":299},"#, with: "")
        #expect(verdict(noWindow, .reliability, full: false) == .error(CheckCode.badShape))
        let down = #"{"id":2,"ok":false,"error":{"code":"REALTIME_UNAVAILABLE","message":"no delays"}}"#
        #expect(verdict(down, .reliability) == .error("REALTIME_UNAVAILABLE"))
    }
}
