import Testing

@testable import RealtimeService

/// The election's timing as a state machine: instants are made from one origin, no clock is read.
struct LeaderElectionTests {
    let t0 = ContinuousClock.now
    func at(_ seconds: Double) -> ContinuousClock.Instant { t0 + .seconds(seconds) }

    func elected(ttl: Duration = .seconds(6)) -> LeaderElection {
        var election = LeaderElection(timing: .init(ttl: ttl))
        #expect(election.next(now: at(0)) == .campaign)
        election.attempted(at: at(0))
        election.won(lease: 7, epoch: 42, grantSentAt: at(0))
        return election
    }

    @Test func aCandidateCampaignsAtOnceThenEveryThirdOfTheTTL() {
        var election = LeaderElection(timing: .init(ttl: .seconds(6)))
        #expect(election.next(now: at(0)) == .campaign)
        election.attempted(at: at(0))
        #expect(election.next(now: at(1)) == .wait(until: at(2)))
        #expect(election.next(now: at(2)) == .campaign)
        #expect(election.role == .candidate)
        #expect(!election.mayLead(now: at(2)), "nobody leads without having created the key")
        #expect(election.leaseRemaining(now: at(2)) == nil)
    }

    @Test func aLeaderRenewsEveryThirdOfTheTTLAndKeepsLeadingWhileRenewalsComeBack() {
        var election = elected()
        #expect(election.role == .leader(lease: 7, epoch: 42))
        #expect(election.next(now: at(1)) == .wait(until: at(2)))
        #expect(election.next(now: at(2)) == .renew(lease: 7))
        for step in 1...10 {
            let sent = at(Double(step) * 2)
            election.attempted(at: sent)
            let renewed = election.renewed(sentAt: sent, ttlLeft: 6)
            #expect(renewed)
            #expect(election.mayLead(now: sent + .seconds(3.9)))
        }
        #expect(election.leaseRemaining(now: at(21)) == .seconds(5))
    }

    @Test func aLeaderWithoutRenewalStepsDownAtTwoThirdsOfTheTTLBeforeTheLeaseEnds() {
        var election = elected()
        // Every renewal fails (etcd unreachable): retries come every TTL/12.
        election.attempted(at: at(2))
        election.renewalFailed(at: at(2))
        #expect(election.next(now: at(2.25)) == .wait(until: at(2.5)))
        #expect(election.next(now: at(2.5)) == .renew(lease: 7))
        #expect(election.mayLead(now: at(3.99)))
        // 2·TTL/3 after the last renewal (the grant at 0): stop, whatever else is due.
        #expect(election.next(now: at(4)) == .stepDown(lease: 7))
        #expect(!election.mayLead(now: at(4)), "the publishers' own check closes at the same instant")
        election.steppedDown()
        #expect(election.role == .candidate)
        #expect(election.next(now: at(4)) == .campaign)
    }

    @Test func anInstanceWhoseServiceCouldNotStartCampaignsAgainOnlyATTLLater() {
        // Elected at 0, its service fails to start (its port taken) and it steps down at 1 s: campaigning at
        // once would win the key back as soon as its revocation freed it, keeping a healthy standby out.
        var election = elected()
        election.startFailed(at: at(1))
        #expect(election.role == .candidate)
        #expect(!election.mayLead(now: at(1)))
        #expect(election.next(now: at(1)) == .wait(until: at(7)))
        #expect(election.next(now: at(6.5)) == .wait(until: at(7)))
        #expect(election.next(now: at(7)) == .campaign)
        election.attempted(at: at(7))
        #expect(election.next(now: at(8)) == .wait(until: at(9)), "then every TTL/3 as any candidate")
        // Won again and stepped down normally later: at once, no hold-off left over.
        election.won(lease: 8, epoch: 50, grantSentAt: at(9))
        #expect(election.next(now: at(13)) == .stepDown(lease: 8))
        election.steppedDown()
        #expect(election.next(now: at(13)) == .campaign)
    }

    @Test func aRetrySentLateIsGivenUpAtTheStepDownInstantOfTheLastRenewal() {
        // The grant at 0 (TTL 6 s), renewals failing from 2 s: a retry sent at 3.5 s waits for etcd at most
        // until 4 s, not 3.5 + 4 s (scripts/faults-ha saw a leader step down 8.8 s after etcd's quorum was lost).
        var election = elected()
        #expect(election.stepDownDue == at(4))
        election.attempted(at: at(2))
        election.renewalFailed(at: at(2))
        election.attempted(at: at(3.5))
        #expect(election.stepDownDue == at(4))
        let renewed = election.renewed(sentAt: at(3.5), ttlLeft: 6)
        #expect(renewed)
        #expect(election.stepDownDue == at(7.5), "a renewal accepted moves it")
        election.steppedDown()
        #expect(election.stepDownDue == nil)
    }

    @Test func aProcessWokenLongAfterItsLastRenewalMayNotPublish() {
        // SIGSTOP after a renewal at 2 s, SIGCONT at 30 s: before the driver runs, the hub asks.
        var election = elected()
        election.attempted(at: at(2))
        let renewed = election.renewed(sentAt: at(2), ttlLeft: 6)
        #expect(renewed)
        #expect(!election.mayLead(now: at(30)))
        #expect(election.next(now: at(30)) == .stepDown(lease: 7))
        #expect(election.leaseRemaining(now: at(30)) == .zero)
    }

    @Test func aRenewalSayingTheLeaseIsGoneEndsTheLeadership() {
        var election = elected()
        election.attempted(at: at(2))
        let renewed = election.renewed(sentAt: at(2), ttlLeft: 0)
        #expect(!renewed)
    }

    @Test func aRenewalCountsFromItsSendTimeAndALateAnswerToAnOlderOneChangesNothing() {
        var election = elected()
        election.attempted(at: at(2))
        let renewed = election.renewed(sentAt: at(2), ttlLeft: 6)
        // The answer to the request sent at 1.5 s arrives after the one sent at 2 s.
        let late = election.renewed(sentAt: at(1.5), ttlLeft: 6)
        #expect(renewed && late)
        #expect(election.next(now: at(5.9)) != .stepDown(lease: 7))
        #expect(election.next(now: at(6)) == .stepDown(lease: 7))
    }
}
