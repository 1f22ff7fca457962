import Foundation
import GatewayProtocol
import NNGKit
import StaticService
import Synchronization
import Testing
import TransitModel
import TransitProto
import TransitTesting

@testable import Gateway

/// The gateway's static client during a rolling re-import (protocol/README.md "A new timetable across
/// replicas", rules 2 and 3): another version's answer, taken because the pinned version's replica did not
/// answer in time, is answered but kept out of the caches of the pinned version; a page that carries a
/// static cursor never goes to a replica on another version, and fails naming the cursor's version.
@Suite struct VersionFallbackCacheTests {
    /// What a replica is told and what it did.
    private final class Control: Sendable {
        /// Each answer waits this long (a replica that hangs).
        let hangMs = Atomic<Int>(0)
        let answers = Atomic<Int>(0)
    }

    /// A static replica on the sample database whose answers name `version`.
    private static func replica(
        url: String, version: String, handler: StaticRequestHandler, control: Control
    ) throws -> NNGReplyServer {
        try NNGReplyServer(listeningOn: url, contexts: 4) { span in
            let bytes = span.withUnsafeBytes { Array($0) }
            guard let request = try? StaticCodec.decodeRequest(bytes) else { return [] }
            control.answers.add(1, ordering: .relaxed)
            let hang = control.hangMs.load(ordering: .relaxed)
            if hang > 0 { usleep(UInt32(hang) * 1000) }
            var response = handler.respond(to: request)
            response.databaseVersion = version
            return StaticCodec.encode(response)
        }
    }

    @Test func aFallbackAnswerIsNotCachedAndACursorStaysOnItsVersion() async throws {
        let handler = StaticRequestHandler(
            stores: try ReloadableStore(path: try SampleDatabase.path(), connections: 4), logger: LogRecorder().logger)
        let urls = [UniqueURL.ipc("fallback-a"), UniqueURL.ipc("fallback-b")]
        let (controlA, controlB) = (Control(), Control())
        let a = try Self.replica(url: urls[0], version: "v1", handler: handler, control: controlA)
        defer { a.stop() }
        var b = try Self.replica(url: urls[1], version: "v1", handler: handler, control: controlB)
        defer { b.stop() }
        // No breaker (zero probe interval) and no version probe: the replicas' versions are learnt from the
        // requests below only, so which replica is asked first is the requester's turn alone.
        let client = try StaticClient(
            urls: urls, timeout: .milliseconds(600), probeInterval: .zero, versionProbe: .seconds(3600))
        defer { client.close() }
        let cache = StaticCache(client: client)
        #expect(await eventually(timeout: .seconds(5)) { client.versionPin.replicas.allSatisfy(\.connected) })
        // Turn 1 asks b first, turn 2 a: both on v1, pinned v1.
        for _ in 0..<2 {
            let info = await client.query(.feedInfo)
            #expect((try? info.get()) != nil, "\(info)")
        }
        #expect(client.versionPin.pinned == "v1")

        // b comes back on v2 (not heard from since it reconnected); a stops answering in time.
        b.stop()
        #expect(await eventually(timeout: .seconds(5)) { !client.versionPin.replicas[1].connected })
        b = try Self.replica(url: urls[1], version: "v2", handler: handler, control: controlB)
        #expect(await eventually(timeout: .seconds(5)) { client.versionPin.replicas[1].connected })
        controlA.hangMs.store(1500, ordering: .relaxed)

        // Turn 3 asks b first; a does not answer within the timeout: b's v2 answer is the answer, not cached.
        let stop = await cache.stop("200060")
        #expect((try? stop.get())?.result.stop.stopId == "200060", "\(stop)")
        #expect(client.versionPin.pinned == "v1")
        #expect(client.versionPin.replicas[1].version == "v2")
        #expect(cache.cachedStop("200060") == nil, "another version's answer was cached under v1")

        // A page that carries a cursor of v1: never sent to b (known on v2); a does not answer: the error
        // names v1 and says to ask again without the cursor.
        let answersOfB = controlB.answers.load(ordering: .relaxed)
        let page = DeparturesQuery(stopId: "200060", at: SampleTimes.mondayEvening, limit: 3, cursor: "a-v1-cursor")
        let reply = await client.reply(to: .departures(page), cursorVersion: "v1")
        guard case .failure(let error) = reply.result else {
            Issue.record("a v1 cursor was answered: \(reply.result)")
            return
        }
        #expect(error.code == .staticUnavailable)
        #expect(error.message.contains("database version v1"), "\(error.message)")
        #expect(error.message.contains("ask again without the cursor"), "\(error.message)")
        #expect(controlB.answers.load(ordering: .relaxed) == answersOfB, "the v1 cursor went to the v2 replica")
    }
}
