import Foundation
import Synchronization
import Testing
import TransitModel

@testable import GatewayProtocol

/// Each encoder's output parsed back with JSONSerialization and checked field by field against GATEWAY.md.
@Suite struct EncoderTests {
    typealias F = Fixtures

    static let stopFields: [String: [Kind]] = [
        "stop_id": [.string], "code": [.string, .null], "name": [.string], "lat": [.double], "lon": [.double],
        "location_type": [.int], "parent_station": [.string, .null], "platform_code": [.string, .null],
        "wheelchair_boarding": [.int], "primary_route_type": [.int, .null], "mode": [.string, .null],
        "icon": [.string], "accessibility_label": [.string], "timezone": [.string, .null], "distance_m": [.int, .null],
    ]
    static let routeFields: [String: [Kind]] = [
        "route_id": [.string], "agency_id": [.string, .null], "short_name": [.string, .null],
        "long_name": [.string, .null], "route_type": [.int], "mode": [.string], "icon": [.string],
        "color": [.string, .null], "text_color": [.string, .null], "section": [.string], "feed": [.string, .null],
    ]
    static let departureFields: [String: [Kind]] = [
        "trip_id": [.string], "start_time": [.string, .null], "route_id": [.string],
        "route_short_name": [.string, .null], "route_long_name": [.string, .null], "route_type": [.int],
        "mode": [.string], "route_color": [.string, .null], "route_text_color": [.string, .null],
        "headsign": [.string, .null], "direction_id": [.int, .null], "stop_id": [.string], "stop_sequence": [.int],
        "service_date": [.string], "scheduled_secs": [.int, .null], "scheduled_unix": [.int, .null],
        "realtime_secs": [.int, .null], "realtime_unix": [.int, .null], "delay_s": [.int, .null],
        "realtime": [.bool], "status": [.string], "delay_badge": [.object, .null],
        "prediction_source": [.string], "prediction_age_s": [.int, .null], "minutes_until": [.int],
        "countdown_text": [.string], "platform": [.string, .null], "platform_changed": [.bool],
        "scheduled_platform": [.string, .null], "wheelchair_accessible": [.int],
        "occupancy_status": [.string, .null], "carriages": [.array], "alert_ids": [.array],
        "typical_delay": [.object, .null], "detour": [.object, .null],
    ]
    static let carriageFields: [String: [Kind]] = [
        "position": [.int, .null], "name": [.string, .null], "occupancy_status": [.string, .null],
        "quiet": [.bool, .null], "toilet": [.string, .null], "luggage_rack": [.bool, .null],
    ]
    static let tripStopFields: [String: [Kind]] = [
        "stop_id": [.string], "stop_name": [.string], "stop_sequence": [.int], "detour_role": [.string, .null],
        "scheduled_arrival_secs": [.int, .null], "scheduled_arrival_unix": [.int, .null],
        "scheduled_departure_secs": [.int, .null], "scheduled_departure_unix": [.int, .null],
        "realtime_arrival_secs": [.int, .null], "realtime_arrival_unix": [.int, .null],
        "realtime_departure_secs": [.int, .null], "realtime_departure_unix": [.int, .null],
        "delay_s": [.int, .null], "status": [.string], "delay_badge": [.object, .null],
        "prediction_source": [.string], "prediction_age_s": [.int, .null], "platform": [.string, .null],
        "platform_changed": [.bool], "scheduled_platform": [.string, .null],
        "wheelchair_accessible": [.int], "lat": [.double], "lon": [.double], "parent_station": [.string, .null],
        "pickup_type": [.int], "drop_off_type": [.int], "stop_headsign": [.string, .null],
        "occupancy_status": [.string, .null], "carriages": [.array], "alert_ids": [.array],
        "typical_delay": [.object, .null],
    ]
    static let badgeFields: [String: [Kind]] = [
        "text": [.string], "color": [.string], "accessibility_label": [.string],
    ]

    // MARK: envelopes

    @Test func successEnvelope() throws {
        let line = GatewayResponse.success(
            id: RawJSON(bytes: Array("\"q\"".utf8)), meta: ResponseMeta(op: .routes, elapsedMicros: 321)
        ) {
            $0.routeListData([])
        }
        let o = try parseLine(line)
        expectFields(o, ["id": [.string], "ok": [.bool], "data": [.object], "meta": [.object]])
        #expect(o["id"] as? String == "q")
        #expect(o["ok"] as? Bool == true)
        let meta = try sub(o, "meta")
        expectFields(meta, ["op": [.string], "elapsed_us": [.int]])
        #expect(meta["op"] as? String == "routes")
        #expect(meta["elapsed_us"] as? Int == 321)
        #expect(string(line).hasPrefix(#"{"id":"q","ok":true,"data":{"routes":[],"sections":[]},"meta":"#))
    }

