// The hub builds each update's state beside the published one and swaps it in: queries and snapshots never
// wait for a publisher, and see the whole state before or after an update, never a mix.
import Foundation
import Synchronization
import Testing
import TransitModel

@testable import RealtimeService

@Suite struct HubSwapTests {
    /// A PUB socket that can hold one send until released (or until `limitSeconds` pass, so a hub that waits for
    /// its sends makes the test fail instead of hang).
    final class GateSink: FrameSink {
        private let holding = Mutex(false)
        let entered = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        let limitSeconds: Double

        init(limitSeconds: Double = 5) { self.limitSeconds = limitSeconds }

        /// The next send waits in the sink.
        func holdNext() { holding.withLock { $0 = true } }

        func send(_ frame: [UInt8]) throws {
            guard
                holding.withLock({ h in
                    defer { h = false }; return h
                })
            else { return }
            entered.signal()
            _ = released.wait(timeout: .now() + limitSeconds)
        }
    }

    /// `count` trips, each carrying `version` as its delay.
    static func trips(_ count: Int, version: Int32) -> LiveChanges {
        var changes = LiveChanges()
        changes.trips = (0..<count).map { i in
            LiveTrip(
                instance: TripInstanceKey(tripId: "T\(i)", serviceDate: 20_250_101), relationship: .scheduled,
                tripDelay: version, stops: [LiveStop(stopId: "S\(i % 7)", stopSequence: 1, status: .noData)],
                source: "s")
        }
        return changes
    }

    @Test func queriesAndSnapshotsAnswerWhileAPublisherIsSending() throws {
        let sink = GateSink()
        let hub = RealtimeHub(sink: sink, epoch: 1)
        hub.publish(Self.trips(50, version: 1), sources: nil)
        sink.holdNext()
        let published = DispatchSemaphore(value: 0)
        Thread {
            hub.publish(Self.trips(50, version: 2), sources: nil)
            published.signal()
        }.start()
        #expect(sink.entered.wait(timeout: .now() + 10) == .success)

        // The publisher sits in its send: the state is already swapped in, and nothing waits for the send.
        let start = ContinuousClock.now
        let answer = hub.answer(.trip(LiveTripQuery(tripId: "T3")))
        let snapshot = hub.snapshot(.tripUpdates)
        let waited = ContinuousClock.now - start
        sink.released.signal()
        #expect(published.wait(timeout: .now() + 10) == .success)

        #expect(waited < .seconds(2))
        guard case .success(.trips(let found)) = answer else {
            Issue.record("no trips answer: \(answer)")
            return
        }
        #expect(found.map(\.tripDelay) == [2])
        #expect(snapshot?.seq == 2)
        guard case .tripUpdates(let batch) = snapshot?.payload else {
            Issue.record("no tu snapshot")
            return
        }
        #expect(batch.trips.count == 50 && batch.trips.allSatisfy { $0.tripDelay == 2 })
    }

    @Test func aSnapshotTakenDuringUpdatesIsTheWholeStateAfterItsSequenceNumber() throws {
        let hub = RealtimeHub(sink: GateSink(), epoch: 1)
        let updates = 150
        let done = Atomic<Bool>(false)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            for version in 1...updates { hub.publish(Self.trips(400, version: Int32(version)), sources: nil) }
            done.store(true, ordering: .releasing)
            finished.signal()
        }.start()
        var seen = 0
        var mixed: [String] = []
        while !done.load(ordering: .acquiring) || seen == 0 {
            guard let snapshot = hub.snapshot(.tripUpdates), case .tripUpdates(let batch) = snapshot.payload else {
                Issue.record("no tu snapshot")
                break
            }
            seen += 1
            // Message n of tu is update n: the state after it holds every trip at version n.
            let versions = Set(batch.trips.map { $0.tripDelay ?? -1 })
            if snapshot.seq == 0 {
                if !batch.trips.isEmpty { mixed.append("seq 0 with \(batch.trips.count) trips") }
            } else if versions != [Int32(snapshot.seq)] || batch.trips.count != 400 {
                mixed.append("seq \(snapshot.seq): versions \(versions.sorted()), \(batch.trips.count) trips")
            }
        }
        #expect(finished.wait(timeout: .now() + 60) == .success)
        #expect(mixed.isEmpty, "\(mixed.prefix(5))")
        #expect(hub.sequence(.tripUpdates) == UInt64(updates))
    }
}
