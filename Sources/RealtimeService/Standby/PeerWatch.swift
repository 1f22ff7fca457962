import Logging
import NNGKit
import TransitModel

/// A standby's view of its peer realtime service: it follows the peer's heartbeats over SUB and says when
/// they have stopped, so that the standby takes over (polls, publishes, answers) only then. Polling twice would
/// spend the producers' quota twice, and two publishers would split the gateways' live state.
///
/// The rule (one instance active at a time, the active one never steps down):
/// - an instance started with a peer listens first; while the peer's heartbeats come it stands by;
/// - it takes over once it has heard no heartbeat for `takeoverAfter` — counted from its own start when it
///   never heard one, plus `initialGrace` (a standby started together with its primary lets the primary win);
/// - a former primary restarted after a takeover hears the new active one and stands by in turn.
public final class PeerWatch: Sendable {
    public let peerURL: String
    private let subscriber: NNGSubscriber

    /// Dials the peer's PUB socket (non-blocking) and listens to its heartbeats only.
    public init(peerURL: String) throws(NNGError) {
        self.peerURL = peerURL
        subscriber = try NNGSubscriber(dialing: peerURL, topics: [RealtimeTopic.heartbeat.prefix], receiveBuffer: 16)
        try? subscriber.socket.setReconnectInterval(min: .milliseconds(50), max: .milliseconds(500))
    }

    /// Returns once the peer has been silent for `takeoverAfter` (after `initialGrace` more when it was never
    /// heard); throws `CancellationError` when the task is cancelled (shutdown while standing by).
    public func waitUntilSilent(takeoverAfter: Duration, initialGrace: Duration, logger: Logger) async throws {
        let start = ContinuousClock.now
        var lastHeard: ContinuousClock.Instant?
        while true {
            try Task.checkCancellation()
            let deadline = (lastHeard ?? start + initialGrace) + takeoverAfter
            let left = deadline - ContinuousClock.now
            if left <= .zero { return }
            do {
                _ = try await subscriber.receive(timeout: min(left, .milliseconds(500)))
                if lastHeard == nil {
                    logger.info("standing by: the peer is active", metadata: ["peer": "\(peerURL)"])
                }
                lastHeard = .now
            } catch let error as NNGError where error.isTimedOut {
                continue
            }
        }
    }

    public func close() { subscriber.close() }
}