    @Test func liveMeta() throws {
        let o = try answer(.departures, live: LiveMeta(at: 7, source: .staticOnly, stale: true)) { $0.null() }
        let meta = try sub(o, "meta")
        expectFields(
            meta,
            [
                "op": [.string], "elapsed_us": [.int], "at": [.int], "source": [.string], "stale": [.bool],
                "feed_age_s": [.null], "epoch": [.null],
            ])
        #expect(meta["source"] as? String == "static_only")
        #expect(meta["stale"] as? Bool == true)
        let rt = try answer(.trip, live: LiveMeta(at: 7, source: .realtimeOnly, feedAgeSeconds: 3)) { $0.null() }
        #expect(try sub(rt, "meta")["source"] as? String == "rt_only")
        #expect(try sub(rt, "meta")["feed_age_s"] as? Int == 3)
    }

    @Test func errorEnvelope() throws {
        let line = GatewayResponse.error(id: .null, GatewayError(.badJSON, "column 3: \"quoted\"\nnewline"))
        let o = try parseLine(line)
        expectFields(o, ["id": [.null], "ok": [.bool], "error": [.object]])
        #expect(o["ok"] as? Bool == false)
        let error = try sub(o, "error")
        expectFields(error, ["code": [.string], "message": [.string]])
        #expect(error["code"] as? String == "BAD_JSON")
        #expect(error["message"] as? String == "column 3: \"quoted\"\nnewline")
    }

