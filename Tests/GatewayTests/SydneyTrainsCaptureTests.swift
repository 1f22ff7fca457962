// Transport for NSW's real Sydney Trains trip updates (../shared/realdata/, never committed; the suite is skipped,
// with a message, when it is absent) against a small static feed written at test time from a few of the
// capture's own trip and stop ids: the realtime engine (its clock at the capture's header time) resolves the
// capture read from its file, publishes through real sockets, and the gateway shows those trips' per-stop and
// per-carriage occupancy on boards, in `trip` answers and REPLACEMENT trips by today's rule; the capture's
// other trips are drops, not errors.
import Foundation
import GTFSRealtime
import Logging
import RealtimeService
import StaticService
import Testing
import TransitModel
import TransitStore
import TransitTesting

@testable import Gateway

enum SydneyTrainsCapture {
    static let path = RealCaptures.path("tfnsw-sydney-2026-06-11-rtonly/tripupdates_sydneytrains.pb")

    static var available: Bool { FileManager.default.fileExists(atPath: path) }

    static let absent: Comment = "../shared/realdata/ is absent: the Sydney Trains capture test is skipped"

    /// 2026-06-11 00:00 in Sydney (AEST, +10:00): the capture's service day starts here (noon minus 12 h).
    static let dayStart: Int64 = 1_781_100_000
    static let date = "20260611"

    /// One trip of the capture put in the static feed.
    struct Trip {
        var tripId: String
        var routeId: String
        var replacement: Bool
        /// Stop ids and scheduled departure (seconds of the service day), in order.
        var stops: [(stopId: String, secs: Int64)]
        /// The stop whose board the test reads: its update has carriages and it is not the trip's last stop.
        var boardStop: String
        var carriages: Int
        var occupancy: String
    }

    /// A static feed (GTFS folder) holding `trips`, and every stop the capture's REPLACEMENT trips name (so
    /// the boards of those stops can be asked).
    static func writeFeed(_ trips: [Trip], extraStops: Set<String>, to folder: String) throws {
        func write(_ name: String, _ lines: [String]) throws {
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        func time(_ secs: Int64) -> String {
            String(format: "%02d:%02d:%02d", secs / 3600, secs / 60 % 60, secs % 60)
        }
        var stopIds = extraStops
        for trip in trips { for stop in trip.stops { stopIds.insert(stop.stopId) } }
        try write(
            "agency.txt",
            [
                "agency_id,agency_name,agency_url,agency_timezone",
                "ST,Sydney Trains,https://transportnsw.info,Australia/Sydney",
            ])
        try write(
            "stops.txt",
            ["stop_id,stop_name,stop_lat,stop_lon"]
                + stopIds.sorted().enumerated().map { i, id in
                    "\(id),Stop \(id),\(-33.8 - Double(i) * 0.001),\(151.2 + Double(i) * 0.001)"
                })
        try write(
            "routes.txt",
            ["route_id,agency_id,route_short_name,route_type"]
                + Set(trips.map(\.routeId)).sorted().map { "\($0),ST,\($0),2" })
        try write(
            "calendar.txt",
            [
                "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date",
                "D,1,1,1,1,1,1,1,20260601,20260630",
            ])
        try write(
            "trips.txt",
            ["route_id,service_id,trip_id,trip_headsign"]
                + trips.map { "\($0.routeId),D,\($0.tripId),Capture" })
        var stopTimes = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
        for trip in trips {
            for (k, stop) in trip.stops.enumerated() {
                stopTimes.append("\(trip.tripId),\(time(stop.secs)),\(time(stop.secs)),\(stop.stopId),\(k + 1)")
            }
        }
        try write("stop_times.txt", stopTimes)
    }
}

@Suite(.enabled(if: SydneyTrainsCapture.available, SydneyTrainsCapture.absent))
struct SydneyTrainsCaptureTests {
    typealias C = SydneyTrainsCapture

