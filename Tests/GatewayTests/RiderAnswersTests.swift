import Foundation
import GatewayProtocol
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// What a rider meets first: board rows that name their trip instance, boards of quiet stops, a stop name
/// where an id belongs, and `feed_age_s` that agrees with `health`.
@Suite struct RiderAnswersTests {
    /// Saturday 2026-02-07 10:00 AEDT; the school bus 2519 next leaves Castle Hill Rd (2126201) on Monday
    /// 2026-02-09 at 08:05 (1770584700).
    private let saturday: Int64 = 1_770_418_800
    private let mondaySchoolBus = 1_770_584_700
    /// Saturday 2025-12-20 10:00 AEDT: the school holidays; no school bus for more than 7 days.
    private let holidaySaturday: Int64 = 1_766_185_200
    /// Wednesday 2026-03-04 12:00 AEDT; the T8 replacement buses leave Sydenham (2044153) only on the
    /// TRACKWORK dates, first on Saturday 2026-03-07 at 06:00 (1772823600) and 08:00.
    private let wednesday: Int64 = 1_772_586_000

    private func board(_ client: LineClient, _ stopId: String, at: Int64, _ extra: String = "") async throws -> JSONLine
    {
        let answer = try await client.ask(#"{"op":"departures","stop_id":"\#(stopId)","at":\#(at)\#(extra)}"#)
        #expect(answer.ok, "\(answer)")
        return answer
    }

    private func page(_ answer: JSONLine) -> [String: Any] { answer.data["page"] as? [String: Any] ?? [:] }

    @Test func everyBoardRowCarriesItsTripsStartTime() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            let answer = try await board(client, "200060", at: SampleTimes.mondayEvening, #","limit":12"#)
            let rows = answer.list("departures")
            #expect(rows.count == 12)
            var sawScheduled = false, sawFrequency = false
            for row in rows {
                let tripId = try #require(row["trip_id"] as? String)
                let start = try #require(row["start_time"] as? String, "\(tripId) has no start_time")
                if tripId.hasSuffix(".FREQ") {
                    sawFrequency = true
                } else {
                    // Scheduled trip ids end in the HHMM of their first departure (data/sample-gtfs/README.md).
                    sawScheduled = true
                    let hhmm = String(tripId.suffix(4))
                    #expect(start == "\(hhmm.prefix(2)):\(hhmm.suffix(2)):00", "\(tripId)")
                }
                // The row names the instance `trip` answers.
                let date = try #require(row["service_date"] as? String)
                let trip = try await client.ask(
                    #"{"op":"trip","trip_id":"\#(tripId)","date":"\#(date)","start_time":"\#(start)","at":\#(SampleTimes.mondayEvening)}"#
                )
                #expect(trip.ok, "\(trip)")
                #expect(trip.data["start_time"] as? String == start, "\(tripId)")
            }
            #expect(sawScheduled && sawFrequency)
        }
    }

    @Test func anEmptyDayLooksFurtherUntilTheNextDeparture() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            let answer = try await board(client, "2126201", at: saturday)
            let rows = answer.list("departures")
            #expect(rows.map { $0["trip_id"] as? String } == ["2519.SCHOOL.0.0805"])
            #expect(rows.first?["scheduled_unix"] as? Int == mondaySchoolBus)
            #expect(rows.first?["service_date"] as? String == "20260209")
            // Countdowns still count from `at`.
            #expect(answer.meta["at"] as? Int == Int(saturday))
            #expect(rows.first?["minutes_until"] as? Int == (mondaySchoolBus - Int(saturday)) / 60)

            // Paging on from the found row: the afternoon run ends here, so next is Tuesday's.
            let later = try #require(page(answer)["later_cursor"] as? String)
            let next = try await board(client, "2126201", at: saturday, #","limit":1,"cursor":"\#(later)""#)
            #expect(next.list("departures").first?["service_date"] as? String == "20260210")
        }
    }

    @Test func limitStillBoundsTheRowsFoundFurtherOn() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            let answer = try await board(client, "2044153", at: wednesday, #","limit":2"#)
            let rows = answer.list("departures")
            #expect(rows.map { $0["scheduled_unix"] as? Int } == [1_772_823_600, 1_772_830_800])
            #expect(page(answer)["has_more_future"] as? Bool == true)
        }
    }

    @Test func moreThanSevenDaysWithoutServiceIsAnEmptyBoard() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            let answer = try await board(client, "2126201", at: holidaySaturday)
            #expect(answer.list("departures").isEmpty)
            #expect(page(answer)["has_more_future"] as? Bool == false)
            // A past board of a busy stop is never affected: it has rows in its first window.
            let past = try await board(
                client, "200060", at: SampleTimes.mondayEvening, #","limit":2,"direction":"past""#)
            #expect(past.list("departures").count == 2)
        }
    }

    @Test func aStopNameWhereTheIdBelongsNamesTheSearchOp() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            let answer = try await client.ask(#"{"op":"departures","stop_id":"Central Station"}"#)
            #expect(answer.errorCode == "NOT_FOUND")
            let message = try #require(answer.errorMessage)
            #expect(message.contains("Central Station"), "\(message)")
            #expect(message.contains(#""search" op"#), "\(message)")
            #expect(message.contains(#"stop_id "200060""#), "\(message)")

            // An id that names nothing: the plain NOT_FOUND.
            let unknown = try await client.ask(#"{"op":"departures","stop_id":"999999999"}"#)
            #expect(unknown.errorCode == "NOT_FOUND")
            #expect(unknown.errorMessage?.contains("search") == false, "\(unknown)")
        }
    }

    /// Boards, trips and `health` in the same second: feed_age_s is the age of the newest feed header (25 s
    /// here), not of the trip update's own timestamp (471 s), which a producer restamps only on a change.
    @Test func feedAgeAgreesWithHealth() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view) { fixture in
            let client = try fixture.client()
            let now = Int64(Date().timeIntervalSince1970)
            let at = SampleTimes.mondayEvening
            var trip = LiveFixtures.trip(
                "T2.WKD.0.1922", routeId: "ST_T2", stops: [("20006018", at - 120, at + 280)], firstSequence: 6)
            trip.timestamp = UInt64(now - 471)
            var assembler = LiveStateAssembler()
            assembler.applySnapshot(.tripUpdates(LiveTripBatch(trips: [trip])))
            assembler.applySnapshot(
                .sources([
                    LiveSourceStatus(
                        name: "tu", kind: .tripUpdates, feedTimestamp: UInt64(now - 25), lastSuccessUnix: now - 25,
                        stale: false)
                ]))
            view.replace(assembler.state)

            let board = try await self.board(client, "200060", at: at, #","limit":3"#)
            let tripAnswer = try await client.ask(
                #"{"op":"trip","trip_id":"T2.WKD.0.1922","date":"20251222","at":\#(at)}"#)
            let health = try await client.ask(#"{"op":"health"}"#)
            let sources = (health.data["realtime"] as? [String: Any])?["sources"] as? [[String: Any]] ?? []
            let healthAge = try #require(sources.first?["age_s"] as? Int)
            for answer in [board, tripAnswer] {
                #expect(answer.meta["source"] as? String == "static+rt", "\(answer)")
                let age = try #require(answer.meta["feed_age_s"] as? Int, "\(answer)")
                #expect(age >= 25 && age < 60, "\(answer)")
                #expect(abs(age - healthAge) <= 1, "feed_age_s \(age), health age_s \(healthAge)")
            }
        }
    }
}