    @Test func everyErrorCodeSpelling() {
        #expect(
            GatewayErrorCode.allCases.map(\.rawValue) == [
                "BAD_JSON", "UNKNOWN_OP", "INVALID_ARGUMENT", "NOT_FOUND", "LINE_TOO_LONG", "STATIC_UNAVAILABLE",
                "REALTIME_UNAVAILABLE", "TIMEOUT", "OVERLOADED", "UNAUTHENTICATED", "RATE_LIMITED", "INTERNAL",
            ])
        #expect(GatewayError.lineTooLong(limit: 65536).code == .lineTooLong)
    }

    @Test func staticStatusesMapToGatewayCodes() {
        #expect(
            GatewayError(staticError: ServiceError(.notFound, "unknown stop_id \"9\""))
                == GatewayError(.notFound, "unknown stop_id \"9\""))
        #expect(GatewayError(staticError: ServiceError(.invalidArgument, "bad cursor")).code == .invalidArgument)
        #expect(GatewayError(staticError: ServiceError(.unavailable, "no database")).code == .staticUnavailable)
        #expect(GatewayError(staticError: ServiceError(.internal, "x")).code == .internal)
        #expect(GatewayError(staticError: ServiceError(.badRequest, "x")).code == .internal)
    }

    @Test func departuresEvent() throws {
        let meta = ResponseMeta(op: .departures, elapsedMicros: 10, live: F.liveMeta12)
        let o = try parseLine(GatewayResponse.departuresEvent(sub: 3, answer: F.departuresAnswer, meta: meta))
        expectFields(o, ["event": [.string], "sub": [.int], "data": [.object], "meta": [.object]])
        #expect(o["event"] as? String == "departures")
        #expect(o["sub"] as? Int == 3)
        #expect(try list(try sub(o, "data"), "departures").count == 3)
    }

    // MARK: stops and routes

    @Test func stopObject() throws {
        let o = try answer(.stop) { $0.stopData(F.stopResult) }
        let data = try sub(o, "data")
        expectFields(data, ["stop": [.object], "parent": [.object, .null], "platforms": [.array], "routes": [.array]])
        let stop = try sub(data, "stop")
        expectFields(stop, Self.stopFields)
        #expect(stop["stop_id"] as? String == "200060")
        #expect(stop["lat"] as? Double == -33.883193)
        #expect(stop["location_type"] as? Int == 1)
        #expect(stop["mode"] as? String == "train")
        #expect(stop["icon"] as? String == "train.side.front.car")
        #expect(stop["accessibility_label"] as? String == "Train stop")
        #expect(stop["code"] is NSNull)
        #expect(stop["distance_m"] is NSNull)
        #expect(data["parent"] is NSNull)
        let platforms = try list(data, "platforms")
        #expect(platforms.map { $0["stop_id"] as? String } == ["2000331", "2000391"])
        for p in platforms { expectFields(p, Self.stopFields) }
        #expect(platforms[1]["icon"] as? String == "lightrail.fill")
        #expect(platforms[1]["accessibility_label"] as? String == "Metro stop")
        #expect(platforms[1]["parent_station"] as? String == "200060")
        for r in try list(data, "routes") { expectFields(r, Self.routeFields) }
    }

    @Test func platformWithParent() throws {
        let o = try answer(.stop) { $0.stopData(StopResult(stop: F.platform1, parent: F.central)) }
        let data = try sub(o, "data")
        #expect(try sub(data, "parent")["stop_id"] as? String == "200060")
        #expect(try list(data, "platforms").isEmpty)
        #expect(try list(data, "routes").isEmpty)
    }

    @Test func stopWithoutModeGetsAPin() throws {
        let bare = Stop(stopId: "e1", name: "Entrance", lat: 0, lon: 0, locationType: 2)
        let o = try answer(.search) { $0.stopListData([bare]) }
        let stop = try list(try sub(o, "data"), "stops")[0]
        expectFields(stop, Self.stopFields)
        #expect(stop["mode"] is NSNull)
        #expect(stop["primary_route_type"] is NSNull)
        #expect(stop["icon"] as? String == "mappin.circle.fill")
        #expect(stop["accessibility_label"] as? String == "Stop")
    }

    @Test func nearbyDistancesAreWholeMetres() throws {
        var far = F.central
        far.distanceMetres = 250.5
        var nan = F.platform1
        nan.distanceMetres = .nan
        let o = try answer(.nearby) { $0.stopListData([F.circularQuay, far, nan]) }
        let stops = try list(try sub(o, "data"), "stops")
        #expect(stops.map { $0["distance_m"] as? Int } == [7, 251, nil])
        #expect(stops[2]["distance_m"] is NSNull)
        #expect(stops[0]["icon"] as? String == "ferry.fill")
    }

    @Test func routesWithSections() throws {
        func route(_ name: String, _ section: String) -> Route {
            Route(routeId: name, shortName: name, routeType: 3, mode: "bus", section: section)
        }
        let routes = [
            route("2", "#"), route("10", "#"), route("333", "#"), route("L90", "L"), route("M30", "M"),
            route("M52", "M"),
        ]
        let o = try answer(.routes) { $0.routeListData(routes) }
        let data = try sub(o, "data")
        expectFields(data, ["routes": [.array], "sections": [.array]])
        let encoded = try list(data, "routes")
        #expect(encoded.map { $0["route_id"] as? String } == ["2", "10", "333", "L90", "M30", "M52"])
        for r in encoded { expectFields(r, Self.routeFields) }
        #expect(encoded[0]["color"] is NSNull)
        #expect(encoded[0]["icon"] as? String == "bus.fill")
        let sections = try list(data, "sections")
        for s in sections { expectFields(s, ["key": [.string], "first_index": [.int], "count": [.int]]) }
        #expect(sections.map { $0["key"] as? String } == ["#", "L", "M"])
        #expect(sections.map { $0["first_index"] as? Int } == [0, 3, 4])
        #expect(sections.map { $0["count"] as? Int } == [3, 1, 2])
    }

    @Test func feedInfo() throws {
        let o = try answer(.feedInfo) { $0.feedInfoData(F.feedInfo) }
        let data = try sub(o, "data")
        expectFields(
            data,
            [
                "database_version": [.string], "imported_at": [.int], "stops": [.int], "routes": [.int],
                "trips": [.int],
                "stop_times": [.int], "patterns": [.int], "feeds": [.array],
            ])
        let feed = try list(data, "feeds")[0]
        expectFields(
            feed,
            [
                "name": [.string], "prefix": [.null], "publisher": [.string], "version": [.string],
                "start_date": [.string],
                "end_date": [.string], "timezone": [.string], "lang": [.string], "imported_at": [.int], "stops": [.int],
                "routes": [.int], "trips": [.int], "stop_times": [.int], "source": [.string], "refresh": [.null],
            ])
        #expect(feed["start_date"] as? String == "20250101")
        #expect(feed["end_date"] as? String == "20301231")
    }

    @Test func feedInfoWithARefreshedFeed() throws {
        var info = F.feedInfo
        info.feeds[0].refresh = FeedRefreshStatus(
            source: "https://api.example.com/gtfs", lastCheck: 100, lastChange: 50, nextCheck: 400,
            lastError: "HTTP 503", lastErrorAt: 100, consecutiveFailures: 2, refused: nil)
        let o = try answer(.feedInfo) { $0.feedInfoData(info) }
        let refresh = try sub(try list(try sub(o, "data"), "feeds")[0], "refresh")
        expectFields(
            refresh,
            [
                "source": [.string], "last_check_unix": [.int], "last_change_unix": [.int], "next_check_unix": [.int],
                "last_error": [.string], "last_error_unix": [.int], "consecutive_failures": [.int], "refused": [.null],
            ])
        #expect(refresh["last_error"] as? String == "HTTP 503" && refresh["consecutive_failures"] as? Int == 2)
    }

    // MARK: departures

    private func rows(_ rows: [DepartureRow], at: Int64 = F.at) throws -> [[String: Any]] {
        let answer = DeparturesAnswer(
            stopId: "200060", timezone: nil, rows: rows,
            page: BoardPage(
                direction: .future, hasMorePast: false, hasMoreFuture: false, earlierCursor: nil, laterCursor: nil))
        let o = try GatewayProtocolTests.answer(.departures, live: .staticOnly(at: at)) {
            $0.departuresData(answer, at: at)
        }
        let encoded = try list(try sub(o, "data"), "departures")
        for row in encoded { expectFields(row, Self.departureFields) }
        return encoded
    }

    private func row(_ realtime: DepartureRealtime?, _ departure: Departure = F.lateT1, at: Int64 = F.at) throws
        -> [String: Any]
    {
        try rows([DepartureRow(departure: departure, realtime: realtime)], at: at)[0]
    }

    /// A row's fixed members are encoded once per departure and kept with it: encoded again they are the same,
    /// and a changed departure (a new box) is encoded anew while the original keeps its own.
    @Test func aDeparturesFixedMembersAreKeptWithItAndNotWithItsChangedCopies() throws {
        let original = F.lateT1
        let first = try row(nil, original)
        #expect(try row(nil, original)["headsign"] as? String == first["headsign"] as? String)
        #expect(first["headsign"] as? String == "Emu Plains")
        var changed = original
        changed.headsign = "Penrith"
        changed.stopSequence = 13
        let encoded = try row(nil, changed)
        #expect(encoded["headsign"] as? String == "Penrith")
        #expect(encoded["stop_sequence"] as? Int == 13)
        #expect(try row(nil, original)["headsign"] as? String == "Emu Plains")
        // Every fixed member is there once, in order, before scheduled_secs.
        var w = JSONWriter()
        w.departure(DepartureRow(departure: changed), at: F.at)
        let text = String(decoding: w.finish(), as: UTF8.self)
        #expect(text.hasPrefix("{\"trip_id\":\"T1.1234.20251222\",\"start_time\":\"19:40:00\""))
        #expect(text.contains("\"service_date\":\"20251222\",\"scheduled_secs\":72240,"))
    }

    /// The slot is filled once and then read without a lock: encoded one after the other the departure is made
    /// once; encoded from many threads at once every answer gets the same bytes, whichever thread's copy was
    /// kept (the others' are released).
    @Test func aDeparturesEncodingIsMadeOnceAndReadTheSameFromManyThreads() async throws {
        final class Calls: Sendable { let count = Mutex(0) }
        let calls = Calls()
        let encode: @Sendable (Departure) -> [UInt8] = { d in
            calls.count.withLock { $0 += 1 }
            return Array("\"trip_id\":\"\(d.tripId)\"".utf8)
        }
        // A changed copy: a new box, with an empty slot (the fixture's own is filled by the other tests).
        var once = F.lateT1
        once.stopSequence = 999
        let first = once.withCachedEncoding(encode) { Array($0) }
        #expect(once.withCachedEncoding(encode) { Array($0) } == first)
        #expect(calls.count.withLock { $0 } == 1)
        #expect(String(decoding: first, as: UTF8.self) == "\"trip_id\":\"T1.1234.20251222\"")

        var rows: [Departure] = []
        for i in 0..<200 {
            var d = F.lateT1
            d.stopSequence = UInt32(i)
            rows.append(d)
        }
        let shared = rows
        let seen = try await withThrowingTaskGroup(of: [[UInt8]].self) { group in
            for _ in 0..<8 {
                group.addTask { shared.map { d in d.withCachedEncoding(encode) { Array($0) } } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(seen.count == 8)
        for answer in seen { #expect(answer == seen[0]) }
        #expect(seen[0].allSatisfy { $0 == first })
    }

    @Test func scheduledRowHasNullRealtimeFields() throws {
        let r = try row(nil)
        #expect(r["realtime_secs"] is NSNull)
        #expect(r["realtime_unix"] is NSNull)
        #expect(r["delay_s"] is NSNull)
        #expect(r["delay_badge"] is NSNull)
        #expect(r["occupancy_status"] is NSNull)
        #expect(r["realtime"] as? Bool == false)
        #expect(r["status"] as? String == "scheduled")
        #expect(r["scheduled_secs"] as? Int == 72240)
        #expect(r["scheduled_unix"] as? Int == 1_766_394_240)
        #expect(r["service_date"] as? String == "20251222")
        #expect(r["minutes_until"] as? Int == 4)
        #expect(r["countdown_text"] as? String == "4 min")
        #expect(r["start_time"] as? String == "19:40:00")
        #expect(r["stop_sequence"] as? Int == 12)
        #expect(r["route_color"] as? String == "#F99D1C")
    }

    @Test func lateRowMergesThePrediction() throws {
        let r = try row(DepartureRealtime(predictedUnix: 1_766_394_240 + 400, occupancyStatus: "FEW_SEATS_AVAILABLE"))
        #expect(r["realtime_unix"] as? Int == 1_766_394_640)
        #expect(r["realtime_secs"] as? Int == 72640)
        #expect(r["delay_s"] as? Int == 400)
        #expect(r["realtime"] as? Bool == true)
        #expect(r["status"] as? String == "very_late")
        let badge = try sub(r, "delay_badge")
        expectFields(badge, Self.badgeFields)
        #expect(badge["text"] as? String == "+7 min")
        #expect(badge["color"] as? String == "red")
        #expect(badge["accessibility_label"] as? String == "7 minutes late")
        #expect(r["minutes_until"] as? Int == 10)
        #expect(r["occupancy_status"] as? String == "FEW_SEATS_AVAILABLE")
    }

    /// A row's carriages: the predicted occupancy on departure, in feed order; a stop without any has [],
    /// and carriages alone do not make a row realtime.
    @Test func rowCarriagesCarryTheirDepartureOccupancy() throws {
        let r = try row(
            DepartureRealtime(
                predictedUnix: 1_766_394_300, occupancyStatus: "MANY_SEATS_AVAILABLE",
                carriages: F.carriagesOnDeparture))
        let carriages = try #require(r["carriages"] as? [[String: Any]])
        for c in carriages { expectFields(c, Self.carriageFields) }
        #expect(carriages.map { $0["position"] as? Int } == [1, 2, 3, 4])
        #expect(
            carriages.map { $0["occupancy_status"] as? String }
                == ["FEW_SEATS_AVAILABLE", "MANY_SEATS_AVAILABLE", "MANY_SEATS_AVAILABLE", "EMPTY"])
        #expect(carriages[0]["name"] is NSNull)
        #expect(carriages[0]["quiet"] is NSNull)
        #expect((try row(nil)["carriages"] as? [Any])?.isEmpty == true)
        let onlyCarriages = try row(DepartureRealtime(carriages: F.carriagesOnDeparture))
        #expect(onlyCarriages["realtime"] as? Bool == false)
        #expect((onlyCarriages["carriages"] as? [Any])?.count == 4)
    }

    @Test func earlyAndOnTimeRows() throws {
        let early = try row(DepartureRealtime(predictedUnix: 1_766_394_240 - 120))
        #expect(early["status"] as? String == "early")
        #expect(try sub(early, "delay_badge")["text"] as? String == "2 min early")
        #expect(try sub(early, "delay_badge")["color"] as? String == "green")
        #expect(early["countdown_text"] as? String == "2 min")
        let onTime = try row(DepartureRealtime(predictedUnix: 1_766_394_240))
        #expect(onTime["status"] as? String == "on_time")
        #expect(onTime["delay_s"] as? Int == 0)
        #expect(try sub(onTime, "delay_badge")["text"] as? String == "On time")
        #expect(try sub(onTime, "delay_badge")["color"] as? String == "gray")
    }

    @Test func cancelledAndSkippedRowsKeepTheirPlaceWithoutBadge() throws {
        let cancelled = try row(DepartureRealtime(cancelled: true))
        #expect(cancelled["status"] as? String == "cancelled")
        #expect(cancelled["realtime"] as? Bool == true)
        #expect(cancelled["delay_badge"] is NSNull)
        #expect(cancelled["realtime_unix"] is NSNull)
        #expect(cancelled["minutes_until"] as? Int == 4)
        let skipped = try row(DepartureRealtime(predictedUnix: 1_766_394_300, skipped: true))
        #expect(skipped["status"] as? String == "skipped")
        #expect(skipped["delay_s"] as? Int == 60)
        #expect(skipped["delay_badge"] is NSNull)
    }

    @Test func addedRowHasNoSchedule() throws {
        let r = try row(DepartureRealtime(predictedUnix: 1_766_394_240, added: true))
        #expect(r["status"] as? String == "added")
        #expect(r["scheduled_secs"] is NSNull)
        #expect(r["scheduled_unix"] is NSNull)
        #expect(r["realtime_secs"] as? Int == 72240)
        #expect(r["realtime_unix"] as? Int == 1_766_394_240)
        #expect(r["delay_s"] is NSNull)
        #expect(r["delay_badge"] is NSNull)
        #expect(r["realtime"] as? Bool == true)
    }

    @Test func realtimeWithoutPredictionIsScheduled() throws {
        let r = try row(DepartureRealtime(occupancyStatus: "EMPTY"))
        #expect(r["status"] as? String == "scheduled")
        #expect(r["realtime"] as? Bool == false)
        #expect(r["occupancy_status"] as? String == "EMPTY")
    }

    @Test func countdownAgainstAt() throws {
        // Scheduled 20:04:00; `at` moves around it.
        let at = F.lateT1.scheduledUnix
        #expect(try row(nil, at: at)["countdown_text"] as? String == "Now")
        #expect(try row(nil, at: at - 59)["countdown_text"] as? String == "Now")
        #expect(try row(nil, at: at - 60)["countdown_text"] as? String == "1 min")
        #expect(try row(nil, at: at + 30)["countdown_text"] as? String == "Now")
        let past = try row(nil, at: at + 330)
        #expect(past["minutes_until"] as? Int == -5)
        #expect(past["countdown_text"] as? String == "5 min ago")
    }

    @Test func afterMidnightSecsExceedADay() throws {
        var late = F.lateT1
        late.scheduledSecs = 90600  // 25:10:00
        late.scheduledUnix = F.origin + 90600
        let r = try row(DepartureRealtime(predictedUnix: F.origin + 90600 + 90), late, at: F.origin + 90000)
        #expect(r["scheduled_secs"] as? Int == 90600)
        #expect(r["realtime_secs"] as? Int == 90690)
        #expect(try sub(r, "delay_badge")["text"] as? String == "+2 min")
    }

    @Test func frequencyTripStartTime() throws {
        var freq = F.metro
        freq.startTime = "07:05:00"
        #expect(try row(nil, freq)["start_time"] as? String == "07:05:00")
    }

    @Test func pageOfABoard() throws {
        let o = try answer(.departures, live: F.liveMeta12) { $0.departuresData(F.departuresAnswer, at: F.at) }
        let data = try sub(o, "data")
        expectFields(
            data,
            [
                "stop_id": [.string], "timezone": [.string, .null], "departures": [.array], "alerts": [.array],
                "page": [.object],
            ])
        let page = try sub(data, "page")
        expectFields(
            page,
            [
                "direction": [.string], "earliest_unix": [.int, .null], "latest_unix": [.int, .null],
                "has_more_past": [.bool], "has_more_future": [.bool], "earlier_cursor": [.string, .null],
                "later_cursor": [.string, .null],
            ])
        #expect(page["earliest_unix"] as? Int == 1_766_394_330)
        #expect(page["latest_unix"] as? Int == 1_766_394_600)
        let empty = DeparturesAnswer(
            stopId: "x", timezone: nil, rows: [],
            page: BoardPage(
                direction: .past, hasMorePast: false, hasMoreFuture: true, earlierCursor: nil, laterCursor: "c"))
        let e = try sub(try sub(try answer(.departures) { $0.departuresData(empty, at: 0) }, "data"), "page")
        #expect(e["earliest_unix"] is NSNull)
        #expect(e["latest_unix"] is NSNull)
        #expect(e["direction"] as? String == "past")
        #expect(e["later_cursor"] as? String == "c")
    }

    @Test func staticBoardFromTheService() throws {
        let board = DepartureBoard(
            stopId: "200060", at: F.at, direction: .future, departures: [F.lateT1, F.metro], earlierCursor: "e",
            laterCursor: "l", hasMorePast: true, hasMoreFuture: false, timezone: F.sydney)
        let line = GatewayResponse.staticAnswer(
            id: .null, op: .departures, result: .success(.departures(board)), at: 0, elapsedMicros: 9)
        let o = try parseLine(line)
        let meta = try sub(o, "meta")
        #expect(meta["source"] as? String == "static_only")
        #expect(meta["at"] as? Int == Int(F.at))
        #expect(meta["feed_age_s"] is NSNull)
        let rows = try list(try sub(o, "data"), "departures")
        #expect(rows.map { $0["status"] as? String } == ["scheduled", "scheduled"])
        #expect(rows.allSatisfy { $0["realtime_unix"] is NSNull && $0["delay_badge"] is NSNull })
        #expect(try sub(try sub(o, "data"), "page")["earlier_cursor"] as? String == "e")
    }

    @Test func staticAnswersForEveryResult() throws {
        let cases: [(GatewayOpKind, StaticResult, String)] = [
            (.stop, .stop(F.stopResult), "stop"),
            (.search, .stops([F.central]), "stops"),
            (.routes, .routes([F.t1]), "routes"),
            (.feedInfo, .feedInfo(F.feedInfo), "database_version"),
            (.trip, .trip(F.trip), "stops"),
        ]
        for (op, result, field) in cases {
            let o = try parseLine(
                GatewayResponse.staticAnswer(id: .null, op: op, result: .success(result), at: F.at, elapsedMicros: 1))
            #expect(o["ok"] as? Bool == true)
            #expect(try sub(o, "data")[field] != nil, "\(op)")
            #expect(try sub(o, "meta")["op"] as? String == op.name)
        }
        let notFound = try parseLine(
            GatewayResponse.staticAnswer(
                id: RawJSON(bytes: Array("5".utf8)), op: .stop,
                result: .failure(ServiceError(.notFound, "unknown stop_id \"9\"")),
                at: 0, elapsedMicros: 1))
        #expect(notFound["id"] as? Int == 5)
        #expect(try sub(notFound, "error")["code"] as? String == "NOT_FOUND")
        #expect(try sub(notFound, "error")["message"] as? String == "unknown stop_id \"9\"")
    }

    // MARK: trip

    private func tripData(_ realtime: TripRealtime?, _ trip: TripDetail = F.trip, at: Int64 = F.at) throws -> [String:
        Any]
    {
        let o = try answer(.trip, live: F.liveMeta12) { $0.tripData(trip, realtime: realtime, at: at) }
        let data = try sub(o, "data")
        expectFields(
            data,
            [
                "trip_id": [.string], "service_date": [.string], "start_time": [.string], "frequency_based": [.bool],
                "route": [.object], "headsign": [.string, .null], "short_name": [.string, .null],
                "direction_id": [.int, .null], "block_id": [.string, .null], "shape_id": [.string, .null],
                "wheelchair_accessible": [.int], "bikes_allowed": [.int], "timezone": [.string],
                "detour": [.object, .null], "realtime": [.bool],
                "status": [.string],
                "vehicle": [.object, .null], "stops": [.array], "alerts": [.array],
            ])
        expectFields(try sub(data, "route"), Self.routeFields)
        for stop in try list(data, "stops") { expectFields(stop, Self.tripStopFields) }
        return data
    }

    @Test func staticTrip() throws {
        let data = try tripData(nil)
        #expect(data["realtime"] as? Bool == false)
        #expect(data["status"] as? String == "scheduled")
        #expect(data["vehicle"] is NSNull)
        let stops = try list(data, "stops")
        #expect(stops.map { $0["status"] as? String } == ["scheduled", "scheduled"])
        #expect(stops[0]["scheduled_arrival_secs"] as? Int == 72180)
        #expect(stops[0]["scheduled_departure_unix"] as? Int == 1_766_394_240)
        #expect(stops[0]["realtime_departure_unix"] is NSNull)
        #expect(stops[0]["wheelchair_accessible"] as? Int == 1)
    }

    @Test func tripWithPredictionsSkipsAndVehicle() throws {
        let data = try tripData(F.tripRealtime)
        #expect(data["realtime"] as? Bool == true)
        #expect(data["status"] as? String == "late")
        let vehicle = try sub(data, "vehicle")
        #expect(vehicle["vehicle_id"] as? String == "A42")
        #expect(vehicle["bearing"] as? Double == 185.5)
        let stops = try list(data, "stops")
        #expect(stops[0]["realtime_arrival_secs"] as? Int == 72270)
        #expect(stops[0]["realtime_departure_secs"] as? Int == 72330)
        #expect(stops[0]["delay_s"] as? Int == 90)
        #expect(try sub(stops[0], "delay_badge")["accessibility_label"] as? String == "2 minutes late")
        #expect(stops[1]["status"] as? String == "skipped")
        #expect(stops[1]["delay_badge"] is NSNull)
    }

    @Test func lastStopUsesTheArrivalDelay() throws {
        let rt = TripRealtime(stops: [
            nil,
            F.predicted(1, arrival: F.origin + 72420 + 30, departure: F.origin + 72450 + 400),
        ])
        let stops = try list(try tripData(rt), "stops")
        #expect(stops[0]["delay_s"] is NSNull)
        #expect(stops[0]["status"] as? String == "scheduled")
        #expect(stops[1]["delay_s"] as? Int == 30)
        #expect(stops[1]["status"] as? String == "on_time")
    }

    @Test func middleStopFallsBackToArrivalDelay() throws {
        let rt = TripRealtime(stops: [F.predicted(0, arrival: F.origin + 72180 + 200)])
        let stops = try list(try tripData(rt), "stops")
        #expect(stops[0]["delay_s"] as? Int == 200)
        #expect(stops[0]["realtime_departure_unix"] is NSNull)
        #expect(stops[0]["status"] as? String == "late")
    }

    @Test func cancelledTripMarksEveryStop() throws {
        let data = try tripData(TripRealtime(cancelled: true))
        #expect(data["status"] as? String == "cancelled")
        #expect(data["realtime"] as? Bool == true)
        #expect(
            try list(data, "stops").allSatisfy { $0["status"] as? String == "cancelled" && $0["delay_badge"] is NSNull }
        )
    }

    @Test func addedTripHasNoSchedule() throws {
        let rt = TripRealtime(
            added: true, stops: [F.predicted(0, arrival: F.origin + 72180, departure: F.origin + 72240)])
        let data = try tripData(rt)
        #expect(data["status"] as? String == "added")
        let first = try list(data, "stops")[0]
        #expect(first["scheduled_arrival_secs"] is NSNull)
        #expect(first["scheduled_departure_unix"] is NSNull)
        #expect(first["realtime_departure_secs"] as? Int == 72240)
        #expect(first["delay_s"] is NSNull)
        #expect(first["status"] as? String == "added")
    }

    @Test func tripStatusFollowsTheNextStop() throws {
        let rt = TripRealtime(stops: [
            F.predicted(0, arrival: F.origin + 72180 - 120, departure: F.origin + 72240 - 120),
            F.predicted(1, arrival: F.origin + 72420 + 400, departure: F.origin + 72450 + 400),
        ])
        // Before the first stop departs: its status (early).
        #expect(try tripData(rt, at: F.origin + 72000)["status"] as? String == "early")
        // After it departed: the last stop's (very late, by arrival).
        #expect(try tripData(rt, at: F.origin + 72300)["status"] as? String == "very_late")
        // After everything: still the last stop's.
        #expect(try tripData(rt, at: F.origin + 90000)["status"] as? String == "very_late")
    }

    // MARK: vehicles and alerts

    @Test func vehicleObject() throws {
        var plated = VehicleSnapshot(vehicleId: "plated")
        plated.licensePlate = "BUS 123"
        plated.odometerMetres = 123_456.5
        let o = try answer(.vehicles, live: F.liveMeta12) {
            $0.vehicleListData([F.vehicle, VehicleSnapshot(vehicleId: "bare"), plated])
        }
        let vehicles = try list(try sub(o, "data"), "vehicles")
        let fields: [String: [Kind]] = [
            "vehicle_id": [.string, .null], "label": [.string, .null], "trip_id": [.string, .null],
            "route_id": [.string, .null], "route_short_name": [.string, .null], "route_color": [.string, .null],
            "mode": [.string, .null], "headsign": [.string, .null], "service_date": [.string, .null],
            "start_time": [.string, .null], "lat": [.double, .null], "lon": [.double, .null],
            "bearing": [.double, .null],
            "speed_mps": [.double, .null],
            "current_stop_sequence": [.int, .null], "stop_id": [.string, .null], "current_status": [.string, .null],
            "occupancy_status": [.string, .null], "occupancy_percentage": [.int, .null],
            "congestion_level": [.string, .null], "timestamp": [.int, .null], "air_conditioned": [.bool, .null],
            "wheelchair_accessible": [.bool, .null], "model": [.string, .null], "license_plate": [.string, .null],
            "odometer_m": [.double, .null],
            "carriages": [.array],
        ]
        for v in vehicles { expectFields(v, fields) }
        #expect(vehicles[2]["license_plate"] as? String == "BUS 123")
        #expect(vehicles[2]["odometer_m"] as? Double == 123_456.5)
        #expect(vehicles[1]["license_plate"] is NSNull && vehicles[1]["odometer_m"] is NSNull)
        // Carriages: every field, occupancy now; a vehicle without any has [].
        let carriages = try #require(vehicles[0]["carriages"] as? [[String: Any]])
        for c in carriages { expectFields(c, Self.carriageFields) }
        #expect(carriages[0]["occupancy_status"] as? String == "FEW_SEATS_AVAILABLE")
        #expect(carriages[1]["quiet"] as? Bool == true)
        #expect(carriages[1]["occupancy_status"] is NSNull)
        #expect(vehicles[0]["air_conditioned"] as? Bool == true)
        #expect(vehicles[1]["carriages"] as? [Any] != nil && (vehicles[1]["carriages"] as? [Any])!.isEmpty)
        #expect(vehicles[1]["model"] is NSNull)
        #expect(vehicles[0]["service_date"] as? String == "20251222")
        #expect(vehicles[0]["speed_mps"] as? Double == 11.2)
        #expect(vehicles[1]["lat"] is NSNull)
        #expect(vehicles[1]["timestamp"] is NSNull)
    }

    @Test func alertObject() throws {
        var noHeader = AlertView(
            id: "a2", header: nil, description: nil, url: "https://example.org/a2", effect: "NO_SERVICE",
            activePeriods: [.init(start: nil, end: 100)],
            informedEntities: [.init(agencyId: "ST", routeType: 2, directionId: 1)])
        noHeader.ttsDescription = "No trains between Central and Redfern."
        noHeader.causeDetail = "Signal fault"
        noHeader.image = AlertView.Image(url: "https://example.org/a2.png", mediaType: "image/png", altText: nil)
        let o = try answer(.alerts, live: F.liveMeta12) { $0.alertListData([F.liftAlert, noHeader]) }
        let alerts = try list(try sub(o, "data"), "alerts")
        let fields: [String: [Kind]] = [
            "id": [.string], "header": [.string, .null], "description": [.string, .null], "url": [.string, .null],
            "tts_header": [.string, .null], "tts_description": [.string, .null], "cause": [.string],
            "effect": [.string], "severity": [.string], "cause_detail": [.string, .null],
            "effect_detail": [.string, .null], "image": [.object, .null], "active_periods": [.array],
            "informed_entities": [.array], "limited_to_stop_ids": [.array], "banner": [.object],
        ]
        for a in alerts { expectFields(a, fields) }
        #expect(alerts[1]["tts_description"] as? String == "No trains between Central and Redfern.")
        #expect(alerts[1]["cause_detail"] as? String == "Signal fault")
        let image = try sub(alerts[1], "image")
        expectFields(image, ["url": [.string], "media_type": [.string], "alt_text": [.string, .null]])
        #expect(alerts[0]["image"] is NSNull)
        let banner = try sub(alerts[1], "banner")
        expectFields(banner, ["icon": [.string], "color": [.string], "accessibility_label": [.string]])
        #expect(banner["color"] as? String == "red")
        #expect(banner["accessibility_label"] as? String == "Service disruption")
        #expect(alerts[1]["cause"] as? String == "UNKNOWN_CAUSE")
        let period = try list(alerts[1], "active_periods")[0]
        #expect(period["start"] is NSNull)
        #expect(period["end"] as? Int == 100)
        let entity = try list(alerts[1], "informed_entities")[0]
        expectFields(
            entity,
            [
                "agency_id": [.string, .null], "route_id": [.string, .null], "route_type": [.int, .null],
                "direction_id": [.int, .null], "trip_id": [.string, .null], "stop_id": [.string, .null],
            ])
        #expect(entity["route_type"] as? Int == 2)
    }
}