    /// Three SCHEDULED trips (delays only, as Sydney Trains sends them) and one REPLACEMENT trip (its own
    /// times) of the capture, each with a stop that has carriages and a departure after the header time.
    static func choose(_ feed: FeedMessage, header: Int64) -> [C.Trip] {
        var scheduled: [C.Trip] = []
        var replacement: C.Trip?
        for entity in feed.entities {
            guard let update = entity.tripUpdate, let tripId = update.trip.tripId, !tripId.isEmpty,
                let routeId = update.trip.routeId
            else { continue }
            let updates = update.stopTimeUpdates
            let ids = updates.compactMap(\.stopId)
            guard ids.count == updates.count, ids.count >= 2, Set(ids).count == ids.count else { continue }
            switch update.trip.scheduleRelationship ?? .scheduled {
            case .scheduled where scheduled.count < 3:
                guard updates.allSatisfy({ $0.arrival?.time == nil && $0.departure?.time == nil }),
                    let k = updates.dropLast().firstIndex(where: { !$0.tfnswCarriages.isEmpty }),
                    let occupancy = updates[k].departureOccupancyStatus
                else { continue }
                // Its own schedule: from 18:40 on (after the header, 18:31:36), 3 minutes a stop, one trip a minute.
                let start = 18 * 3600 + 40 * 60 + Int64(scheduled.count) * 60
                scheduled.append(
                    C.Trip(
                        tripId: tripId, routeId: routeId, replacement: false,
                        stops: ids.enumerated().map { ($0.element, start + Int64($0.offset) * 180) },
                        boardStop: ids[k], carriages: updates[k].tfnswCarriages.count, occupancy: occupancy.name))
            case .replacement where replacement == nil:
                func time(_ u: StopTimeUpdate) -> Int64? { u.departure?.time ?? u.arrival?.time }
                guard updates.allSatisfy({ time($0) != nil }),
                    let k = updates.dropLast().firstIndex(where: {
                        !$0.tfnswCarriages.isEmpty && $0.departure?.time ?? 0 > header + 300
                    }),
                    let occupancy = updates[k].departureOccupancyStatus
                else { continue }
                // Scheduled 2 minutes before the update's times: the board shows it 2 minutes late.
                replacement = C.Trip(
                    tripId: tripId, routeId: routeId, replacement: true,
                    stops: updates.map { ($0.stopId!, time($0)! - 120 - C.dayStart) },
                    boardStop: ids[k], carriages: updates[k].tfnswCarriages.count, occupancy: occupancy.name)
            default:
                continue
            }
        }
        return scheduled + (replacement.map { [$0] } ?? [])
    }

