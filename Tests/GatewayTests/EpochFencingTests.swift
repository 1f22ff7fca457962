import Testing
import TransitModel

@testable import Gateway

/// The gateway follows only the highest publisher epoch it has seen (protocol/README.md "Leader election").
struct EpochFencingTests {
    @Test func aLowerEpochIsDroppedAndCountedAndAHigherOneIsFollowed() {
        let view = RealtimeView(configured: true)
        #expect(view.epoch == nil)
        #expect(view.admit(epoch: 5))
        #expect(view.admit(epoch: 5), "the same epoch goes on")
        view.noteLeader(LiveLeadership(name: "rt0", leaseRemainingMs: 4000, etcd: []))
        #expect(!view.admit(epoch: 4), "a former leader's")
        #expect(!view.admit(epoch: 1))
        #expect(view.epoch == 5)
        #expect(view.lowerEpochDropped == 2)
        #expect(view.leader?.name == "rt0", "a dropped message changes nothing")
        #expect(view.admit(epoch: 9))
        #expect(view.epoch == 9)
        #expect(view.leader == nil, "the former leader's description is not the new one's")
        #expect(view.read().epoch == 9)
    }

    @Test func aLowerEpochIsFollowedAgainOnceTheHigherOneIsLongSilent() {
        let view = RealtimeView(configured: true, silenceLimit: .seconds(15))
        let t0 = ContinuousClock.now
        #expect(view.admit(epoch: 1_700_000_000_000, now: t0))
        #expect(!view.admit(epoch: 1_699_999_000_000, now: t0 + .seconds(29)))
        // 30 s (twice the silence limit) without the followed epoch: the restarted service is followed.
        #expect(view.admit(epoch: 1_699_999_000_000, now: t0 + .seconds(31)))
        #expect(view.epoch == 1_699_999_000_000)
        #expect(view.lowerEpochDropped == 1)
    }
}
