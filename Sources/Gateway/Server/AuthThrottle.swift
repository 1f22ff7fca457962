import GatewayProtocol
import Logging
import ProcessSupport
import Synchronization

/// Failed authentications per client address and the wait they earn (GATEWAY.md "auth"): from the
/// `freeFailures`th wrong token in a row on, each one blocks the address, the first for `firstDelay`, each next
/// one twice as long, up to `maxDelay`. While blocked, `check` refuses the address without the token
/// being compared. A good token clears the address; so do `forgetAfter` seconds without a failure.
///
/// Shared by every connection of the gateway (any listener: the line port now, HTTP/WebSocket later), keyed by
/// whatever address the caller trusts (the peer's, or the one a proxy protocol gives). At most `maxAddresses`
/// are remembered: beyond, the ones whose block and memory have run out are dropped first, then the oldest.
/// Time is injected (monotonic seconds), so the policy is tested without waiting.
final class AuthThrottle: Sendable {
    struct Policy: Sendable {
        var freeFailures = 5
        var firstDelay = 1.0
        var maxDelay = 60.0
        var forgetAfter = 600.0
        var maxAddresses = 65_536
    }

    enum Verdict: Equatable, Sendable {
        case allowed
        /// Blocked for `retryAfter` more seconds.
        case refused(retryAfter: Double)
    }

    /// What a wrong token cost: the address's failures in a row, and the block it now has (nil: none).
    struct Failure: Equatable, Sendable {
        let failures: Int
        let blockedFor: Double?
    }

    private struct Record {
        var failures: Int
        var lastFailure: Double
        var blockedUntil: Double
    }

    private struct State {
        var records: [String: Record] = [:]
        var failures: UInt64 = 0
        var refusals: UInt64 = 0
    }

    /// What one `auth` attempt came to (`authenticate`).
    enum Outcome: Equatable, Sendable {
        case accepted
        case wrongToken
        /// The address is blocked for `retryAfter` more seconds; the token was not compared.
        case refused(retryAfter: Double)

        /// The error to answer (nil when accepted); its message never holds the token.
        var error: GatewayError? {
            switch self {
            case .accepted: nil
            case .wrongToken: GatewayError(.unauthenticated, "wrong token; the connection is closed")
            case .refused(let retryAfter):
                GatewayError(
                    .rateLimited,
                    "too many failed authentications from your address; retry in \(Int(retryAfter.rounded(.up))) s")
            }
        }
    }

    let policy: Policy
    private let now: @Sendable () -> Double
    private let state = Mutex(State())

    init(policy: Policy = Policy(), now: @escaping @Sendable () -> Double = Watchdog.monotonicSeconds) {
        self.policy = policy
        self.now = now
    }

    /// One `auth` attempt from `address` against the configured token: refused while the address is blocked
    /// (the token not compared), else compared in constant time; a wrong one is logged (address and count,
    /// never the token) and counted. Every listener calls this, so they share one count per address.
    func authenticate(_ token: AuthToken, expected: [UInt8], from address: String, logger: Logger) -> Outcome {
        if case .refused(let retryAfter) = check(address) { return .refused(retryAfter: retryAfter) }
        guard token.matches(expected) else {
            let failure = failed(address)
            logger.warning(
                "authentication failed",
                metadata: [
                    "address": "\(address)", "failures_in_a_row": "\(failure.failures)",
                    "blocked_s": "\(failure.blockedFor.map { "\(Int($0))" } ?? "0")",
                ])
            return .wrongToken
        }
        succeeded(address)
        return .accepted
    }

    /// Whether `address` may try a token now (a refusal is counted).
    func check(_ address: String) -> Verdict {
        let time = now()
        return state.withLock { state in
            guard let record = state.records[address], record.blockedUntil > time else { return .allowed }
            state.refusals += 1
            return .refused(retryAfter: record.blockedUntil - time)
        }
    }

    /// A wrong token from `address`.
    func failed(_ address: String) -> Failure {
        let time = now()
        return state.withLock { state in
            state.failures += 1
            var record = state.records[address] ?? Record(failures: 0, lastFailure: time, blockedUntil: 0)
            if time - record.lastFailure > policy.forgetAfter { record.failures = 0 }
            record.failures += 1
            record.lastFailure = time
            var blockedFor: Double?
            if record.failures >= policy.freeFailures {
                let doublings = min(record.failures - policy.freeFailures, 62)
                blockedFor = min(policy.maxDelay, policy.firstDelay * Double(UInt64(1) << doublings))
                record.blockedUntil = time + blockedFor!
            }
            state.records[address] = record
            if state.records.count > policy.maxAddresses { prune(&state, at: time) }
            return Failure(failures: record.failures, blockedFor: blockedFor)
        }
    }

    /// A good token from `address`: its count starts again.
    func succeeded(_ address: String) {
        _ = state.withLock { $0.records.removeValue(forKey: address) }
    }

    /// Wrong tokens and refused attempts since start (the metrics).
    var counts: (failures: UInt64, refusals: UInt64) {
        state.withLock { ($0.failures, $0.refusals) }
    }

    /// Addresses remembered now.
    var addresses: Int { state.withLock { $0.records.count } }

    /// Down to three quarters of `maxAddresses`: the forgotten ones first, then the oldest failures.
    private func prune(_ state: inout State, at time: Double) {
        state.records = state.records.filter { _, record in
            record.blockedUntil > time || time - record.lastFailure <= policy.forgetAfter
        }
        let keep = policy.maxAddresses * 3 / 4
        guard state.records.count > keep else { return }
        let oldest = state.records.sorted { $0.value.lastFailure < $1.value.lastFailure }
        for (address, _) in oldest.prefix(state.records.count - keep) { state.records[address] = nil }
    }
}
