import Foundation
import Synchronization
import Testing
import TransitTesting

@testable import NNGKit

@Suite struct PubSubTests {
    /// PUB drops what is sent before the subscriber is connected: publish `probe` until one arrives.
    private func waitUntilConnected(_ pub: NNGPublisher, _ sub: NNGSubscriber, probe: [UInt8]) throws {
        for _ in 0..<200 {
            try pub.publish(probe)
            if (try? sub.receive(timeout: .milliseconds(20))) != nil { return }
        }
        Issue.record("subscriber never connected")
    }

    /// Receives until `expected` arrives, returning everything received before it.
    private func receive(until expected: [UInt8], from sub: NNGSubscriber) throws -> [[UInt8]] {
        var before: [[UInt8]] = []
        while true {
            let message = try sub.receive(timeout: .seconds(2))
            if message == expected { return before }
            before.append(message)
        }
    }

    @Test func subscriberGetsOnlyItsPrefix() throws {
        let url = UniqueURL.inproc("nngkit")
        let pub = try NNGPublisher(listeningOn: url)
        let sub = try NNGSubscriber(dialing: url, topics: [bytes("tu.")])
        try waitUntilConnected(pub, sub, probe: bytes("tu.probe"))

        try pub.publish(bytes("vp.x"))
        try pub.publish(topic: bytes("tu."), payload: bytes("x"))
        let before = try receive(until: bytes("tu.x"), from: sub)
        #expect(before.allSatisfy { text($0) == "tu.probe" }, "got \(before.map(text))")
        // And nothing else is pending: "vp.x" was filtered, not merely late.
        let extra = #expect(throws: NNGError.self) { try sub.receive(timeout: .milliseconds(100)) }
        #expect(extra?.isTimedOut == true)
    }

    @Test func stringSubscriptionMatchesWithoutTrailingNul() throws {
        let url = UniqueURL.inproc("nngkit")
        let pub = try NNGPublisher(listeningOn: url)
        let sub = try NNGSubscriber(dialing: url)
        try sub.subscribe("al.")
        try waitUntilConnected(pub, sub, probe: bytes("al.probe"))
        try pub.publish(bytes("al.1"))
        _ = try receive(until: bytes("al.1"), from: sub)

        try sub.unsubscribe("al.")
        try sub.subscribe("st.")
        try pub.publish(bytes("al.2"))
        try pub.publish(bytes("st.1"))
        let before = try receive(until: bytes("st.1"), from: sub)
        #expect(!before.contains(bytes("al.2")))
    }

    @Test func snapshotLargerThanOneMiBNeedsRaisedLimit() throws {
        let url = UniqueURL.ipc("nngkit")
        let pub = try NNGPublisher(listeningOn: url)
        let raised = try NNGSubscriber(dialing: url, topics: [bytes("snap.")])  // default: 64 MiB
        let limited = try NNGSubscriber(dialing: url, topics: [bytes("snap.")], maxReceiveSize: 1 << 20)
        try waitUntilConnected(pub, raised, probe: bytes("snap.probe"))
        try waitUntilConnected(pub, limited, probe: bytes("snap.probe"))

        let snapshot = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try pub.publish(topic: bytes("snap."), payload: snapshot)
        let got = try receive(until: bytes("snap.") + snapshot, from: raised)
        #expect(got.allSatisfy { $0 == bytes("snap.probe") })

        // The 1 MiB subscriber silently loses it: after draining probes, the receive times out.
        var lastError: NNGError?
        for _ in 0..<100 {
            do {
                let message = try limited.receive(timeout: .milliseconds(200))
                #expect(message == bytes("snap.probe"))
            } catch {
                lastError = error
                break
            }
        }
        #expect(lastError?.isTimedOut == true)
    }

    @Test func asyncReceiveDeliversAndTimesOut() async throws {
        let url = UniqueURL.inproc("nngkit")
        let pub = try NNGPublisher(listeningOn: url)
        let sub = try NNGSubscriber(dialing: url, topics: [bytes("vp.")])
        let error = await #expect(throws: NNGError.self) { try await sub.receive(timeout: .milliseconds(50)) }
        #expect(error?.isTimedOut == true)

        let publishing = Task {
            while !Task.isCancelled {
                try pub.publish(bytes("vp.tick"))
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        defer { publishing.cancel() }
        #expect(try await sub.receive(timeout: .seconds(5)) == bytes("vp.tick"))
    }

    @Test func closedSubscriberFailsWithClosedError() throws {
        let sub = try NNGSubscriber(dialing: UniqueURL.inproc("nngkit"), topics: [[]])
        sub.close()
        let error = #expect(throws: NNGError.self) { try sub.receive(timeout: .seconds(5)) }
        #expect(error?.isClosed == true)
    }

    /// nng 1.5.2's expire thread calls the SUB protocol's cancel function (which locks the socket's mutex)
    /// after letting go of its own lock; a socket closed in that moment used to abort the whole process with
    /// "pthread_mutex_lock: Invalid argument" in thread nng:aio:expire (see OperationGate). Many receives
    /// timing out every millisecond while the socket closes hit that window within a few hundred rounds.
    @Test func closingUnderTimedOutReceivesDoesNotCrash() throws {
        for _ in 0..<400 {
            let sub = try NNGSubscriber(dialing: UniqueURL.inproc("nngkit"), topics: [[]])
            let receivers = DispatchGroup()
            let endings = Mutex<[Bool]>([])
            for _ in 0..<4 {
                DispatchQueue.global().async(group: receivers) {
                    while true {
                        do {
                            _ = try sub.receive(timeout: .milliseconds(1))
                        } catch let error as NNGError where error.isTimedOut {
                            continue
                        } catch {
                            endings.withLock { $0.append((error as? NNGError)?.isClosed == true) }
                            return
                        }
                    }
                }
            }
            usleep(UInt32.random(in: 0..<2_000))
            #expect(sub.close())
            #expect(receivers.wait(timeout: .now() + 5) == .success)
            #expect(endings.withLock { $0 } == [true, true, true, true])
        }
    }
}
