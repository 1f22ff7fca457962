import Foundation
import GTFSRealtime
import GatewayProtocol
import ProcessSupport
import RealtimeService
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// `health.reasons`: every status other than `ok` explained, per source, in words a person can act on; the
/// timetable match the realtime service judged, and a realtime feed_version other than its static feed's.
@Suite struct HealthReasonsTests {
    private let now: Int64 = 1_766_394_000

    private func feedInfo(version: String? = "sample-2025.1", importedAt: Int64? = nil) -> FeedInfo {
        FeedInfo(
            databaseVersion: "db1", importedAt: importedAt ?? now - 2 * 86400,
            feeds: [
                FeedSummary(
                    name: "sydneytrains", version: version, timezone: "Australia/Sydney",
                    importedAt: importedAt ?? now - 2 * 86400, stops: 1, routes: 1, trips: 1, stopTimes: 1)
            ], stops: 1, routes: 1, trips: 1, stopTimes: 1, patterns: 1)
    }

    private func source(match: LiveTimetableMatch? = nil, feedVersion: String? = nil) -> RealtimeSourceStatus {
        var status = RealtimeSourceStatus(
            name: "sydneytrains", kind: .tripUpdates, feedTimestamp: now - 5, stale: false, lastSuccessUnix: now - 5)
        status.match = match
        status.feedVersion = feedVersion
        return status
    }

    private func judge(_ sources: [RealtimeSourceStatus], info: FeedInfo? = nil, status: RealtimeReading.Status = .ok)
        -> (status: String, reasons: [HealthReason])
    {
        HealthJudgement.judge(
            feedInfo: info ?? feedInfo(), staticError: nil, realtime: status, heartbeatAge: .seconds(1),
            sources: sources, now: now)
    }

    @Test func aFailedStaticRefreshIsAReasonAndTheServingVersionIsNamed() {
        var info = feedInfo(version: "2026-03-01")
        info.feeds[0].refresh = FeedRefreshStatus(
            source: "https://api.example.com/sydneytrains", lastCheck: now - 60, lastChange: now - 86400,
            nextCheck: now + 240,
            lastError: "sydneytrains: the new version removes every train trip (the serving one has 2140)",
            lastErrorAt: now - 60, consecutiveFailures: 1, refused: "…")
        let verdict = judge([source()], info: info)
        #expect(verdict.status == "degraded")
        #expect(
            verdict.reasons == [
                HealthReason(
                    source: "sydneytrains", code: .staticRefreshFailed,
                    message:
                        "static feed sydneytrains: refresh failed 1 time in a row, the serving version (2026-03-01) "
                        + "is unchanged: sydneytrains: the new version removes every train trip (the serving one has 2140)"
                )
            ])
        // A good check clears it.
        info.feeds[0].refresh?.lastError = nil
        info.feeds[0].refresh?.consecutiveFailures = 0
        #expect(judge([source()], info: info).status == "ok")
    }

    @Test func aSourceMostlyUnmatchedIsDegradedWithAReasonAPersonCanActOn() {
        let mismatch = LiveTimetableMatch(
            tripUpdates: .init(considered: 560, matched: 101), ratePermille: 180, medianPermille: 970, samples: 58,
            minPermille: 500, mismatch: true, mismatchSinceUnix: now - 120)
        let verdict = judge([source(match: mismatch)])
        #expect(verdict.status == "degraded")
        #expect(verdict.reasons.count == 1)
        let reason = verdict.reasons[0]
        #expect(reason.source == "sydneytrains" && reason.code == .timetableMismatch)
        #expect(
            reason.message
                == "sydneytrains: 18 % of 560 trip updates match the timetable (median 97 % over the last hour, "
                + "minimum 50 %); static feed sydneytrains (version sample-2025.1) imported 2 days ago: import the "
                + "current timetable")

        // Recovered: the realtime service judged the next update fine.
        var recovered = mismatch
        recovered.tripUpdates.matched = 550
        recovered.ratePermille = 982
        recovered.mismatch = false
        recovered.mismatchSinceUnix = nil
        let fine = judge([source(match: recovered)])
        #expect(fine.status == "ok" && fine.reasons.isEmpty)
    }

    @Test func aVehicleOnlySourceIsJudgedByItsVehicles() {
        let match = LiveTimetableMatch(
            vehicles: .init(considered: 40, matched: 8), ratePermille: 200, minPermille: 500, mismatch: true)
        let reason = judge([source(match: match)]).reasons.first
        #expect(
            reason?.message.hasPrefix("sydneytrains: 20 % of 40 vehicle positions match the timetable (minimum") == true
        )
    }

    @Test func aFeedVersionOtherThanTheStaticFeedsIsAReason() {
        let verdict = judge([source(feedVersion: "2026-06-11")])
        #expect(verdict.status == "degraded")
        #expect(verdict.reasons.map(\.code) == [.feedVersionMismatch])
        #expect(
            verdict.reasons.first?.message
                == "sydneytrains: the realtime feed is for feed_version 2026-06-11, the static feed sydneytrains is "
                + "version sample-2025.1: import the matching timetable")
        // Equal, or either one not given: nothing to compare.
        #expect(judge([source(feedVersion: "sample-2025.1")]).status == "ok")
        #expect(judge([source(feedVersion: nil)]).status == "ok")
        #expect(judge([source(feedVersion: "x")], info: feedInfo(version: nil)).status == "ok")
        // A source whose prefix names no static feed is compared with none.
        var prefixed = source(feedVersion: "x")
        prefixed.idPrefix = "bus:"
        #expect(judge([prefixed]).status == "ok")
    }

    @Test func theExistingStatusesHaveTheirReasonsToo() {
        var stale = source()
        stale.stale = true
        stale.lastError = "HTTP 503"
        var failing = source()
        failing.name = "buses"
        failing.consecutiveErrors = 3
        failing.lastError = "timed out"
        let verdict = judge([stale, failing])
        #expect(verdict.status == "degraded")
        #expect(verdict.reasons.map(\.code) == [.sourceStale, .sourceFailing])
        #expect(verdict.reasons[0].message == "sydneytrains: stale, its newest feed is 5 s old; last error: HTTP 503")
        #expect(verdict.reasons[1].message == "buses: 3 failed polls in a row; last error: timed out")

        let silent = judge([stale], status: .silent)
        #expect(silent.status == "degraded" && silent.reasons.map(\.code) == [.realtimeSilent])

        let down = HealthJudgement.judge(
            feedInfo: nil, staticError: "no answer within 2 s", realtime: .notConfigured, heartbeatAge: nil,
            sources: [], now: now)
        #expect(down.status == "down" && down.reasons.map(\.code) == [.staticUnavailable])
        #expect(down.reasons[0].message.contains("no answer within 2 s"))
        #expect(down.reasons[0].source == nil)

        #expect(judge([], status: .notConfigured).status == "ok")
    }

    @Test func healthAnswersTheReasonsAndTheMatch() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view, configure: { $0.clock = ServiceClock(start: Double(now), rate: 0) }) {
            fixture in
            let client = try fixture.client()
            var ok = source(feedVersion: "sample-2025.1")
            ok.match = LiveTimetableMatch(
                tripUpdates: .init(considered: 10, matched: 10), ratePermille: 1000, medianPermille: 1000, samples: 3)
            view.replace(RealtimeState(sources: [ok]))
            var answer = try await client.ask(#"{"op":"health"}"#)
            #expect(answer.data["status"] as? String == "ok", "\(answer)")
            #expect((answer.data["reasons"] as? [Any])?.isEmpty == true, "\(answer)")
            let listed = try #require(
                ((answer.data["realtime"] as? [String: Any])?["sources"] as? [[String: Any]])?.first)
            #expect(listed["feed_version"] as? String == "sample-2025.1")
            let match = try #require(listed["match"] as? [String: Any], "\(listed)")
            #expect((match["trip_updates"] as? [String: Any])?["considered"] as? Int == 10)
            #expect(match["rate"] as? Double == 1 && match["median_hour"] as? Double == 1)
            #expect(match["min_rate"] as? Double == 0.5 && match["mismatch"] as? Bool == false)

            var bad = ok
            bad.match?.tripUpdates.matched = 1
            bad.match?.ratePermille = 100
            bad.match?.mismatch = true
            bad.match?.mismatchSinceUnix = now - 60
            view.replace(RealtimeState(sources: [bad]))
            answer = try await client.ask(#"{"op":"health"}"#)
            #expect(answer.data["status"] as? String == "degraded", "\(answer)")
            let reasons = try #require(answer.data["reasons"] as? [[String: Any]])
            #expect(reasons.count == 1)
            #expect(reasons.first?["source"] as? String == "sydneytrains")
            #expect(reasons.first?["code"] as? String == "timetable_mismatch")
            #expect((reasons.first?["message"] as? String)?.hasPrefix("sydneytrains: 10 % of 10 trip updates") == true)
        }
    }
}

