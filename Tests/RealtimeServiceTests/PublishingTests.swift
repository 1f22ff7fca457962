// The PUB stream: per-topic sequence numbers, one batch per feed update, heartbeats with every topic's
// sequence, and the late-join/gap snapshot handshake (protocol/README.md §4).
import GTFSRealtime
import Testing
import TransitModel

@testable import RealtimeService

@Suite struct PublishingTests {
    typealias F = StateFixture

    @Test func oneMessagePerTopicPerFeedUpdateWithItsOwnSequence() async throws {
        let h = try EngineHarness()
        await h.feed(
            F.feed([
                F.entity("a", F.tripUpdate("T1")), F.entity("b", F.tripUpdate("T2")), F.vehicle("v", trip: "T1"),
                F.alert("x"),
            ]))
        h.clock.advance(30)
        await h.feed(F.feed([F.entity("a", F.tripUpdate("T1", delay: 90)), F.vehicle("v", trip: "T1"), F.alert("x")]))
        h.clock.advance(30)
        // Same body? No: new timestamp.
        await h.feed(F.feed([F.entity("a", F.tripUpdate("T1", delay: 90)), F.vehicle("v", trip: "T1"), F.alert("x")]))

        let tu = h.sink.messages(.tripUpdates)
        #expect(tu.map(\.seq) == [1, 2])  // the third update changed no trip: nothing sent on tu
        #expect(h.sink.messages(.vehicles).map(\.seq) == [1])
        #expect(h.sink.messages(.alerts).map(\.seq) == [1])
        #expect(h.sink.messages(.sources).map(\.seq) == [1, 2, 3])  // every update changes the status
        #expect(h.sink.messages.allSatisfy { $0.epoch == 77 })
        guard case .tripUpdates(let second) = tu[1].payload else { Issue.record("not a tu batch"); return }
        #expect(second.trips.map(\.instance.tripId) == ["T1"])
        #expect(second.removed.map(\.tripId) == ["T2"])
        // Within a feed update, tu/vp/al come before st.
        let topics = h.sink.messages.prefix(4).map(\.topic)
        #expect(topics == [.tripUpdates, .vehicles, .alerts, .sources])
    }

    @Test func messagesThePubSocketRefusedAreCountedAndReportedInTheSourcesAnswer() throws {
        struct ClosedSocket: FrameSink {
            struct Closed: Error {}
            func send(_ frame: [UInt8]) throws { throw Closed() }
        }
        let hub = RealtimeHub(sink: ClosedSocket(), epoch: 1)
        guard case .success(.sources(_, let before, let resident)) = hub.answer(.sources) else {
            Issue.record("no sources answer"); return
        }
        #expect(before == 0)
        #expect((resident ?? 0) > 1 << 20)  // the service's resident size rides along
        hub.heartbeat()
        hub.heartbeat()
        guard case .success(.sources(_, let after, _)) = hub.answer(.sources) else {
            Issue.record("no sources answer"); return
        }
        #expect(after == 2)
        #expect(hub.failedSends == 2)
    }

    @Test func heartbeatCarriesEveryTopicsSequenceAndTheSources() async throws {
        let h = try EngineHarness()
        h.hub.heartbeat()
        await h.feed(F.feed([F.entity("a", F.tripUpdate("T1"))]))
        h.hub.heartbeat()
        let beats = h.sink.messages(.heartbeat)
        #expect(beats.map(\.seq) == [1, 2])
        guard case .heartbeat(let first) = beats[0].payload, case .heartbeat(let second) = beats[1].payload else {
            Issue.record("not heartbeats"); return
        }
        #expect(first.sequences == [.tripUpdates: 0, .vehicles: 0, .alerts: 0, .sources: 0, .detours: 0])
        #expect(second.sequences == [.tripUpdates: 1, .vehicles: 0, .alerts: 0, .sources: 1, .detours: 0])
        #expect(second.sources.map(\.name) == ["tu"])
        #expect(second.sources.first?.updatesApplied == 1)
    }

