import RealtimeFollowing
import Testing
import TransitModel

/// The per-topic handshake of protocol/README.md flow 4, without sockets.
@Suite struct TopicSequencerTests {
    private func message(_ seq: UInt64, epoch: UInt64 = 7) -> PubMessage {
        PubMessage(epoch: epoch, seq: seq, sentUnixMs: 0, payload: .tripUpdates(LiveTripBatch()))
    }

    @Test func lateJoinBuffersThenReplaysWhatFollowsTheSnapshot() {
        var s = TopicSequencer()
        // Subscribed first: everything is buffered until the snapshot.
        for seq in [3, 4, 5, 6] as [UInt64] {
            let decision = s.offer(message(seq))
            #expect(decision == .buffered)
        }
        // The snapshot holds 1 … 4: 5 and 6 are applied on top, in order.
        let (apply, gap) = s.snapshotApplied(epoch: 7, seq: 4)
        #expect(apply.map(\.seq) == [5, 6])
        #expect(!gap)
        #expect(s.synced && s.appliedSeq == 6)
        let r1 = s.offer(message(7))
        #expect(r1 == .apply)
        let r2 = s.offer(message(7))
        #expect(r2 == .ignore)  // duplicate
        let r3 = s.offer(message(2))
        #expect(r3 == .ignore)  // old
        #expect(s.appliedSeq == 7)
    }

    @Test func aSequenceJumpNeedsASnapshotAndIsBufferedMeanwhile() {
        var s = TopicSequencer()
        _ = s.snapshotApplied(epoch: 7, seq: 10)
        let r4 = s.offer(message(11))
        #expect(r4 == .apply)
        let r5 = s.offer(message(13))
        #expect(r5 == .needsSnapshot)  // 12 lost
        #expect(!s.synced)
        let r6 = s.offer(message(14))
        #expect(r6 == .buffered)
        // A snapshot at 12 replays the buffered 13 and 14.
        let (apply, gap) = s.snapshotApplied(epoch: 7, seq: 12)
        #expect(apply.map(\.seq) == [13, 14] && !gap)
        #expect(s.synced && s.appliedSeq == 14)
    }

    @Test func aHoleInTheBufferAfterTheSnapshotIsAGapAgain() {
        var s = TopicSequencer()
        for seq in [5, 6, 8, 9] as [UInt64] { _ = s.offer(message(seq)) }
        let (apply, gap) = s.snapshotApplied(epoch: 7, seq: 4)
        #expect(apply.map(\.seq) == [5, 6])
        #expect(gap && !s.synced)
        #expect(s.buffer.map(\.seq) == [8, 9])
        // The next snapshot covers the hole: 9 follows.
        let (more, again) = s.snapshotApplied(epoch: 7, seq: 8)
        #expect(more.map(\.seq) == [9] && !again)
    }

    @Test func anotherEpochNeedsASnapshotAndOldEpochMessagesAreDropped() {
        var s = TopicSequencer()
        _ = s.snapshotApplied(epoch: 7, seq: 50)
        let r7 = s.offer(message(1, epoch: 8))
        #expect(r7 == .needsSnapshot)  // the publisher restarted
        _ = s.offer(message(51, epoch: 7))  // a straggler of the old process
        _ = s.offer(message(2, epoch: 8))
        let (apply, gap) = s.snapshotApplied(epoch: 8, seq: 1)
        #expect(apply.map(\.seq) == [2] && apply.allSatisfy { $0.epoch == 8 } && !gap)
        #expect(s.epoch == 8 && s.appliedSeq == 2)
    }

    @Test func aHeartbeatAheadOfTheAppliedSequenceShowsALostTail() {
        var s = TopicSequencer()
        _ = s.snapshotApplied(epoch: 7, seq: 3)
        let r8 = s.heartbeat(epoch: 7, seq: 3)
        #expect(!r8)
        #expect(s.synced)
        let r9 = s.heartbeat(epoch: 7, seq: 4)
        #expect(r9)  // message 4 never came
        #expect(!s.synced)
        // Unsynced, further heartbeats change nothing.
        let r10 = s.heartbeat(epoch: 7, seq: 5)
        #expect(!r10)

        var other = TopicSequencer()
        _ = other.snapshotApplied(epoch: 7, seq: 3)
        let r11 = other.heartbeat(epoch: 9, seq: 0)
        #expect(r11)  // another epoch
    }

    @Test func theBufferIsBounded() {
        var s = TopicSequencer(maxBuffered: 3)
        for seq in 1...5 as ClosedRange<UInt64> { _ = s.offer(message(seq)) }
        #expect(s.buffer.map(\.seq) == [3, 4, 5])
        // A snapshot older than the oldest kept message is a gap.
        let (apply, gap) = s.snapshotApplied(epoch: 7, seq: 1)
        #expect(apply.isEmpty && gap)
    }
}
