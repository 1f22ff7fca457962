import Foundation
import Testing
import TransitTesting

@testable import NNGKit

@Suite struct ReqRepTests {
    @Test func roundTripDerivesReplyFromRequest() throws {
        let url = UniqueURL.inproc("nngkit")
        let server = try NNGReplyServer(listeningOn: url, contexts: 2) { request in
            var reply = bytes("re:")
            for i in 0..<request.count { reply.append(request[i]) }
            return reply
        }
        defer { server.stop() }
        let client = try NNGRequester(dialing: url)
        #expect(try client.request(bytes("hello")) == bytes("re:hello"))
        #expect(try client.request([]) == bytes("re:"))
    }

    @Test func sixteenConcurrentAsyncRequestsAreEachAnsweredCorrectly() async throws {
        let url = UniqueURL.ipc("nngkit")
        let gauge = ConcurrencyGauge()
        let server = try NNGReplyServer(listeningOn: url, contexts: 4) { request in
            gauge.enter()
            defer { gauge.leave() }
            usleep(30_000)  // keep several requests in flight at once
            var number: [UInt8] = []
            for i in 0..<request.count { number.append(request[i]) }
            return bytes("answer-") + number.reversed()
        }
        defer { server.stop() }
        let client = try NNGRequester(dialing: url, defaultTimeout: .seconds(10))

        let replies = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for i in 0..<16 {
                group.addTask { (i, try await client.request(bytes("\(i)-req"))) }
            }
            var all: [Int: [UInt8]] = [:]
            for try await (i, reply) in group { all[i] = reply }
            return all
        }
        #expect(replies.count == 16)
        for i in 0..<16 {
            #expect(replies[i] == bytes("answer-") + bytes("\(i)-req").reversed())
        }
        let (peak, total) = gauge.snapshot
        #expect(total == 16)
        #expect(peak > 1, "contexts should serve requests concurrently")
        #expect(peak <= 4)
    }

    @Test func concurrentBlockingRequestsFromManyThreads() throws {
        let url = UniqueURL.inproc("nngkit")
        let server = try NNGReplyServer(listeningOn: url, contexts: 3) { request in
            var reply: [UInt8] = []
            for i in 0..<request.count { reply.append(request[i] &+ 1) }
            return reply
        }
        defer { server.stop() }
        let client = try NNGRequester(dialing: url)
        let failures = ConcurrencyGauge()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for n in 0..<20 {
                let request: [UInt8] = [UInt8(thread), UInt8(n), 7]
                let reply = try? client.request(request)
                if reply != [UInt8(thread) + 1, UInt8(n) + 1, 8] { failures.enter() }
            }
        }
        #expect(failures.snapshot.total == 0)
    }

    @Test func requestTimesOutWhenServerNeverAnswers() async throws {
        let url = UniqueURL.ipc("nngkit")
        let silent = try NNGSocket.rep()  // accepts requests, never replies
        try silent.listen(url)
        defer { silent.close() }
        let client = try NNGRequester(dialing: url)

        var start = ContinuousClock.now
        let syncError = #expect(throws: NNGError.self) { try client.request(bytes("x"), timeout: .milliseconds(200)) }
        #expect(syncError?.isTimedOut == true)
        #expect(syncError?.operation == "request to \(url) (awaiting reply)")
        #expect(elapsed(since: start) >= .milliseconds(150))
        #expect(elapsed(since: start) < .seconds(5))  // generous: only "no hang" matters

        start = ContinuousClock.now
        let asyncError = await #expect(throws: NNGError.self) {
            try await client.request(bytes("x"), timeout: .milliseconds(200))
        }
        #expect(asyncError?.isTimedOut == true)
        #expect(asyncError?.operation.hasSuffix("(awaiting reply)") == true)
        #expect(elapsed(since: start) < .seconds(5))  // generous: only "no hang" matters
    }

    @Test func requestWithoutServerFailsInsteadOfHanging() async throws {
        let client = try NNGRequester(dialing: UniqueURL.ipc("nngkit"), defaultTimeout: .milliseconds(150))
        let start = ContinuousClock.now
        let syncError = #expect(throws: NNGError.self) { try client.request(bytes("anyone?")) }
        #expect(syncError?.isTimedOut == true)
        #expect(syncError?.operation.hasSuffix("(sending)") == true)
        let asyncError = await #expect(throws: NNGError.self) { try await client.request(bytes("anyone?")) }
        #expect(asyncError?.isTimedOut == true)
        #expect(
            asyncError?.description.contains("(sending) failed: Timed out") == true, "\(String(describing: asyncError))"
        )
        #expect(elapsed(since: start) < .seconds(6))  // generous: only "no hang" matters
    }

    @Test func clientDialingBeforeServerListensSucceedsOnceItComesUp() async throws {
        let url = UniqueURL.ipc("nngkit")
        let client = try NNGRequester(dialing: url)
        try client.socket.setReconnectInterval(min: .milliseconds(20))
        try await Task.sleep(for: .milliseconds(100))
        let server = try NNGReplyServer(listeningOn: url, contexts: 1) { _ in bytes("up") }
        defer { server.stop() }
        #expect(try await client.request(bytes("?"), timeout: .seconds(5)) == bytes("up"))
    }

    @Test func clientReconnectsWhenServerComesBack() async throws {
        let url = UniqueURL.ipc("nngkit")
        let client = try NNGRequester(dialing: url)
        try client.socket.setReconnectInterval(min: .milliseconds(20))
        let first = try NNGReplyServer(listeningOn: url, contexts: 1) { _ in bytes("first") }
        #expect(try await client.request([], timeout: .seconds(5)) == bytes("first"))
        first.stop()
        let second = try NNGReplyServer(listeningOn: url, contexts: 1) { _ in bytes("second") }
        defer { second.stop() }
        #expect(try await client.request([], timeout: .seconds(5)) == bytes("second"))
    }

    @Test func requestsInFlightSurviveServerRestarts() async throws {
        let url = UniqueURL.ipc("nngkit")
        let client = try NNGRequester(dialing: url)
        try client.socket.setReconnectInterval(min: .milliseconds(10))
        // Requests pending while servers come and go without answering, then one that answers.
        let pending = (0..<4).map { i in Task { try await client.request([UInt8(i)], timeout: .seconds(5)) } }
        for _ in 0..<3 {
            let silent = try NNGSocket.rep()
            try silent.listen(url)
            try await Task.sleep(for: .milliseconds(20))
            silent.close()
        }
        let server = try NNGReplyServer(listeningOn: url, contexts: 2) { request in
            var reply: [UInt8] = [42]
            for i in 0..<request.count { reply.append(request[i]) }
            return reply
        }
        defer { server.stop() }
        // nng resends a request whose connection was lost, so each still gets its own answer.
        for (i, task) in pending.enumerated() {
            #expect(try await task.value == [42, UInt8(i)])
        }
        #expect(try await client.request([7], timeout: .seconds(5)) == [42, 7])
    }

    @Test func closingRequesterFailsRequestsInFlightAndLaterOnes() async throws {
        let url = UniqueURL.inproc("nngkit")
        let silent = try NNGSocket.rep()
        try silent.listen(url)
        defer { silent.close() }
        let client = try NNGRequester(dialing: url)
        let inFlight = (0..<3).map { _ in
            Task { () -> NNGError? in
                do { _ = try await client.request([1], timeout: .seconds(30)); return nil } catch {
                    return error as? NNGError
                }
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        let start = ContinuousClock.now
        #expect(client.close())
        for task in inFlight { #expect(await task.value?.isClosed == true) }
        #expect(elapsed(since: start) < .seconds(5))  // generous: only "no hang" matters
        let later = #expect(throws: NNGError.self) { try client.request([2]) }
        #expect(later?.isClosed == true)
    }

    @Test func cancellingAnAsyncRequestEndsItPromptly() async throws {
        let url = UniqueURL.inproc("nngkit")
        let silent = try NNGSocket.rep()
        try silent.listen(url)
        defer { silent.close() }
        let client = try NNGRequester(dialing: url)
        let start = ContinuousClock.now
        let task = Task { try await client.request(bytes("x"), timeout: .seconds(30)) }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(elapsed(since: start) < .seconds(5))
    }

    /// A REP server on ipc whose socket accepts at most `limit` bytes, echoing requests.
    private func echoServer(maxReceiveSize limit: Int) throws -> (NNGReplyServer, String) {
        let url = UniqueURL.ipc("nngkit")
        let socket = try NNGSocket.rep()
        try socket.setMaxReceiveSize(limit)
        try socket.listen(url)
        let server = try NNGReplyServer(socket: socket, contexts: 1) { request in
            var echo = [UInt8]()
            echo.reserveCapacity(request.count)
            for i in 0..<request.count { echo.append(request[i]) }
            return echo
        }
        return (server, url)
    }

    @Test func requestAboveReceiveLimitIsDroppedAndPassesOnceRaised() throws {
        let big = (0..<((2 << 20) + 3)).map { UInt8(truncatingIfNeeded: $0 &* 7) }

        // A 1 MiB limit (nng's documented default): the server never sees the request; the client times out.
        let (limited, limitedURL) = try echoServer(maxReceiveSize: 1 << 20)
        defer { limited.stop() }
        let client1 = try NNGRequester(dialing: limitedURL)
        #expect(try client1.request(bytes("small"), timeout: .seconds(5)) == bytes("small"))
        let error = #expect(throws: NNGError.self) { try client1.request(big, timeout: .milliseconds(300)) }
        #expect(error?.isTimedOut == true)

        // Raised limit: it passes, and the equally big echo passes the requester's default reply limit.
        let (raised, raisedURL) = try echoServer(maxReceiveSize: 8 << 20)
        defer { raised.stop() }
        let client2 = try NNGRequester(dialing: raisedURL)
        #expect(try client2.request(big, timeout: .seconds(5)) == big)
    }

    @Test func replyAboveRequesterLimitIsDropped() throws {
        let url = UniqueURL.ipc("nngkit")
        let server = try NNGReplyServer(listeningOn: url, contexts: 1) { request in
            [UInt8](repeating: 1, count: request.count == 1 ? (1 << 20) + 1 : 10)
        }
        defer { server.stop() }
        let client = try NNGRequester(dialing: url, maxReplySize: 1 << 20)
        #expect(try client.request([1, 2], timeout: .seconds(5)).count == 10)
        let error = #expect(throws: NNGError.self) { try client.request([1], timeout: .milliseconds(300)) }
        #expect(error?.isTimedOut == true)
    }

    @Test func stopWithRequestsInFlightDoesNotCrash() async throws {
        let url = UniqueURL.inproc("nngkit")
        let started = ConcurrencyGauge()
        let server = try NNGReplyServer(listeningOn: url, contexts: 4) { request in
            started.enter()
            usleep(100_000)
            return Array(request.indices.map { request[$0] })
        }
        let client = try NNGRequester(dialing: url)
        enum Outcome: Equatable { case rightReply, wrongReply, timedOut, otherError }
        let outcomes = Task {
            await withTaskGroup(of: Outcome.self) { group in
                for i in 0..<8 {
                    group.addTask {
                        do {
                            let reply = try await client.request([UInt8(i)], timeout: .milliseconds(500))
                            return reply == [UInt8(i)] ? .rightReply : .wrongReply
                        } catch let error as NNGError where error.isTimedOut {
                            return .timedOut
                        } catch {
                            return .otherError
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        while started.snapshot.total == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let stopStart = ContinuousClock.now
        server.stop()
        #expect(elapsed(since: stopStart) < .seconds(5))
        let results = await outcomes.value
        #expect(results.count == 8)
        #expect(!results.contains(.wrongReply) && !results.contains(.otherError), "\(results)")
        // Requests inside a handler when stop() came get no reply (the socket is closed): they time out.
        #expect(results.contains(.timedOut))
        // And a stopped server answers nothing.
        let late = await #expect(throws: NNGError.self) { try await client.request([9], timeout: .milliseconds(100)) }
        #expect(late?.isTimedOut == true)
        server.stop()  // idempotent
    }
}
