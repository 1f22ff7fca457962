import Foundation
import GatewayProtocol
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// The seam the realtime subscriber feeds: a `RealtimeView` given a state directly, and what the ops
/// make of it (GATEWAY.md departures, trip, alerts, vehicles; §4 degradation).
@Suite struct RealtimeViewTests {
    /// The first rows of Central's board on the sample Monday evening.
    private func board(_ client: LineClient, limit: Int = 3) async throws -> [[String: Any]] {
        let answer = try await client.ask(
            #"{"op":"departures","stop_id":"200060","at":\#(SampleTimes.mondayEvening),"limit":\#(limit)}"#)
        #expect(answer.ok, "\(answer)")
        return answer.list("departures")
    }

    private func key(_ row: [String: Any]) -> TripInstanceKey {
        TripInstanceKey(
            tripId: row["trip_id"] as? String ?? "", serviceDate: UInt32(row["service_date"] as? String ?? "") ?? 0,
            staticStartTime: row["start_time"] as? String)
    }

    private func prediction(_ row: [String: Any], delay: Int64, source: String = "tu") -> TripPrediction {
        let scheduled = Int64(row["scheduled_unix"] as? Int ?? 0)
        let sequence = UInt32(row["stop_sequence"] as? Int ?? 0)
        var stop = LiveStop(
            stopId: row["stop_id"] as? String ?? "", stopSequence: sequence, scheduledArrival: scheduled - 30,
            scheduledDeparture: scheduled, status: .noPrediction)
        stop.setPrediction(arrival: scheduled + delay - 30, departure: scheduled + delay)
        let next = LiveStop(
            stopId: "next", stopSequence: sequence + 1, predictedDeparture: scheduled + delay + 600, status: .predicted)
        return TripPrediction(
            key: key(row), routeId: row["route_id"] as? String, stops: [stop, next],
            occupancyStatus: "MANY_SEATS_AVAILABLE",
            source: source, timestamp: Int64(Date().timeIntervalSince1970) - 12)
    }

    @Test func predictionsAreMergedIntoBoardsAndTrips() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view) { fixture in
            let client = try fixture.client()
            let rows = try await board(client)
            try #require(rows.count == 3)
            // Row 0 very late: just after row 1 (the board is in predicted time); row 1 cancelled; row 2
            // without data. (On the sample Monday evening rows 0, 1, 2 leave 180, 420 and 780 s after `at`.)
            let delay = Int64((rows[1]["scheduled_unix"] as? Int ?? 0) - (rows[0]["scheduled_unix"] as? Int ?? 0)) + 61
            try #require(
                delay > 300
                    && (rows[0]["scheduled_unix"] as? Int ?? 0) + Int(delay) < rows[2]["scheduled_unix"] as? Int ?? 0)
            var cancelled = TripPrediction(key: key(rows[1]), source: "tu")
            cancelled.cancelled = true
            view.replace(
                RealtimeState(
                    trips: [prediction(rows[0], delay: delay), cancelled],
                    sources: [
                        RealtimeSourceStatus(
                            name: "tu", kind: .tripUpdates, feedTimestamp: Int64(Date().timeIntervalSince1970) - 12)
                    ]))

            let merged = try await client.ask(
                #"{"op":"departures","stop_id":"200060","at":\#(SampleTimes.mondayEvening),"limit":3}"#)
            #expect(merged.meta["source"] as? String == "static+rt")
            #expect(merged.meta["stale"] as? Bool == false)
            let age = merged.meta["feed_age_s"] as? Int ?? -1
            #expect(age >= 12 && age < 20)
            let out = merged.list("departures")
            #expect(
                out.map { $0["trip_id"] as? String } == [rows[1], rows[0], rows[2]].map { $0["trip_id"] as? String })
            let late = out[1]
            #expect(late["status"] as? String == "very_late")
            #expect(late["delay_s"] as? Int == Int(delay))
            #expect(late["realtime"] as? Bool == true)
            #expect((late["delay_badge"] as? [String: Any])?["text"] as? String == "+\((delay + 30) / 60) min")
            #expect((late["delay_badge"] as? [String: Any])?["color"] as? String == "red")
            #expect(late["occupancy_status"] as? String == "MANY_SEATS_AVAILABLE")
            #expect(late["realtime_unix"] as? Int == (rows[0]["scheduled_unix"] as? Int ?? 0) + Int(delay))
            #expect(late["realtime_secs"] as? Int == (rows[0]["scheduled_secs"] as? Int ?? 0) + Int(delay))
            #expect(out[0]["status"] as? String == "cancelled")
            #expect(out[0]["delay_badge"] is NSNull)
            #expect(out[2]["status"] as? String == "scheduled")