/// Transport for NSW's real Sydney Trains trip updates (../shared/realdata/, skipped when absent) resolved against
/// the sample timetable, whose trip ids are not TfNSW's: the realtime service judges a mismatch and the gateway's
/// `health` says `degraded`, with the reason.
@Suite(.enabled(if: SydneyTrainsCapture.available, SydneyTrainsCapture.absent))
struct SydneyTrainsMatchHealthTests {
    @Test func theSampleTimetableMatchesLittleOfTheCaptureAndHealthSaysSo() async throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: SydneyTrainsCapture.path)))
        let header: Int64 = 1_781_166_696
        let pub = UniqueURL.ipc("smpub")
        let rep = UniqueURL.ipc("smrep")
        try await withGateway(
            configure: {
                $0.subscribeURL = pub
                $0.realtimeURL = rep
                $0.clock = ServiceClock(start: Double(header), rate: 0)
            }
        ) { fixture in
            let sockets = try RealtimeSockets(listen: rep, publish: pub)
            defer { sockets.stop() }
            let schedules = try StaticScheduleClient(url: fixture.staticURL)
            defer { schedules.close() }
            let engine = try RealtimeEngine(
                sources: [SourceSettings(name: "sydneytrains", kind: .tripUpdates, timeZone: "Australia/Sydney")],
                hub: sockets.hub, schedules: schedules, timeZone: "Australia/Sydney",
                logger: GatewayFixture.quietLogger, clock: { header })
            await engine.handle(.fetched(source: "sydneytrains", bytes: bytes, at: header))
            let match = try #require(await engine.statuses().first?.match)
            #expect(match.mismatch && (match.ratePermille ?? 1000) < 500, "\(match)")

            try await eventually("the gateway hears the source") {
                sockets.hub.heartbeat()
                let reading = fixture.realtime.read()
                return reading.usable && reading.sources.first?.match != nil
            }
            let health = try await fixture.client().ask(#"{"op":"health"}"#)
            #expect(health.data["status"] as? String == "degraded", "\(health)")
            let reasons = try #require(health.data["reasons"] as? [[String: Any]])
            let reason = try #require(reasons.first { $0["code"] as? String == "timetable_mismatch" }, "\(health)")
            let message = try #require(reason["message"] as? String)
            #expect(message.hasPrefix("sydneytrains: "), "\(message)")
            #expect(
                message.contains("of \(match.tripUpdates.considered) trip updates match the timetable"), "\(message)")
            #expect(message.contains("static feed sample"), "\(message)")
        }
    }
}
