import EtcdClient
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import TransitModel

/// `transit-realtime serve --election etcd://…`: campaigns for the election key in etcd and, while it holds it,
/// runs the realtime service (binds, polls, publishes and answers) under the key's create revision as its epoch;
/// a candidate binds nothing. The timing is `LeaderElection`'s; this type does the I/O it asks for.
///
/// Stepping down (no renewal within 2·TTL/3, or the lease gone) stops the service: its pollers, timers and
/// sockets; meanwhile the hub's own check (`LeaderElection.mayLead`) keeps anything from being published past
/// the step-down instant. Then it campaigns again like any candidate.
public final class ElectionRole: Service, Sendable {
    public let election: RealtimeServiceConfiguration.Election
    private let configuration: RealtimeServiceConfiguration
    private let client: EtcdClient
    private let logger: Logger
    private let machine: Mutex<LeaderElection>
    private struct Leading {
        var lease: Int64
        var epoch: Int64
        var starting: Task<RealtimeServiceRunner?, Never>
    }
    private let leading = Mutex<Leading?>(nil)
    private let runner = Mutex<RealtimeServiceRunner?>(nil)
    private let startFailed = Atomic<Bool>(false)
    /// The election key's holder as last read (this instance while it leads).
    private let holder = Mutex<ElectionRecord?>(nil)
    /// etcd could not be reached at the last attempt (logged once per outage).
    private let etcdDown = Atomic<Bool>(false)
    /// While standing by with a `--delay-store`: the leader's stream, recorded (`LeaderFollower`).
    private let follower = Mutex<LeaderFollower?>(nil)

    /// Reads the TLS files of `configuration.election`, which must be set.
    public init(configuration: RealtimeServiceConfiguration, logger: Logger) throws(EtcdError) {
        guard let election = configuration.election else {
            preconditionFailure("ElectionRole needs configuration.election (serve --election)")
        }
        self.election = election
        self.configuration = configuration
        self.client = try EtcdClient(configuration: election.etcd)
        self.logger = logger
        self.machine = Mutex(LeaderElection(timing: .init(ttl: election.ttl)))
    }

    /// The running service while this instance leads; nil otherwise.
    public var current: RealtimeServiceRunner? { runner.withLock { $0 } }

    /// This instance's leadership for its heartbeats (`health` and `stats` at the gateways); nil while not leading.
    public var leadership: LiveLeadership? {
        guard let remaining = machine.withLock({ $0.leaseRemaining(now: .now) }) else { return nil }
        return LiveLeadership(
            name: election.name, leaseRemainingMs: Int64(remaining / .milliseconds(1)),
            etcd: client.endpointStates.map { .init(url: $0.url, reachable: $0.reachable, lastError: $0.lastError) })
    }

    /// The election key's holder as last read (this instance while it leads); nil: none known.
    public var leader: ElectionRecord? { holder.withLock { $0 } }

    public func run() async throws {
        logger.info(
            "campaigning for the realtime leadership",
            metadata: [
                "etcd": "\(election.etcd.endpoints.joined(separator: ","))", "key": "\(election.key)",
                "name": "\(election.name)", "ttl_s": "\(election.ttl.components.seconds)",
            ])
        await cancelWhenGracefulShutdown { await self.loop() }
        await stopFollowing()
        if let lease = leading.withLock({ $0?.lease }) {
            await stepDown(lease: lease, reason: "shutting down")
        }
        logger.info("stopped campaigning")
    }

    private func loop() async {
        while !Task.isCancelled {
            if startFailed.exchange(false, ordering: .relaxed), let lease = leading.withLock({ $0?.lease }) {
                await stepDown(lease: lease, reason: "the service could not start", afterFailedStart: true)
                continue
            }
            let now = ContinuousClock.now
            switch machine.withLock({ $0.next(now: now) }) {
            case .wait(let until):
                // Short naps: a failed start is noticed without waiting for the next renewal.
                try? await Task.sleep(until: min(until, now + .milliseconds(250)), clock: .continuous)
            case .campaign:
                await campaign()
            case .renew(let lease):
                await renew(lease: lease)
            case .stepDown(let lease):
                await stepDown(lease: lease, reason: "no lease renewal within 2/3 of its TTL")
            }
        }
    }

    // MARK: the steps

