import NIOCore
import Synchronization

/// The gateway's open (admitted) connections, so that graceful shutdown can drain them: each is told to
/// take no further requests, answer the ones it has, tell its subscribers, and close.
final class OpenConnections: Sendable {
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])

    func opened(_ channel: any Channel) {
        channels.withLock { $0[ObjectIdentifier(channel)] = channel }
    }

    func closed(_ channel: any Channel) {
        _ = channels.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    var count: Int { channels.withLock { $0.count } }

    /// Tells every open connection to drain (`ConnectionHandler` handles `Drain` on its event loop).
    func drainAll() {
        for channel in channels.withLock({ Array($0.values) }) {
            channel.pipeline.fireUserInboundEventTriggered(Drain())
        }
    }

    /// Closes the connections still open (the drain's time is up).
    func closeAll() {
        for channel in channels.withLock({ Array($0.values) }) { channel.close(promise: nil) }
    }

    /// The event that starts a connection's drain.
    struct Drain: Sendable {}
}