            // The trip of the late row shows the prediction at that stop.
            var request =
                #"{"op":"trip","trip_id":"\#(rows[0]["trip_id"] as? String ?? "")","date":"\#(rows[0]["service_date"] as? String ?? "")","at":\#(SampleTimes.mondayEvening)"#
            if let start = rows[0]["start_time"] as? String { request += #","start_time":"\#(start)""# }
            let trip = try await client.ask(request + "}")
            #expect(trip.ok, "\(trip)")
            #expect(trip.meta["source"] as? String == "static+rt")
            #expect(trip.data["realtime"] as? Bool == true)
            let stop = trip.list("stops").first { $0["stop_sequence"] as? Int == rows[0]["stop_sequence"] as? Int }
            #expect(stop?["delay_s"] as? Int == Int(delay))
            #expect(stop?["status"] as? String == "very_late")
        }
    }

    /// A stop update naming another platform of Central: the station's board shows the row with the new
    /// platform, `platform_changed` and the scheduled one; the trip's stop too.
    @Test func aPlatformChangeShowsOnTheStationBoardAndTheTrip() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view) { fixture in
            let client = try fixture.client()
            let rows = try await board(client, limit: 2)
            try #require(rows.count == 2)
            #expect(rows.allSatisfy { $0["platform_changed"] as? Bool == false })
            #expect(rows.allSatisfy { ($0["scheduled_platform"] as? String) == ($0["platform"] as? String) })
            let row = rows[0]
            let scheduledStop = row["stop_id"] as? String ?? ""
            let scheduledPlatform = row["platform"] as? String
            let (newStop, newPlatform) = scheduledStop == "20006017" ? ("20006016", "16") : ("20006017", "17")
            var moved = prediction(row, delay: 60)
            moved.stops[0].assignedStopId = newStop  // no platform code sent: the station's platforms tell it
            view.replace(
                RealtimeState(
                    trips: [moved],
                    sources: [
                        RealtimeSourceStatus(
                            name: "tu", kind: .tripUpdates, feedTimestamp: Int64(Date().timeIntervalSince1970) - 12)
                    ]))

            let answer = try await client.ask(
                #"{"op":"departures","stop_id":"200060","at":\#(SampleTimes.mondayEvening),"limit":2}"#)
            let out = answer.list("departures")
            let changed = try #require(out.first { $0["trip_id"] as? String == row["trip_id"] as? String })
            #expect(out.filter { $0["trip_id"] as? String == row["trip_id"] as? String }.count == 1)
            #expect(changed["platform"] as? String == newPlatform)
            #expect(changed["platform_changed"] as? Bool == true)
            #expect(changed["scheduled_platform"] as? String == scheduledPlatform)
            #expect(changed["delay_s"] as? Int == 60)

            // The trip shows the platform the realtime service sent.
            moved.stops[0].assignedPlatform = newPlatform
            view.replace(
                RealtimeState(
                    trips: [moved],
                    sources: [
                        RealtimeSourceStatus(
                            name: "tu", kind: .tripUpdates, feedTimestamp: Int64(Date().timeIntervalSince1970) - 12)
                    ]))
            var request =
                #"{"op":"trip","trip_id":"\#(row["trip_id"] as? String ?? "")","date":"\#(row["service_date"] as? String ?? "")","at":\#(SampleTimes.mondayEvening)"#
            if let start = row["start_time"] as? String { request += #","start_time":"\#(start)""# }
            let trip = try await client.ask(request + "}")
            #expect(trip.ok, "\(trip)")
            let stops = trip.list("stops")
            let stop = try #require(stops.first { $0["stop_sequence"] as? Int == row["stop_sequence"] as? Int })
            #expect(stop["platform"] as? String == newPlatform)
            #expect(stop["platform_changed"] as? Bool == true)
            #expect(stop["scheduled_platform"] as? String == scheduledPlatform)
            #expect(stops.filter { $0["platform_changed"] as? Bool == true }.count == 1)
        }
    }

    /// A stop the trip update made set-down only (StopTimeProperties.pickup_type NONE) leaves the board, as a
    /// static pickup_type 1 does; the trip answer gives the update's pickup and drop-off types at that stop.
    @Test func aRealtimeSetDownOnlyStopLeavesTheBoardAndShowsOnTheTrip() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view) { fixture in
            let client = try fixture.client()
            let rows = try await board(client, limit: 3)
            try #require(rows.count == 3)
            var setDownOnly = prediction(rows[0], delay: 60)
            setDownOnly.stops[0].pickupType = 1
            setDownOnly.stops[0].dropOffType = 0
            view.replace(
                RealtimeState(
                    trips: [setDownOnly],
                    sources: [
                        RealtimeSourceStatus(
                            name: "tu", kind: .tripUpdates, feedTimestamp: Int64(Date().timeIntervalSince1970) - 12)
                    ]))

            let answer = try await client.ask(
                #"{"op":"departures","stop_id":"200060","at":\#(SampleTimes.mondayEvening),"limit":3}"#)
            // Instances: a frequency trip's next run has the same trip_id.
            let instance = { (row: [String: Any]) in "\(row["trip_id"] ?? "") \(row["start_time"] ?? "")" }
            let ids = answer.list("departures").map(instance)
            #expect(!ids.contains(instance(rows[0])), "\(ids)")
            #expect(ids.contains(instance(rows[1])) && ids.contains(instance(rows[2])))

            var request =
                #"{"op":"trip","trip_id":"\#(rows[0]["trip_id"] as? String ?? "")","date":"\#(rows[0]["service_date"] as? String ?? "")","at":\#(SampleTimes.mondayEvening)"#
            if let start = rows[0]["start_time"] as? String { request += #","start_time":"\#(start)""# }
            let trip = try await client.ask(request + "}")
            #expect(trip.ok, "\(trip)")
            let stops = trip.list("stops")
            let stop = try #require(stops.first { $0["stop_sequence"] as? Int == rows[0]["stop_sequence"] as? Int })
            #expect(stop["pickup_type"] as? Int == 1)
            #expect(stop["drop_off_type"] as? Int == 0)
            // The other stops keep the schedule's (the sample's are 0, regular).
            #expect(stops.filter { $0["pickup_type"] as? Int == 1 }.count == 1)
        }
    }

    /// Transport for NSW's additions as the realtime service publishes them (`LiveTrip`, `LiveVehicle`,
    /// `LiveSourceStatus`): per-carriage occupancy on the board row and the trip stop, the vehicle's carriages
    /// and features, the source's drops and skipped fields in `health`. The trip is a REPLACEMENT of the
    /// scheduled trip: its board row is the scheduled row with the update's time (status by the delay), not
    /// an added trip.
    @Test func carriagesFeaturesAndSkippedFieldsReachTheAnswers() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view) { fixture in
            let client = try fixture.client()
            let row = try #require(try await board(client, limit: 1).first)
            let scheduled = Int64(row["scheduled_unix"] as? Int ?? 0)
            let sequence = UInt32(row["stop_sequence"] as? Int ?? 0)
            let instance = key(row)
            let carriages = [
                LiveCarriage(position: 1, departureOccupancy: "STANDING_ROOM_ONLY"),
                LiveCarriage(position: 2, departureOccupancy: "MANY_SEATS_AVAILABLE"),
            ]
            let live = LiveTrip(
                instance: instance, relationship: .replacement, staticTripId: instance.tripId,
                routeId: row["route_id"] as? String,
                stops: [
                    LiveStop(
                        stopId: row["stop_id"] as? String ?? "", stopSequence: sequence, scheduledArrival: scheduled,
                        scheduledDeparture: scheduled, predictedArrival: scheduled + 120,
                        predictedDeparture: scheduled + 120,
                        arrivalDelay: 120, departureDelay: 120, status: .predicted,
                        departureOccupancy: "FEW_SEATS_AVAILABLE",
                        carriages: carriages)
                ], source: "tu")
            let now = Int64(Date().timeIntervalSince1970)
            let vehicle = LiveVehicle(
                key: "vp/1", source: "vp", entityId: "1", trip: instance, tripId: instance.tripId,
                routeId: row["route_id"] as? String,
                vehicleId: "A42", timestamp: UInt64(now),
                carriages: [
                    LiveCarriage(
                        position: 1, name: "D6123", occupancy: "FULL", quiet: false, toilet: "ACCESSIBLE",
                        luggageRack: true)
                ],
                features: LiveVehicleFeatures(airConditioned: true, wheelchairAccessible: true, model: "A"))
            var source = LiveFixtures.freshSource(now: now)
            source.drops = ["unknown_trip": 454]
            source.skippedFields = [
                LiveSkippedField(path: "entity.trip_update.stop_time_update.6", count: 1901, first: "first")
            ]
            view.replace(
                RealtimeState(
                    trips: [TripPrediction(live)], vehicles: [VehicleEntry(vehicle).vehicle],
                    sources: [
                        RealtimeSourceStatus(source),
                        RealtimeSourceStatus(LiveFixtures.freshSource("vp", kind: .vehiclePositions, now: now)),
                    ]))

            let merged = try #require(
                try await board(client, limit: 3).first { $0["trip_id"] as? String == instance.tripId })
            #expect(merged["status"] as? String == "late", "\(merged)")
            #expect(merged["delay_s"] as? Int == 120)
            #expect(merged["scheduled_unix"] as? Int == Int(scheduled))
            #expect(merged["occupancy_status"] as? String == "FEW_SEATS_AVAILABLE")
            let rowCarriages = merged["carriages"] as? [[String: Any]] ?? []
            #expect(rowCarriages.map { $0["position"] as? Int } == [1, 2])
            #expect(
                rowCarriages.map { $0["occupancy_status"] as? String } == [
                    "STANDING_ROOM_ONLY", "MANY_SEATS_AVAILABLE",
                ])

            var request =
                #"{"op":"trip","trip_id":"\#(instance.tripId)","date":"\#(row["service_date"] as? String ?? "")","at":\#(SampleTimes.mondayEvening)"#
            if let start = row["start_time"] as? String { request += #","start_time":"\#(start)""# }
            let trip = try await client.ask(request + "}")
            let stop = try #require(
                trip.list("stops").first { $0["stop_sequence"] as? Int == Int(sequence) }, "\(trip)")
            #expect(stop["occupancy_status"] as? String == "FEW_SEATS_AVAILABLE")
            #expect((stop["carriages"] as? [[String: Any]])?.count == 2)
            #expect(
                (trip.list("stops").first { $0["stop_sequence"] as? Int != Int(sequence) }?["carriages"] as? [Any])?
                    .isEmpty == true)
            let shown = try #require(trip.data["vehicle"] as? [String: Any], "\(trip)")
            #expect(shown["air_conditioned"] as? Bool == true)
            #expect(shown["wheelchair_accessible"] as? Bool == true)
            #expect(shown["model"] as? String == "A")
            // Described like the vehicles op's: the route's name, colour and mode, the trip's headsign.
            #expect(shown["route_short_name"] as? String != nil)
            #expect(shown["route_short_name"] as? String == merged["route_short_name"] as? String)
            #expect(shown["route_color"] as? String == merged["route_color"] as? String)
            #expect(shown["mode"] as? String == merged["mode"] as? String)
            #expect(shown["headsign"] as? String != nil)
            #expect(shown["headsign"] as? String == trip.data["headsign"] as? String)
            let car = (shown["carriages"] as? [[String: Any]])?.first
            #expect(car?["name"] as? String == "D6123")
            #expect(car?["occupancy_status"] as? String == "FULL")
            #expect(car?["toilet"] as? String == "ACCESSIBLE")
            #expect(car?["luggage_rack"] as? Bool == true)

            let health = try await client.ask(#"{"op":"health"}"#)
            let sources = (health.data["realtime"] as? [String: Any])?["sources"] as? [[String: Any]] ?? []
            let tu = try #require(sources.first { $0["name"] as? String == "tu" }, "\(health)")
            #expect((tu["drops"] as? [String: Any])?["unknown_trip"] as? Int == 454)
            let skipped = (tu["skipped_fields"] as? [[String: Any]])?.first
            #expect(skipped?["path"] as? String == "entity.trip_update.stop_time_update.6")
            #expect(skipped?["count"] as? Int == 1901)
            #expect(skipped?["first"] as? String == "first")
            #expect((sources.first { $0["name"] as? String == "vp" }?["skipped_fields"] as? [Any])?.isEmpty == true)
        }
    }

    /// `status()` (read by every board, without copying the state) says what `read()` says.
    @Test func theStatusAloneIsTheReadingsStatus() {
        let unconfigured = RealtimeView(configured: false)
        #expect(unconfigured.status() == .notConfigured && unconfigured.read().status == .notConfigured)
        let view = RealtimeView(configured: true, silenceLimit: .seconds(3600))
        #expect(view.status() == .silent && view.read().status == .silent, "no state yet")
        view.replace(RealtimeState())
        #expect(view.status() == .ok && view.read().status == .ok)
        let silenced = RealtimeView(configured: true, silenceLimit: .zero)
        silenced.replace(RealtimeState())
        #expect(silenced.status() == .silent && silenced.read().status == .silent, "heard longer ago than the limit")
    }

    @Test func aStaleSourceOrASilentPublisherFallsBackToStaticOnly() async throws {
        let view = RealtimeView(configured: true, silenceLimit: .milliseconds(400))
        try await withGateway(realtime: view) { fixture in
            let client = try fixture.client()
            let rows = try await board(client, limit: 1)
            let row = try #require(rows.first)
            // The only source is stale: its predictions are not used.
            view.replace(
                RealtimeState(
                    trips: [prediction(row, delay: 120)],
                    sources: [RealtimeSourceStatus(name: "tu", kind: .tripUpdates, stale: true)]))
            let stale = try await client.ask(
                #"{"op":"departures","stop_id":"200060","at":\#(SampleTimes.mondayEvening),"limit":1}"#)
            #expect(stale.meta["source"] as? String == "static_only")
            #expect(stale.meta["stale"] as? Bool == true)
            #expect(stale.list("departures").first?["status"] as? String == "scheduled")

            // A fresh source: the prediction applies.
            view.replace(
                RealtimeState(
                    trips: [prediction(row, delay: 120)],
                    sources: [RealtimeSourceStatus(name: "tu", kind: .tripUpdates)]))
            let live = try await client.ask(
                #"{"op":"departures","stop_id":"200060","at":\#(SampleTimes.mondayEvening),"limit":1}"#)
            #expect(live.list("departures").first?["status"] as? String == "late")
            #expect(live.meta["source"] as? String == "static+rt")

            // No heartbeat for the silence limit: static only, stale, never an error.
            try await Task.sleep(for: .milliseconds(500))
            let silent = try await client.ask(
                #"{"op":"departures","stop_id":"200060","at":\#(SampleTimes.mondayEvening),"limit":1}"#)
            #expect(silent.meta["source"] as? String == "static_only")
            #expect(silent.meta["stale"] as? Bool == true)
            #expect(silent.list("departures").first?["status"] as? String == "scheduled")
            let health = try await client.ask(#"{"op":"health"}"#)
            #expect((health.data["realtime"] as? [String: Any])?["status"] as? String == "silent")

            // A heartbeat brings it back.
            view.heartbeat()
            let back = try await client.ask(
                #"{"op":"departures","stop_id":"200060","at":\#(SampleTimes.mondayEvening),"limit":1}"#)
            #expect(back.list("departures").first?["status"] as? String == "late")
        }
    }

    @Test func healthShowsStopMismatchesPerSource() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view) { fixture in
            let client = try fixture.client()
            var source = RealtimeSourceStatus(name: "tu", kind: .tripUpdates)
            source.stopMismatches = 3
            source.firstStopMismatch =
                "entity 'e1', trip T1: stop_sequence 20 is stop S2, stop_id S4 is stop_sequence 40"
            view.replace(RealtimeState(sources: [source, RealtimeSourceStatus(name: "vp", kind: .vehiclePositions)]))
            let health = try await client.ask(#"{"op":"health"}"#)
            let sources = (health.data["realtime"] as? [String: Any])?["sources"] as? [[String: Any]] ?? []
            try #require(sources.count == 2)
            let mismatch = sources[0]["stop_mismatch"] as? [String: Any]
            #expect(mismatch?["count"] as? Int == 3)
            #expect(mismatch?["first"] as? String == source.firstStopMismatch)
            #expect((sources[1]["stop_mismatch"] as? [String: Any])?["count"] as? Int == 0)
            #expect((sources[1]["stop_mismatch"] as? [String: Any])?["first"] is NSNull)
        }
    }

    @Test func vehiclesByRouteAndTrip() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view) { fixture in
            let client = try fixture.client()
            let now = Int64(Date().timeIntervalSince1970)
            view.replace(
                RealtimeState(
                    vehicles: [
                        VehicleSnapshot(
                            vehicleId: "B2", tripId: "T1.WKD.0.1910", routeId: "ST_T1", lat: -33.9, lon: 151.2,
                            timestamp: now - 5),
                        VehicleSnapshot(
                            vehicleId: "A1", tripId: "T1.WKD.1.1940", routeId: "ST_T1", lat: -33.8, lon: 151.1,
                            timestamp: now - 8),
                        VehicleSnapshot(vehicleId: "C3", tripId: "T4.WKD.0.2007", routeId: "ST_T4", timestamp: now - 9),
                    ],
                    sources: [RealtimeSourceStatus(name: "vp", kind: .vehiclePositions, feedTimestamp: now - 5)]))
            let byRoute = try await client.ask(#"{"id":1,"op":"vehicles","route_id":"ST_T1"}"#)
            #expect(byRoute.ok, "\(byRoute)")
            #expect(byRoute.list("vehicles").map { $0["vehicle_id"] as? String } == ["A1", "B2"])
            #expect(byRoute.meta["source"] as? String == "static+rt")
            let byTrip = try await client.ask(#"{"id":2,"op":"vehicles","trip_id":"T4.WKD.0.2007"}"#)
            #expect(byTrip.list("vehicles").map { $0["vehicle_id"] as? String } == ["C3"])
            // A known route without vehicles is an empty list; an unknown one NOT_FOUND.
            let empty = try await client.ask(#"{"id":3,"op":"vehicles","route_id":"ST_T8"}"#)
            #expect(empty.ok && empty.list("vehicles").isEmpty, "\(empty)")
            let unknown = try await client.ask(#"{"id":4,"op":"vehicles","route_id":"XX"}"#)
            #expect(unknown.errorCode == "NOT_FOUND")
        }
    }

    @Test func vehiclesCarryTheirRouteAndHeadsign() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view) { fixture in
            let client = try fixture.client()
            let now = Int64(Date().timeIntervalSince1970)
            view.replace(
                RealtimeState(
                    vehicles: [
                        // Resolved trip instance: headsign from the static trip.
                        VehicleSnapshot(
                            vehicleId: "A1", tripId: "T1.WKD.1.1940", routeId: "ST_T1", serviceDate: 20_251_222,
                            timestamp: now - 8),
                        // No service date: the route still describes it, the headsign is unknown.
                        VehicleSnapshot(vehicleId: "B2", tripId: "T1.WKD.0.1910", routeId: "ST_T1", timestamp: now - 5),
                        // No route id: the route comes from the trip.
                        VehicleSnapshot(
                            vehicleId: "C3", tripId: "T4.WKD.0.2007", serviceDate: 20_251_222, timestamp: now - 9),
                    ],
                    sources: [RealtimeSourceStatus(name: "vp", kind: .vehiclePositions, feedTimestamp: now - 5)]))
            let byRoute = try await client.ask(#"{"id":1,"op":"vehicles","route_id":"ST_T1"}"#)
            #expect(byRoute.ok, "\(byRoute)")
            let vehicles = byRoute.list("vehicles")
            try #require(vehicles.count == 2)
            for v in vehicles {
                #expect(v["route_short_name"] as? String == "T1")
                #expect(v["route_color"] as? String == "#F99D1C")
                #expect(v["mode"] as? String == "train")
            }
            #expect(vehicles[0]["headsign"] as? String == "Penrith")
            #expect(vehicles[1]["headsign"] is NSNull)
            let byTrip = try await client.ask(#"{"id":2,"op":"vehicles","trip_id":"T4.WKD.0.2007"}"#)
            let c3 = try #require(byTrip.list("vehicles").first)
            #expect(c3["route_short_name"] as? String == "T4" && c3["mode"] as? String == "train")
            #expect(c3["headsign"] as? String != nil)
        }
    }

    /// Every text of a GTFS-RT alert reaches the alert object in the asked language: the text-to-speech texts,
    /// the agency's cause and effect details and the image with its alternative text (GATEWAY.md "alert").
    @Test func alertDetailsTtsAndImageAreServedInTheAskedLanguage() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view) { fixture in
            let client = try fixture.client()
            let at = SampleTimes.mondayEvening
            func both(_ en: String, _ de: String) -> TranslatedText {
                TranslatedText([.init(text: en, language: "en"), .init(text: de, language: "de")])
            }
            let live = LiveAlert(
                key: "al/detour", source: "al", entityId: "detour",
                informedEntities: [LiveInformedEntity(stopId: "200060")], cause: "CONSTRUCTION", effect: "DETOUR",
                severity: "WARNING", headerText: both("Detour", "Umleitung"),
                ttsHeaderText: both("Detour at Central", "Umleitung am Hauptbahnhof"),
                ttsDescriptionText: TranslatedText("Buses leave from stand D."),
                causeDetail: both("Track work", "Gleisarbeiten"),
                effectDetail: both("Stops moved", "Haltestellen verlegt"),
                image: TranslatedImage(localizedImages: [
                    .init(url: "https://x/map-en.png", mediaType: "image/png", language: "en"),
                    .init(url: "https://x/karte.svg", mediaType: "image/svg+xml", language: "de"),
                ]),
                imageAlternativeText: both("Map of the detour", "Karte der Umleitung"))
            let plain = AlertRecord(id: "plain", informedEntities: [AlertView.InformedEntity(stopId: "200060")])
            view.replace(
                RealtimeState(
                    alerts: [AlertRecord(live), plain], sources: [RealtimeSourceStatus(name: "al", kind: .alerts)]))

            let german = try await client.ask(#"{"op":"alerts","stop_id":"200060","at":\#(at),"lang":"de"}"#)
            #expect(german.ok, "\(german)")
            let de = try #require(german.list("alerts").first { $0["id"] as? String == "detour" })
            #expect(de["tts_header"] as? String == "Umleitung am Hauptbahnhof")
            #expect(de["tts_description"] as? String == "Buses leave from stand D.")  // untranslated: as given
            #expect(de["cause_detail"] as? String == "Gleisarbeiten")
            #expect(de["effect_detail"] as? String == "Haltestellen verlegt")
            let image = try #require(de["image"] as? [String: Any])
            #expect(image["url"] as? String == "https://x/karte.svg")
            #expect(image["media_type"] as? String == "image/svg+xml")
            #expect(image["alt_text"] as? String == "Karte der Umleitung")

            let english = try await client.ask(#"{"op":"alerts","stop_id":"200060","at":\#(at)}"#)
            let en = try #require(english.list("alerts").first { $0["id"] as? String == "detour" })
            #expect(en["cause_detail"] as? String == "Track work")
            #expect((en["image"] as? [String: Any])?["url"] as? String == "https://x/map-en.png")
            // An alert without them: every new field present and null.
            let none = try #require(english.list("alerts").first { $0["id"] as? String == "plain" })
            for field in ["tts_header", "tts_description", "cause_detail", "effect_detail", "image"] {
                #expect(none[field] is NSNull, "\(field)")
            }
        }
    }

    @Test func alertsMatchTheStopsStationRoutesAndLanguage() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view) { fixture in
            let client = try fixture.client()
            let at = SampleTimes.mondayEvening
            let lifts = AlertRecord(
                id: "lifts",
                header: TranslatedText([
                    .init(text: "Lifts out of service", language: "en"),
                    .init(text: "Aufzüge außer Betrieb", language: "de"),
                ]),
                effect: "ACCESSIBILITY_ISSUE", severity: "WARNING",
                informedEntities: [AlertView.InformedEntity(stopId: "200060")])
            let t1 = AlertRecord(
                id: "t1-delays", header: TranslatedText([.init(text: "T1 delays")]),
                effect: "SIGNIFICANT_DELAYS", severity: "SEVERE",
                informedEntities: [AlertView.InformedEntity(routeId: "ST_T1")])
            let expired = AlertRecord(
                id: "old", effect: "NO_SERVICE", activePeriods: [AlertView.Period(start: 0, end: at - 1)],
                informedEntities: [AlertView.InformedEntity(stopId: "200060")])
            let elsewhere = AlertRecord(id: "ferry", informedEntities: [AlertView.InformedEntity(routeId: "SF_F1")])
            view.replace(
                RealtimeState(
                    alerts: [lifts, t1, expired, elsewhere], sources: [RealtimeSourceStatus(name: "al", kind: .alerts)])
            )

            // A platform of Central: the station's alert and the alert of a route serving it, by severity.
            let platform = try await client.ask(#"{"op":"alerts","stop_id":"20006016","at":\#(at),"lang":"de"}"#)
            #expect(platform.ok, "\(platform)")
            let alerts = platform.list("alerts")
            #expect(alerts.map { $0["id"] as? String } == ["t1-delays", "lifts"])
            #expect(alerts.last?["header"] as? String == "Aufzüge außer Betrieb")
            let banner = alerts.last?["banner"] as? [String: Any]
            #expect(banner?["icon"] as? String == "figure.roll")
            #expect(banner?["accessibility_label"] as? String == "Accessibility issue: Aufzüge außer Betrieb")
            #expect(platform.meta["source"] as? String == "static+rt")

            // A route query sees route-wide alerts only, not the stop's.
            let route = try await client.ask(#"{"op":"alerts","route_id":"ST_T1","at":\#(at)}"#)
            #expect(route.list("alerts").map { $0["id"] as? String } == ["t1-delays"])

            // With the static service down, only the id itself matches, as rt_only.
            fixture.stopStaticService()
            let down = try await client.ask(#"{"op":"alerts","stop_id":"200060","at":\#(at)}"#, timeout: .seconds(5))
            #expect(down.ok, "\(down)")
            #expect(down.meta["source"] as? String == "rt_only")
            #expect(down.list("alerts").map { $0["id"] as? String } == ["lifts"])
            #expect(down.list("alerts").first?["header"] as? String == "Lifts out of service")
        }
    }
}