    @Test func lateSubscriberGetsSnapshotThenContinuesWithoutGap() async throws {
        let h = try EngineHarness()
        // Messages 1…2 of tu happen before the subscriber exists.
        await h.feed(F.feed([F.entity("a", F.tripUpdate("T1")), F.entity("b", F.tripUpdate("T2"))]))
        h.clock.advance(30)
        await h.feed(
            F.feed([F.entity("a", F.tripUpdate("T1", delay: 10)), F.entity("b", F.tripUpdate("T2", delay: 20))]))
        let before = h.sink.messages.count

        // It subscribes (everything from now on is buffered), then one more update, then its snapshot request.
        h.clock.advance(30)
        await h.feed(F.feed([F.entity("a", F.tripUpdate("T1", delay: 30)), F.entity("c", F.tripUpdate("T3"))]))
        let snapshot = try #require(h.hub.snapshot(.tripUpdates))
        #expect(snapshot.seq == 3)
        h.clock.advance(30)
        await h.feed(F.feed([F.entity("c", F.tripUpdate("T3", delay: 5)), F.entity("d", F.tripUpdate("T4"))]))
        let buffered = Array(h.sink.messages.dropFirst(before))

        var replica = SubscriberReplica()
        replica.apply(snapshot: snapshot)
        for message in buffered where message.topic == .tripUpdates {
            let accepted = replica.receive(message)  // seq 3 is skipped (in the snapshot), 4 applies
            #expect(accepted)
        }
        #expect(replica.gaps == 0)
        #expect(replica.applied[.tripUpdates] == 4)
        let final = try #require(h.hub.snapshot(.tripUpdates))
        #expect(replica.trips == Dictionary(uniqueKeysWithValues: snapshotTrips(final).map { ($0.instance, $0) }))
        #expect(Set(replica.trips.keys.map(\.tripId)) == ["T3", "T4"])
    }

    @Test func gapIsDetectedAndRecoveredBySnapshot() async throws {
        let h = try EngineHarness()
        var replica = SubscriberReplica()
        replica.apply(snapshot: try #require(h.hub.snapshot(.tripUpdates)))
        await h.feed(F.feed([F.entity("a", F.tripUpdate("T1"))]))
        h.clock.advance(30)
        await h.feed(F.feed([F.entity("a", F.tripUpdate("T1", delay: 5))]))
        h.clock.advance(30)
        await h.feed(F.feed([F.entity("b", F.tripUpdate("T2"))]))
        let tu = h.sink.messages(.tripUpdates)
        #expect(tu.map(\.seq) == [1, 2, 3])
        let first = replica.receive(tu[0])
        let third = replica.receive(tu[2])  // message 2 was lost: a gap
        #expect(first)
        #expect(!third)
        #expect(replica.gaps == 1)
        replica.apply(snapshot: try #require(h.hub.snapshot(.tripUpdates)))
        #expect(replica.applied[.tripUpdates] == 3)
        #expect(Set(replica.trips.keys.map(\.tripId)) == ["T2"])
    }

    @Test func heartbeatRevealsALostTail() async throws {
        let h = try EngineHarness()
        var replica = SubscriberReplica()
        replica.apply(snapshot: try #require(h.hub.snapshot(.tripUpdates)))
        await h.feed(F.feed([F.entity("a", F.tripUpdate("T1"))]))  // tu 1: lost
        h.hub.heartbeat()
        let beat = try #require(h.sink.messages(.heartbeat).last)
        let accepted = replica.receive(beat)
        #expect(!accepted)
    }

    @Test func snapshotOfEveryStatefulTopic() async throws {
        let h = try EngineHarness()
        await h.feed(
            F.feed(
                [F.entity("a", F.tripUpdate("T1")), F.vehicle("v", trip: "T1"), F.alert("x")]
                    + DetourStateTests.detourEntities()))
        for topic in RealtimeTopic.stateful {
            let snapshot = try #require(h.hub.snapshot(topic))
            #expect(snapshot.topic == topic)
            #expect(snapshot.seq == 1)
            #expect(snapshot.epoch == 77)
        }
        #expect(h.hub.snapshot(.heartbeat) == nil)
        guard case .failure(let error) = h.hub.answer(.snapshot(.heartbeat)) else {
            Issue.record("hb snapshot answered"); return
        }
        #expect(error.status == .invalidArgument)
    }
}
