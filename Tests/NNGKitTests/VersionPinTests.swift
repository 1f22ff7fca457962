import Foundation
import Synchronization
import Testing
import TransitTesting

@testable import NNGKit

@Suite struct VersionPinTests {
    /// Three connected replicas that all answered from `version`.
    private func pinned(_ version: String, replicas: Int = 3) -> VersionPin {
        var pin = VersionPin(replicas: replicas)
        for i in 0..<replicas { pin.connected(i) }
        for i in 0..<replicas { #expect(pin.answered(i, version: version) == nil) }
        return pin
    }

    @Test func theFirstAnswerPinsItsVersion() {
        var pin = VersionPin(replicas: 2)
        pin.connected(0)
        pin.connected(1)
        #expect(pin.pinned == nil)
        #expect(pin.isPinned("anything"))
        #expect(pin.answered(1, version: "v1") == nil)
        #expect(pin.pinned == "v1")
        #expect(pin.moves == 0)
        #expect(pin.isPinned("v1") && !pin.isPinned("v2") && pin.isPinned(nil))
    }

    @Test func theRollingReimportMovesWhenTheLastReplicaHasTheNewVersion() {
        var pin = pinned("v1")
        #expect(pin.answered(0, version: "v2") == nil)
        #expect(pin.pinned == "v1")
        #expect(pin.answered(1, version: "v2") == nil)
        #expect(pin.pinned == "v1")
        // Requests go to the one replica still on v1.
        #expect(pin.order(turn: 0).first == 2)
        #expect(pin.order(turn: 1).first == 2)
        #expect(pin.answered(2, version: "v2") == VersionPin.Move(from: "v1", to: "v2"))
        #expect(pin.pinned == "v2")
        #expect(pin.moves == 1)
        // Late answers of the old version move nothing back while the others stay on v2.
        #expect(pin.answered(2, version: "v1") == nil)
        #expect(pin.pinned == "v2")
    }

    @Test func aReplicaThatIsDownDoesNotHoldTheMoveBack() {
        var pin = pinned("v1")
        #expect(pin.disconnected(2) == nil)
        #expect(pin.answered(0, version: "v2") == nil)
        #expect(pin.answered(1, version: "v2") == VersionPin.Move(from: "v1", to: "v2"))
        // It comes back on the old version: answers stay on v2 (it is asked last among the connected).
        pin.connected(2)
        #expect(pin.answered(2, version: "v1") == nil)
        #expect(pin.pinned == "v2")
        #expect(pin.order(turn: 0).last == 2)
    }

    @Test func theLastOldReplicaGoingAwayMovesThePin() {
        var pin = pinned("v1")
        _ = pin.answered(0, version: "v2")
        _ = pin.answered(1, version: "v2")
        #expect(pin.disconnected(2) == VersionPin.Move(from: "v1", to: "v2"))
    }

    @Test func aReplicaStuckOnTheOldVersionHoldsThePin() {
        var pin = pinned("v1")
        _ = pin.answered(0, version: "v2")
        _ = pin.answered(1, version: "v2")
        for _ in 0..<5 { #expect(pin.answered(2, version: "v1") == nil) }
        #expect(pin.pinned == "v1")
    }

    @Test func aConnectedReplicaNotHeardFromYetDoesNotCount() {
        var pin = pinned("v1", replicas: 2)
        _ = pin.disconnected(1)
        pin.connected(1)
        #expect(pin.replicas[1].version == nil)
        #expect(pin.answered(0, version: "v2") == VersionPin.Move(from: "v1", to: "v2"))
    }

    @Test func withNoReplicaLeftOnThePinnedVersionTheLatestAnswerWins() {
        var pin = pinned("v1")
        _ = pin.answered(0, version: "v2")
        _ = pin.answered(1, version: "v3")
        #expect(pin.pinned == "v1")
        #expect(pin.disconnected(2) == nil, "no latest answer to go by")
        #expect(pin.answered(1, version: "v3") == VersionPin.Move(from: "v1", to: "v3"))
    }

    @Test func answersOfADisconnectedReplicaAreNotCounted() {
        var pin = pinned("v1", replicas: 2)
        _ = pin.disconnected(1)
        #expect(pin.answered(1, version: "v2") == nil)
        #expect(pin.replicas[1].version == nil)
        #expect(pin.pinned == "v1")
    }

    @Test func theOrderIsPinnedOrUnknownThenOtherVersionsThenDisconnectedEachRotated() {
        var pin = VersionPin(replicas: 6)
        for i in 0..<5 { pin.connected(i) }
        _ = pin.answered(0, version: "v1")
        _ = pin.answered(3, version: "v1")
        _ = pin.answered(4, version: "v2")
        // 0, 3 on v1 and 1, 2 unknown; 4 on v2; 5 disconnected.
        #expect(pin.order(turn: 0) == [0, 1, 2, 3, 4, 5])
        #expect(pin.order(turn: 1) == [1, 2, 3, 0, 4, 5])
        #expect(pin.order(turn: -1) == [3, 0, 1, 2, 4, 5])
        #expect(pin.mayBePinned(1) && pin.mayBePinned(3) && !pin.mayBePinned(4))
    }
}

/// Two in-process replicas answering with the version they are on (`"version:<v>"`).
@Suite struct VersionPinnedRequesterTests {
    /// Stops a replica; false (with a message) when nng 1.5.2's reaper wedge kept its socket from closing
    /// (NNGSocket.swift: not fixable from outside nng, about once in 15-30 runs of this module's tests):
    /// then no peer can see it go, and a test of what follows can tell nothing.
    private static func stopped(_ server: NNGReplyServer) -> Bool {
        if server.stop() { return true }
        print("VersionPinTests: nng did not finish closing a replica's socket (its reaper wedge); test ended early")
        return false
    }

    private final class Replica: Sendable {
        final class State: Sendable {
            let version: Mutex<String>
            let answers = Atomic<Int>(0)
            let delayMs = Atomic<Int>(0)
            init(_ version: String) { self.version = Mutex(version) }
        }
        let state: State
        let server: NNGReplyServer
        init(url: String, version: String, state: State? = nil) throws {
            let state = state ?? State(version)
            state.version.withLock { $0 = version }
            self.state = state
            server = try NNGReplyServer(listeningOn: url, contexts: 4) { _ in
                state.answers.add(1, ordering: .relaxed)
                let delay = state.delayMs.load(ordering: .relaxed)
                if delay > 0 { usleep(UInt32(delay) * 1000) }
                return bytes("version:" + state.version.withLock { $0 })
            }
        }
        func reload(_ version: String) { state.version.withLock { $0 = version } }
        /// Each answer from now on takes `ms` (a replica that hangs).
        func answerAfter(ms: Int) { state.delayMs.store(ms, ordering: .relaxed) }
        var answers: Int { state.answers.load(ordering: .relaxed) }
    }

    private func ask(_ client: VersionPinnedRequester) async throws -> String {
        try await client.request(
            bytes("q"), timeout: .seconds(5), read: { String(text($0).dropFirst("version:".count)) },
            version: { $0 })
    }

    @Test func answersComeFromThePinnedVersionUntilEveryReplicaHasTheNewOne() async throws {
        let urls = [UniqueURL.inproc("pin-a"), UniqueURL.inproc("pin-b")]
        let replicas = try urls.map { try Replica(url: $0, version: "v1") }
        defer { for replica in replicas { replica.server.stop() } }
        let client = try VersionPinnedRequester(dialing: urls, defaultTimeout: .seconds(5))
        defer { client.close() }
        let moves = Mutex<[VersionPin.Move]>([])
        client.onMove { move in moves.withLock { $0.append(move) } }
        #expect(try await eventually(timeout: .seconds(5)) { client.pin.replicas.allSatisfy(\.connected) })

        for _ in 0..<10 { #expect(try await ask(client) == "v1") }
        #expect(replicas.allSatisfy { $0.answers >= 3 }, "both replicas are asked")

        // Replica a reloads: its v2 answers are not used while b answers from v1.
        replicas[0].reload("v2")
        for _ in 0..<10 { #expect(try await ask(client) == "v1") }
        #expect(client.pin.replicas.map(\.version) == ["v2", "v1"])
        #expect(moves.withLock { $0 }.isEmpty)

        // Replica b reloads: the pin moves, and from then on only v2.
        replicas[1].reload("v2")
        var seen: [String] = []
        for _ in 0..<10 { seen.append(try await ask(client)) }
        #expect(seen == Array(repeating: "v2", count: 10))
        #expect(moves.withLock { $0 } == [VersionPin.Move(from: "v1", to: "v2")])
        #expect(client.pin.pinned == "v2")
    }

    @Test func theProbeLearnsVersionsOfReplicasThatGetNoRequestsAndMoves() async throws {
        let urls = [UniqueURL.inproc("probe-a"), UniqueURL.inproc("probe-b")]
        let replicas = try urls.map { try Replica(url: $0, version: "v1") }
        defer { for replica in replicas { replica.server.stop() } }
        let client = try VersionPinnedRequester(dialing: urls, defaultTimeout: .seconds(5))
        defer { client.close() }
        client.startProbing(
            bytes("feed_info"), every: .milliseconds(50), version: { String(text($0).dropFirst(8)) })
        #expect(try await eventually(timeout: .seconds(5)) { client.pin.pinned == "v1" })
        for replica in replicas { replica.reload("v2") }
        #expect(try await eventually(timeout: .seconds(5)) { client.pin.pinned == "v2" }, "\(client.pin)")
        #expect(client.pin.moves == 1)
    }

    /// Replica a on v1 (pinned) hangs; replica b restarted on v2 and not heard from yet is asked first. A
    /// request without a cursor gets b's v2 answer, marked as not the pinned version's (caches leave it out);
    /// a request bound to v1 (it carries a v1 cursor) never takes a v2 answer: it fails naming v1.
    @Test func aCursorIsAnsweredOnlyFromItsVersionAndAFallbackIsMarked() async throws {
        let urls = [UniqueURL.ipc("cursor-a"), UniqueURL.ipc("cursor-b")]
        let a = try Replica(url: urls[0], version: "v1")
        defer { a.server.stop() }
        var b = try Replica(url: urls[1], version: "v1")
        defer { b.server.stop() }
        let client = try VersionPinnedRequester(
            dialing: urls, defaultTimeout: .seconds(5), reconnect: (.milliseconds(20), .milliseconds(100)))
        defer { client.close() }
        #expect(try await eventually(timeout: .seconds(5)) { client.pin.replicas.allSatisfy(\.connected) })
        // Turn 1 asks b first, turn 2 a: both known on v1, pinned v1.
        for _ in 0..<2 { #expect(try await ask(client) == "v1") }
        #expect(client.pin.replicas.map(\.version) == ["v1", "v1"])

        // b restarts on v2 (unknown again once it reconnects); a stops answering in time.
        guard Self.stopped(b.server) else { return }
        #expect(try await eventually(timeout: .seconds(5)) { !client.pin.replicas[1].connected })
        b = try Replica(url: urls[1], version: "v2", state: b.state)
        #expect(try await eventually(timeout: .seconds(5)) { client.pin.replicas[1].connected })
        a.answerAfter(ms: 1500)

        // Turn 3 asks b first: its v2 answer is kept while a is asked, and used when a does not answer.
        let fallback = try await client.answer(
            bytes("q"), timeout: .milliseconds(500), read: { String(text($0).dropFirst("version:".count)) },
            version: { $0 })
        #expect(fallback.answer == "v2" && fallback.version == "v2")
        #expect(!fallback.onPinnedVersion, "another version's answer is marked")
        #expect(client.pin.pinned == "v1")
        #expect(client.pin.replicas.map(\.version) == ["v1", "v2"])

        // Bound to v1: b (known on v2) is not asked, a does not answer in time: the error names v1.
        let bAnswers = b.answers
        let refused = await #expect(throws: VersionPinnedRequester.VersionNotAnswered.self) {
            _ = try await client.answer(
                bytes("q"), timeout: .milliseconds(500), onlyVersion: "v1",
                read: { String(text($0).dropFirst("version:".count)) }, version: { $0 })
        }
        #expect(refused?.version == "v1")
        #expect(b.answers == bAnswers, "a request bound to v1 is not sent to a replica on v2")

        // Bound to v1 with a answering again: a's answer, from the pinned version.
        a.answerAfter(ms: 0)
        try await Task.sleep(for: .milliseconds(1200))  // the hanging answers drain
        let bound = try await client.answer(
            bytes("q"), timeout: .seconds(2), onlyVersion: "v1",
            read: { String(text($0).dropFirst("version:".count)) }, version: { $0 })
        #expect(bound.answer == "v1" && bound.onPinnedVersion)
        // Bound to v2 (a cursor from b's fallback page): b answers, not the pinned version's.
        let other = try await client.answer(
            bytes("q"), timeout: .seconds(2), onlyVersion: "v2",
            read: { String(text($0).dropFirst("version:".count)) }, version: { $0 })
        #expect(other.answer == "v2" && !other.onPinnedVersion)
    }

    @Test func aReplicaThatStopsCostsNoRequest() async throws {
        let urls = [UniqueURL.ipc("gone-a"), UniqueURL.ipc("gone-b")]
        let replicas = try urls.map { try Replica(url: $0, version: "v1") }
        defer { replicas[1].server.stop() }
        let client = try VersionPinnedRequester(dialing: urls, defaultTimeout: .seconds(5))
        defer { client.close() }
        #expect(try await eventually(timeout: .seconds(5)) { client.pin.replicas.allSatisfy(\.connected) })
        guard Self.stopped(replicas[0].server) else { return }
        #expect(try await eventually(timeout: .seconds(5)) { !client.pin.replicas[0].connected })
        let started = ContinuousClock.now
        for _ in 0..<10 { #expect(try await ask(client) == "v1") }
        #expect(ContinuousClock.now - started < .seconds(2), "no request waited for the stopped replica")
    }

    @Test func aLoneReplicaThatRestartsUnderARequestCostsNoRequest() async throws {
        let url = UniqueURL.ipc("lone")
        let first = try NNGReplyServer(listeningOn: url, contexts: 1) { _ in
            usleep(300_000)
            return bytes("version:v1")
        }
        let client = try VersionPinnedRequester(
            dialing: [url], defaultTimeout: .seconds(5), reconnect: (.milliseconds(20), .milliseconds(100)))
        defer { client.close() }
        #expect(try await eventually(timeout: .seconds(5)) { client.pin.replicas[0].connected })
        let asked = Task { try await ask(client) }
        try await Task.sleep(for: .milliseconds(100))
        first.stop()  // drops the reply it was working on
        let second = try Replica(url: url, version: "v1")
        defer { second.server.stop() }
        #expect(try await asked.value == "v1")
        #expect(second.answers == 1, "asked again of the restarted replica")
    }
}