    @Test func capturedTripsShowTheirPerStopAndPerCarriageOccupancy() async throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: C.path)))
        let feed = try GTFSRealtimeCodec.decode(bytes)
        let header = Int64(try #require(feed.header.timestamp))
        let chosen = Self.choose(feed, header: header)
        try #require(chosen.count == 4, "the capture holds 3 usable SCHEDULED trips and a REPLACEMENT one")
        let replaced = chosen[3]

        // The REPLACEMENT trips the static feed does not know: added trips with their own stops (today's rule).
        let unknownReplacement = try #require(
            feed.entities.compactMap(\.tripUpdate).first { update in
                update.trip.scheduleRelationship == .replacement && update.trip.tripId != replaced.tripId
                    && update.stopTimeUpdates.contains { ($0.departure?.time ?? 0) > header + 300 && $0.stopId != nil }
            })
        let unknownStop = try #require(
            unknownReplacement.stopTimeUpdates.dropLast().first {
                ($0.departure?.time ?? 0) > header + 300 && $0.stopId != nil
            }?.stopId)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sydney-\(UUID().uuidString.prefix(8))"
        ).path
        try FileManager.default.createDirectory(atPath: folder + "/gtfs", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try C.writeFeed(chosen, extraStops: [unknownStop], to: folder + "/gtfs")
        let db = folder + "/sydney.db"
        _ = try GTFSImporter(
            options: ImportOptions(feeds: [.init(path: folder + "/gtfs", name: "sydney")], databasePath: db)
        ).run()

        let staticURL = UniqueURL.ipc("sydstatic")
        let staticServer = try StaticServer(
            configuration: .init(databasePath: db, listenURL: staticURL, contexts: 2),
            logger: GatewayFixture.quietLogger)
        defer { staticServer.stop() }
        let pub = UniqueURL.ipc("sydpub")
        let rep = UniqueURL.ipc("sydrep")
        let sockets = try RealtimeSockets(listen: rep, publish: pub)
        defer { sockets.stop() }
        let schedules = try StaticScheduleClient(url: staticURL)
        defer { schedules.close() }
        let engine = try RealtimeEngine(
            sources: [SourceSettings(name: "sydneytrains", kind: .tripUpdates, timeZone: "Australia/Sydney")],
            hub: sockets.hub, schedules: schedules, timeZone: "Australia/Sydney",
            logger: GatewayFixture.quietLogger, clock: { header })
        await engine.handle(.fetched(source: "sydneytrains", bytes: bytes, at: header))

        // Every trip with a trip id that is neither chosen nor REPLACEMENT/ADDED (those have stops of their own)
        // is unknown to the static feed: a drop.
        let chosenIds = Set(chosen.map(\.tripId))
        let unknown = feed.entities.compactMap(\.tripUpdate).filter { update in
            guard let id = update.trip.tripId, !id.isEmpty, !chosenIds.contains(id) else { return false }
            return [.scheduled, .canceled].contains(update.trip.scheduleRelationship ?? .scheduled)
        }
        let status = try #require(await engine.statuses().first)
        #expect(status.errors == 0, "\(status.lastError ?? "")")
        #expect(status.drops["unknown_trip"] == UInt64(unknown.count), "\(status.drops) \(status.lastDrop ?? "")")

        try await withGateway(
            startStatic: false,
            configure: {
                $0.staticURL = staticURL
                $0.subscribeURL = pub
                $0.realtimeURL = rep
            }
        ) { fixture in
            try await eventually("the gateway holds the capture's trips") {
                sockets.hub.heartbeat()
                let reading = fixture.realtime.read()
                return reading.usable
                    && chosen.allSatisfy { trip in reading.state.trips.keys.contains { $0.tripId == trip.tripId } }
            }
            let client = try fixture.client()

            // health: the source, its drops and the skipped TfNSW field 6.
            let health = try await client.ask(#"{"op":"health"}"#)
            let source = try #require(
                ((health.data["realtime"] as? [String: Any])?["sources"] as? [[String: Any]])?.first)
            #expect(source["errors"] as? Int == 0)
            #expect((source["drops"] as? [String: Any])?["unknown_trip"] as? Int == unknown.count, "\(source)")
            let skipped = source["skipped_fields"] as? [[String: Any]]
            #expect(skipped?.first?["path"] as? String == "entity.trip_update.stop_time_update.6", "\(source)")
            #expect(skipped?.first?["count"] as? Int == 1901)

            for trip in chosen {
                let board = try await client.ask(
                    #"{"op":"departures","stop_id":"\#(trip.boardStop)","at":\#(header),"limit":100}"#)
                #expect(board.meta["source"] as? String == "static+rt", "\(board)")
                let row = try #require(
                    board.list("departures").first { $0["trip_id"] as? String == trip.tripId }, "\(board)")
                #expect(row["realtime"] as? Bool == true, "\(row)")
                #expect(row["occupancy_status"] as? String == trip.occupancy, "\(row)")
                let carriages = try #require(row["carriages"] as? [[String: Any]])
                #expect(carriages.count == trip.carriages, "\(row)")
                #expect(carriages.map { $0["position"] as? Int } == (1...trip.carriages).map { $0 })
                #expect(carriages.allSatisfy { ($0["occupancy_status"] as? String)?.isEmpty == false }, "\(carriages)")
                if trip.replacement {
                    // A REPLACEMENT of a scheduled trip: the scheduled row with the update's times, never added.
                    #expect(row["status"] as? String == "late", "\(row)")
                    #expect(row["delay_s"] as? Int == 120, "\(row)")
                    #expect(row["scheduled_unix"] as? Int != nil, "\(row)")
                }

                let answer = try await client.ask(
                    #"{"op":"trip","trip_id":"\#(trip.tripId)","date":"\#(C.date)","at":\#(header)}"#)
                #expect(answer.ok, "\(answer)")
                #expect(answer.data["realtime"] as? Bool == true)
                let stops = answer.data["stops"] as? [[String: Any]] ?? []
                let stop = try #require(stops.first { $0["stop_id"] as? String == trip.boardStop }, "\(answer)")
                #expect(stop["occupancy_status"] as? String == trip.occupancy, "\(stop)")
                #expect((stop["carriages"] as? [[String: Any]])?.count == trip.carriages, "\(stop)")
            }

            // A REPLACEMENT trip the static feed does not know: shown from its own stops, as added.
            let board = try await client.ask(
                #"{"op":"departures","stop_id":"\#(unknownStop)","at":\#(header),"limit":100}"#)
            let row = try #require(
                board.list("departures").first { $0["trip_id"] as? String == unknownReplacement.trip.tripId },
                "\(board)")
            #expect(row["status"] as? String == "added", "\(row)")
            #expect(row["scheduled_unix"] is NSNull, "\(row)")
        }
    }
}
