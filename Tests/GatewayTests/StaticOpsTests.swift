import Foundation
import GatewayProtocol
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// Every op the static service answers, through a real TCP connection (GATEWAY.md §6).
@Suite struct StaticOpsTests {
    @Test func healthReportsTheStaticFeedAndNoRealtime() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            let answer = try await client.ask(#"{"id":"h","op":"health"}"#)
            #expect(answer.ok, "\(answer)")
            #expect(answer.id as? String == "h")
            let staticPart = answer.data["static"] as? [String: Any] ?? [:]
            #expect(staticPart["status"] as? String == "ok")
            #expect((staticPart["database_version"] as? String)?.isEmpty == false)
            #expect(staticPart["latency_us"] is Int)
            let feeds = staticPart["feeds"] as? [[String: Any]] ?? []
            #expect(feeds.first?["name"] as? String == "sample")
            #expect(feeds.first?["start_date"] as? String == "20250101")
            #expect(feeds.first?["end_date"] as? String == "20301231")
            // No realtime configured (on purpose): static answers, realtime "not_configured", overall ok.
            let realtime = answer.data["realtime"] as? [String: Any] ?? [:]
            #expect(realtime["status"] as? String == "not_configured")
            #expect(realtime["last_heartbeat_age_s"] is NSNull)
            #expect(answer.data["status"] as? String == "ok")
            let gateway = answer.data["gateway"] as? [String: Any] ?? [:]
            #expect(gateway["connections"] as? Int == 1)
            #expect(answer.meta["op"] as? String == "health")
        }
    }

    /// The gateway's largest accepted values reach the static service, which must accept them as well: a board
    /// of the largest limit asks static pages of `StaticRequestLimits.maxLimit` rows (with the board window
    /// cache on, the window asks as many), and search and nearby pass limit, radius and `at` through. Should the
    /// gateway's page size or request limits ever outgrow what the static service accepts, these fail.
    @Test(arguments: [0, 512])
    func theGatewaysLargestRequestsAreOnesTheStaticServiceAccepts(boardCacheStops: Int) async throws {
        try await withGateway(configure: { $0.boardCacheStops = boardCacheStops }) { fixture in
            let client = try fixture.client()
            let limit = GatewayLimits.maxLimit, radius = Int(GatewayLimits.maxRadiusMetres),
                at = SampleTimes.mondayEvening
            for direction in ["future", "past"] {
                let board = try await client.ask(
                    #"{"op":"departures","stop_id":"200060","at":\#(at),"limit":\#(limit),"direction":"\#(direction)"}"#
                )
                #expect(board.ok, "\(board)")
                #expect(board.list("departures").count == limit, "\(direction)")
            }
            let late = try await client.ask(
                #"{"op":"departures","stop_id":"200060","at":\#(GatewayLimits.maxAt),"limit":\#(limit)}"#)
            #expect(late.ok, "\(late)")
            let search = try await client.ask(#"{"op":"search","q":"st","limit":\#(limit)}"#)
            #expect(search.ok, "\(search)")
            let nearby = try await client.ask(
                #"{"op":"nearby","lat":-33.88324,"lon":151.20629,"radius_m":\#(radius),"limit":\#(limit)}"#)
            #expect(nearby.ok, "\(nearby)")
        }
    }

    @Test func feedInfoStopSearchNearbyRoutes() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()

            let info = try await client.ask(#"{"id":1,"op":"feed_info"}"#)
            #expect(info.ok, "\(info)")
            #expect(info.data["stops"] as? Int == 208)
            #expect(info.data["routes"] as? Int == 15)
            #expect(info.data["trips"] as? Int == 815)

            let stop = try await client.ask(#"{"id":2,"op":"stop","stop_id":"200060"}"#)
            #expect(stop.ok, "\(stop)")
            let central = stop.data["stop"] as? [String: Any] ?? [:]
            #expect(central["name"] as? String == "Central Station")
            #expect(central["location_type"] as? Int == 1)
            let platforms = stop.list("platforms").compactMap { $0["stop_id"] as? String }
            #expect(platforms.contains("20006016"))
            let routes = stop.list("routes").compactMap { $0["route_id"] as? String }
            #expect(routes.contains("ST_T1"))
            #expect(stop.meta["op"] as? String == "stop")
            #expect(stop.meta["elapsed_us"] is Int)

            let search = try await client.ask(#"{"id":3,"op":"search","q":"town hall","limit":5}"#)
            #expect(search.ok, "\(search)")
            let found = search.list("stops").compactMap { $0["stop_id"] as? String }
            #expect(found.contains("200070"))
            #expect(found.count <= 5)

            let nearby = try await client.ask(
                #"{"id":4,"op":"nearby","lat":-33.88324,"lon":151.20629,"radius_m":300,"limit":3}"#)
            #expect(nearby.ok, "\(nearby)")
            let near = nearby.list("stops")
            #expect(!near.isEmpty && near.count <= 3)
            let distances = near.compactMap { $0["distance_m"] as? Int }
            #expect(distances == distances.sorted())
            #expect(distances.allSatisfy { $0 <= 300 })

            let routesAnswer = try await client.ask(#"{"id":5,"op":"routes","mode":"bus"}"#)
            #expect(routesAnswer.ok, "\(routesAnswer)")
            let busRoutes = routesAnswer.list("routes")
            #expect(!busRoutes.isEmpty)
            #expect(busRoutes.allSatisfy { $0["mode"] as? String == "bus" })
            let sections = routesAnswer.list("sections")
            #expect(sections.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == busRoutes.count)
        }
    }

    @Test func departuresAreStaticOnlyWithPresentationFields() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            let at = SampleTimes.mondayEvening
            let answer = try await client.ask(#"{"id":"b","op":"departures","stop_id":"200060","at":\#(at),"limit":5}"#)
            #expect(answer.ok, "\(answer)")
            let rows = answer.list("departures")
            #expect(rows.count == 5)
            let times = rows.compactMap { $0["scheduled_unix"] as? Int }
            #expect(times == times.sorted())
            for row in rows {
                let scheduled = Int64(row["scheduled_unix"] as? Int ?? 0)
                #expect(scheduled >= at)
                #expect(row["status"] as? String == "scheduled")
                #expect(row["realtime"] as? Bool == false)
                #expect(row["delay_badge"] is NSNull)
                let minutes = Int((scheduled - at) / 60)
                #expect(row["minutes_until"] as? Int == minutes)
                #expect(row["countdown_text"] as? String == (minutes == 0 ? "Now" : "\(minutes) min"))
            }
            // No realtime configured: static only, and nothing is stale.
            #expect(answer.meta["source"] as? String == "static_only")
            #expect(answer.meta["stale"] as? Bool == false)
            #expect(answer.meta["at"] as? Int == Int(at))
            #expect(answer.meta["feed_age_s"] is NSNull)
        }
    }

    @Test func departuresWithRealtimeConfiguredButSilentAreStale() async throws {
        try await withGateway(realtime: RealtimeView(configured: true)) { fixture in
            let client = try fixture.client()
            let answer = try await client.ask(#"{"id":1,"op":"departures","stop_id":"200060","limit":2}"#)
            #expect(answer.ok, "\(answer)")
            #expect(answer.meta["source"] as? String == "static_only")
            #expect(answer.meta["stale"] as? Bool == true)
            // `at` defaults to now.
            let at = answer.meta["at"] as? Int ?? 0
            #expect(abs(Int64(at) - Int64(Date().timeIntervalSince1970)) <= 5)
            let health = try await client.ask(#"{"op":"health"}"#)
            #expect((health.data["realtime"] as? [String: Any])?["status"] as? String == "silent")
            #expect(health.data["status"] as? String == "degraded")
        }
    }

    @Test func departureCursorsPageForwardAndBackWithoutGapsOrRepeats() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            let at = SampleTimes.mondayEvening
            let first = try await client.ask(#"{"id":1,"op":"departures","stop_id":"200060","at":\#(at),"limit":4}"#)
            let later = try #require((first.data["page"] as? [String: Any])?["later_cursor"] as? String)
            let second = try await client.ask(
                #"{"id":2,"op":"departures","stop_id":"200060","at":\#(at),"limit":4,"cursor":"\#(later)"}"#)
            #expect(second.ok, "\(second)")
            let key = { (row: [String: Any]) in
                "\(row["trip_id"] ?? "")|\(row["start_time"] ?? "")|\(row["stop_sequence"] ?? "")|\(row["service_date"] ?? "")"
            }
            let firstKeys = first.list("departures").map(key)
            let secondKeys = second.list("departures").map(key)
            #expect(secondKeys.count == 4)
            #expect(Set(firstKeys).isDisjoint(with: secondKeys))
            #expect(
                (second.list("departures").first?["scheduled_unix"] as? Int ?? 0)
                    >= (first.list("departures").last?["scheduled_unix"] as? Int ?? .max))
            // The countdowns of a cursor page still count from `at`.
            #expect(second.meta["at"] as? Int == Int(at))
            let earlier = try #require((second.data["page"] as? [String: Any])?["earlier_cursor"] as? String)
            let back = try await client.ask(
                #"{"id":3,"op":"departures","stop_id":"200060","at":\#(at),"limit":4,"cursor":"\#(earlier)"}"#)
            #expect(back.list("departures").map(key) == firstKeys)
        }
    }

    @Test func tripAnswersEveryStopOfTheRun() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            let at = SampleTimes.mondayEvening
            let board = try await client.ask(#"{"id":1,"op":"departures","stop_id":"200060","at":\#(at),"limit":1}"#)
            let row = try #require(board.list("departures").first)
            let tripId = try #require(row["trip_id"] as? String)
            let date = try #require(row["service_date"] as? String)
            var request = #"{"id":2,"op":"trip","trip_id":"\#(tripId)","date":"\#(date)","at":\#(at)"#
            if let start = row["start_time"] as? String { request += #","start_time":"\#(start)""# }
            let trip = try await client.ask(request + "}")
            #expect(trip.ok, "\(trip)")
            #expect(trip.data["trip_id"] as? String == tripId)
            #expect(trip.data["service_date"] as? String == date)
            #expect(trip.data["realtime"] as? Bool == false)
            #expect(trip.data["vehicle"] is NSNull)
            let stops = trip.list("stops")
            #expect(stops.count >= 2)
            let sequences = stops.compactMap { $0["stop_sequence"] as? Int }
            #expect(sequences == sequences.sorted())
            #expect(stops.contains { ($0["stop_sequence"] as? Int) == (row["stop_sequence"] as? Int) })
            #expect(
                stops.allSatisfy { $0["status"] as? String == "scheduled" && $0["realtime_departure_unix"] is NSNull })
            #expect(trip.meta["source"] as? String == "static_only")
        }
    }

    @Test func mapOpsShapeRouteAndStopsInABox() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            let shape = try await client.ask(#"{"id":1,"op":"shape","trip_id":"T1.WKD.0.0510","format":"geojson"}"#)
            #expect(shape.ok, "\(shape)")
            #expect(shape.data["shape_id"] as? String == "ST_T1.1" && shape.data["source"] as? String == "shapes")
            let count = try #require(shape.data["point_count"] as? Int)
            let geojson = try #require(shape.data["geojson"] as? [String: Any])
            #expect(geojson["type"] as? String == "LineString")
            let coordinates = try #require(geojson["coordinates"] as? [[Double]])
            #expect(coordinates.count == count && (shape.data["distances"] as? [Double])?.count == count)
            // [lon, lat]: Penrith first.
            #expect(coordinates.first == [150.6942, -33.75])

            let line = try await client.ask(#"{"id":2,"op":"shape","trip_id":"2519.SCHOOL.0.0805"}"#)
            #expect(line.data["source"] as? String == "stops" && line.data["shape_id"] is NSNull)
            #expect(line.data["point_count"] as? Int == 4 && line.data["geojson"] == nil)
            let neither = try await client.ask(#"{"id":3,"op":"shape"}"#)
            #expect(neither.errorCode == "INVALID_ARGUMENT")
            let unknown = try await client.ask(#"{"id":4,"op":"shape","shape_id":"NOPE"}"#)
            #expect(unknown.errorCode == "NOT_FOUND")
            let format = try await client.ask(#"{"id":5,"op":"shape","shape_id":"ST_T1.1","format":"kml"}"#)
            #expect(format.errorCode == "INVALID_ARGUMENT")

            let route = try await client.ask(#"{"id":6,"op":"route","route_id":"ST_T1"}"#)
            #expect(route.ok, "\(route)")
            let patterns = route.list("patterns")
            #expect(patterns.map { $0["direction_id"] as? Int } == [0, 1])
            #expect(patterns.first?["headsigns"] as? [String] == ["Hornsby"])
            #expect(patterns.first?["shape_ids"] as? [String] == ["ST_T1.1"])
            #expect((patterns.first?["stops"] as? [[String: Any]])?.first?["name"] as? String != nil)
            #expect(try await client.ask(#"{"id":7,"op":"route","route_id":"NOPE"}"#).errorCode == "NOT_FOUND")

            let box = try await client.ask(
                #"{"id":8,"op":"stops_in_bbox","min_lat":-33.89,"min_lon":151.2,"max_lat":-33.86,"max_lon":151.215,"mode":"train","limit":5}"#
            )
            #expect(box.ok, "\(box)")
            let ids = box.list("stops").compactMap { $0["stop_id"] as? String }
            #expect(ids.contains("200060") && ids.count <= 5)
            #expect(box.list("stops").allSatisfy { ($0["location_type"] as? Int ?? 9) <= 1 })
            let inverted = try await client.ask(
                #"{"id":9,"op":"stops_in_bbox","min_lat":-33.86,"min_lon":151.2,"max_lat":-33.89,"max_lon":151.215}"#)
            #expect(inverted.errorCode == "INVALID_ARGUMENT")
            #expect(inverted.errorMessage?.contains("inverted box") == true)
            let large = try await client.ask(
                #"{"id":10,"op":"stops_in_bbox","min_lat":-34.5,"min_lon":150.5,"max_lat":-33.5,"max_lon":151.5}"#)
            #expect(large.errorMessage?.contains("box too large") == true)

            let trip = try await client.ask(
                #"{"id":11,"op":"trip","trip_id":"T1.WKD.0.0510","date":"20251222","at":\#(SampleTimes.mondayMorning)}"#
            )
            #expect(trip.data["shape_id"] as? String == "ST_T1.1")
        }
    }

    @Test func statsCountRequestsErrorsAndLatencyPerOp() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            for id in 1...3 { _ = try await client.ask(#"{"id":\#(id),"op":"stop","stop_id":"200060"}"#) }
            _ = try await client.ask(#"{"id":4,"op":"stop","stop_id":"nope"}"#)
            _ = try await client.ask("not json")
            let stats = try await client.ask(#"{"id":5,"op":"stats"}"#)
            #expect(stats.ok, "\(stats)")
            #expect(stats.data["requests"] as? Int == 5)
            let errors = stats.data["errors"] as? [String: Int] ?? [:]
            #expect(errors == ["NOT_FOUND": 1, "BAD_JSON": 1])
            let ops = stats.data["ops"] as? [String: [String: Int]] ?? [:]
            let stop = try #require(ops["stop"])
            #expect(stop["count"] == 4)
            #expect(stop["errors"] == 1)
            let p50 = stop["p50_us"] ?? -1, p95 = stop["p95_us"] ?? -1, p99 = stop["p99_us"] ?? -1,
                max = stop["max_us"] ?? -1
            #expect(p50 > 0 && p50 <= p95 && p95 <= p99 && p99 <= max)
            #expect(ops["stats"] == nil)
            #expect((stats.data["connections"] as? [String: Int])?["open"] == 1)
        }
    }
}