    private func campaign() async {
        let sentAt = ContinuousClock.now
        machine.withLock { $0.attempted(at: sentAt) }
        let ttlSeconds = max(1, election.ttl.components.seconds)
        do {
            let lease = try await client.grantLease(ttlSeconds: ttlSeconds)
            let record = ElectionRecord(
                name: election.name, epoch: 0, listen: configuration.listenURL, publish: configuration.publishURL)
            let result: EtcdClient.CreateResult
            do {
                result = try await client.createIfAbsent(election.key, value: record.encoded, lease: lease)
            } catch {
                try? await client.revoke(lease: lease)
                throw error
            }
            etcdBack()
            switch result {
            case .created(let revision):
                guard ContinuousClock.now < sentAt + machine.withLock({ $0.timing.stepDownAfter }) else {
                    // Won too slowly to be sure of the lease: give it back and try again.
                    try? await client.revoke(lease: lease)
                    return
                }
                machine.withLock { $0.won(lease: lease, epoch: revision, grantSentAt: sentAt) }
                holder.withLock { $0 = ElectionRecord(from: record, epoch: revision) }
                await stopFollowing()  // the delay store is the service's from now on
                logger.notice(
                    "leading: elected through etcd", metadata: ["epoch": "\(revision)", "name": "\(election.name)"])
                startService(lease: lease, epoch: revision)
            case .exists(let kv):
                try? await client.revoke(lease: lease)
                let current = ElectionRecord(decoding: kv.value, epoch: kv.createRevision)
                let previous = holder.withLock { h in
                    defer { h = current }
                    return h
                }
                if previous?.epoch != current.epoch {
                    logger.info(
                        "standing by: another instance leads",
                        metadata: ["leader": "\(current.name)", "epoch": "\(current.epoch)"])
                }
                await follow(current)
            }
        } catch {
            etcdFailed(error)
        }
    }

    /// Records the leader's departures while standing by (with a `--delay-store`): follows its PUB URL, again
    /// when another instance leads.
    private func follow(_ leader: ElectionRecord) async {
        guard let path = configuration.delayStorePath, !leader.publish.isEmpty,
            leader.publish != configuration.publishURL
        else { return }
        if follower.withLock({ $0?.publishURL }) == leader.publish { return }
        await stopFollowing()
        do {
            let delays = try await Self.openDelays(path: path, configuration: configuration, logger: logger)
            let next = try LeaderFollower(
                publishURL: leader.publish, delays: delays,
                nowMs: { [clock = configuration.clock] in clock.unixMilliseconds }, logger: logger)
            follower.withLock { $0 = next }
            next.start()
        } catch {
            logger.warning(
                "cannot follow the leader's stream: departure delays are not recorded while standing by",
                metadata: ["publish": "\(leader.publish)", "error": "\(error)"])
        }
    }

    private func stopFollowing() async {
        let current = follower.withLock { f in
            defer { f = nil }
            return f
        }
        await current?.stop()
    }

    /// The delay store as the service opens it: dated in the static feed's zone, with its day types.
    private static func openDelays(
        path: String, configuration: RealtimeServiceConfiguration, logger: Logger
    ) async throws -> TypicalDelays {
        let schedules = try StaticScheduleClient(url: configuration.staticURL, timeout: configuration.staticTimeout)
        defer { schedules.close() }
        let info = try? await schedules.feedInfo()
        let delays = try TypicalDelays(
            path: path, timeZone: info?.feeds.first?.timezone ?? configuration.defaultTimeZone,
            clock: { [clock = configuration.clock] in clock.unixSeconds })
        if let info { delays.setDayTypes(info.dayTypes) }
        return delays
    }

    private func startService(lease: Int64, epoch: Int64) {
        let starting = Task { [self] () -> RealtimeServiceRunner? in
            do {
                let service = try await RealtimeServiceRunner(
                    configuration: configuration, logger: logger, epoch: UInt64(epoch),
                    lease: PublishingLease(
                        mayPublish: { [weak self] in self?.mayPublish ?? false },
                        leadership: { [weak self] in self?.leadership }))
                service.start()
                runner.withLock { $0 = service }
                logger.info(
                    "ready",
                    metadata: [
                        "listen": "\(configuration.listenURL)", "publish": "\(configuration.publishURL)",
                        "epoch": "\(epoch)", "pid": "\(ProcessInfo.processInfo.processIdentifier)",
                    ])
                return service
            } catch {
                logger.error("the elected service could not start", metadata: ["error": "\(error)"])
                startFailed.store(true, ordering: .relaxed)
                return nil
            }
        }
        leading.withLock { $0 = Leading(lease: lease, epoch: epoch, starting: starting) }
    }

