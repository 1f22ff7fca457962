import Foundation
import GTFSRealtime
import RealtimeService
import Testing
import TransitModel
import TransitStore
import TransitTesting

@testable import Gateway

/// A train shown late vanished from its stop's board before it came: the next feed no longer covered that stop
/// (producers drop the stops a vehicle has passed, some a little early), the stop fell back to its schedule,
/// already past, and the row left the board. Through the real live state, publisher and gateway.
@Suite struct VanishingTrainTests {
    static let tripId = "T1.WKD.1.1940"

    @Test func aLateTrainStaysOnItsStopsBoardWhenTheNextFeedStartsFurtherOn() async throws {
        let store = try StaticStore(path: try SampleDatabase.path())
        var schedules = ScheduleCache()
        schedules.use(dates: 20251220...20251223)
        let answer = try store.tripSchedules(tripIds: [Self.tripId], from: 20251220, through: 20251223)
        schedules.add(answer)
        let trip = try #require(answer.trips.first)
        let pattern = try #require(answer.patterns.first { $0.patternId == trip.patternId })
        // Stop k: the trip's stop at Central (a platform of 200060), with stops before and after it.
        let k = try #require(pattern.stops.firstIndex { $0.stopId.hasPrefix("200060") })
        try #require(k > 0 && k + 1 < pattern.stops.count)
        let scheduledDeparture: Int64 = 1_766_322_000 + Int64(trip.startSecs) + Int64(pattern.stops[k].departureOffset)
        // 2025-12-22 in Sydney (UTC+11): its noon − 12 h is 2025-12-21T13:00:00Z = 1_766_322_000.

        var state = try LiveState(sources: [
            SourceSettings(name: "tu", kind: .tripUpdates, timeZone: "Australia/Sydney")
        ])
        func feed(firstStop index: Int, at time: Int64) -> FeedMessage {
            let update = TripUpdate(
                trip: TripDescriptor(tripId: Self.tripId, startDate: "20251222"),
                stopTimeUpdates: [
                    StopTimeUpdate(
                        stopSequence: pattern.stops[index].stopSequence,
                        departure: StopTimeEvent(delay: 120))
                ])
            return FeedMessage(
                header: FeedHeader(incrementality: .fullDataset, timestamp: UInt64(time)),
                entities: [FeedEntity(id: "e1", tripUpdate: update)])
        }
        func apply(_ feed: FeedMessage, now: Int64) throws -> LiveChanges {
            let screened = state.screen(feed, bodyHash: Int(now), source: 0, fetchedAt: now)
            try #require(screened)
            return state.apply(feed, bodyHash: Int(now), source: 0, fetchedAt: now, schedules: schedules, now: now)
        }
        // 30 s after its scheduled departure the train is 2 min late at stop k; 23 s later the producer's first
        // stop update is the stop after k.
        let t0 = scheduledDeparture + 30, t1 = t0 + 23
        let first = try apply(feed(firstStop: k - 1, at: t0), now: t0)
        let second = try apply(feed(firstStop: k + 1, at: t1), now: t1)

        let pub = UniqueURL.ipc("gwt-vanpub")
        let rep = UniqueURL.ipc("gwt-vanrep")
        let sockets = try RealtimeSockets(listen: rep, publish: pub)
        defer { sockets.stop() }
        let wallNow = Int64(Date().timeIntervalSince1970)
        sockets.hub.publish(first, sources: [LiveFixtures.freshSource(now: wallNow)])
        sockets.hub.publish(second, sources: nil)

        try await withGatewayFollowing(sockets, pub: pub, rep: rep) { fixture in
            let client = try fixture.client()
            let board = try await client.ask(#"{"op":"departures","stop_id":"200060","at":\#(t1),"limit":20}"#)
            #expect(board.meta["source"] as? String == "static+rt", "\(board)")
            let row = board.list("departures").first { $0["trip_id"] as? String == Self.tripId }
            #expect(row?["delay_s"] as? Int == 120, "\(board.list("departures").map { $0["trip_id"] ?? "" })")
            #expect(row?["realtime_unix"] as? Int == Int(scheduledDeparture + 120))

            let answer = try await client.ask(
                #"{"op":"trip","trip_id":"\#(Self.tripId)","date":"20251222","at":\#(t1)}"#)
            let stop = answer.list("stops").first { $0["stop_sequence"] as? Int == Int(pattern.stops[k].stopSequence) }
            #expect(stop?["delay_s"] as? Int == 120)
        }
    }
}