    /// The hub's check before each send: this instance leads and its step-down instant has not passed.
    private var mayPublish: Bool { machine.withLock { $0.mayLead(now: .now) } }

    private func renew(lease: Int64) async {
        let sentAt = ContinuousClock.now
        let stepDownDue = machine.withLock { m in
            m.attempted(at: sentAt)
            return m.stepDownDue ?? sentAt + m.timing.stepDownAfter
        }
        do {
            // Never wait past the step-down instant for an answer: that of the last accepted renewal, not this
            // request's send time plus 2·TTL/3 (a retry sent shortly before it would hold the step-down back by
            // up to 2·TTL/3, polling on while another instance may already be elected).
            let ttlLeft = try await withDeadline(stepDownDue) { [client] in
                try await client.keepAlive(lease: lease)
            }
            etcdBack()
            guard let ttlLeft else { return }  // the loop steps down
            if !machine.withLock({ $0.renewed(sentAt: sentAt, ttlLeft: ttlLeft) }) {
                await stepDown(lease: lease, reason: "etcd says the lease is gone")
            }
        } catch {
            machine.withLock { $0.renewalFailed(at: ContinuousClock.now) }
            etcdFailed(error)
        }
    }

    /// `afterFailedStart`: campaign again only a TTL later (`LeaderElection.startFailed`), else at once.
    private func stepDown(lease: Int64, reason: String, afterFailedStart: Bool = false) async {
        let was = leading.withLock { l in
            defer { l = nil }
            return l
        }
        let now = ContinuousClock.now
        machine.withLock { afterFailedStart ? $0.startFailed(at: now) : $0.steppedDown() }
        holder.withLock { $0 = nil }
        logger.warning(
            "stepping down: no longer leading",
            metadata: [
                "reason": "\(reason)", "epoch": "\(was.map { String($0.epoch) } ?? "-")",
                "campaigning_again_in_s": "\(afterFailedStart ? election.ttl.components.seconds : 0)",
            ])
        if let service = await was?.starting.value {
            runner.withLock { $0 = nil }
            await service.stop()
        }
        // Best effort: another instance may take over at once instead of at the lease's end.
        _ = try? await withDeadline(.now + .seconds(1)) { [client] in try await client.revoke(lease: lease) }
    }

    private func etcdFailed(_ error: any Error) {
        if !etcdDown.exchange(true, ordering: .relaxed) {
            logger.warning(
                "etcd unreachable: no instance can be elected until it answers", metadata: ["error": "\(error)"])
        }
    }

    private func etcdBack() {
        if etcdDown.exchange(false, ordering: .relaxed) { logger.notice("etcd answers again") }
    }
}

/// The result of `operation`, or nil when `deadline` came first (the operation is cancelled).
func withDeadline<T: Sendable>(
    _ deadline: ContinuousClock.Instant, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T? {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try? await Task.sleep(until: deadline, clock: .continuous)
            return nil
        }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
    }
}

/// What the election key holds: who leads and where (a JSON object), and the key's create revision (the epoch).
public struct ElectionRecord: Sendable, Equatable {
    public var name: String
    public var epoch: Int64
    public var listen: String
    public var publish: String

    init(name: String, epoch: Int64, listen: String, publish: String) {
        self.name = name
        self.epoch = epoch
        self.listen = listen
        self.publish = publish
    }

    init(from record: ElectionRecord, epoch: Int64) {
        self = record
        self.epoch = epoch
    }

    /// A value another program wrote is shown as its text.
    init(decoding value: [UInt8], epoch: Int64) {
        let object = (try? JSONSerialization.jsonObject(with: Data(value))) as? [String: Any]
        name = object?["name"] as? String ?? String(decoding: value.prefix(80), as: UTF8.self)
        listen = object?["listen"] as? String ?? ""
        publish = object?["publish"] as? String ?? ""
        self.epoch = epoch
    }

    var encoded: [UInt8] {
        let object = ["name": name, "listen": listen, "publish": publish]
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }
}
