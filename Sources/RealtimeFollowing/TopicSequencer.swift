import TransitModel

/// The late-join and gap handshake of one PUB topic (protocol/README.md flow 4), as pure state: which
/// messages to apply, which to ignore, and when the topic needs a snapshot.
///
/// Unsynced (at start, after a gap, an epoch change or a lost tail), messages are buffered; a snapshot
/// `(epoch E, seq S)` then replaces the topic's state, and the buffered messages of epoch E with seq > S are
/// applied in order. A hole among them is a gap again. Synced, `S+1` is applied, `≤ S` ignored, anything else
/// unsyncs the topic.
public struct TopicSequencer: Sendable {
    public enum Decision: Equatable, Sendable {
        /// Apply this message now.
        case apply
        /// A duplicate or an old message: nothing to do.
        case ignore
        /// Kept until the next snapshot.
        case buffered
        /// The message shows the topic lost messages (or the publisher restarted): take a snapshot.
        case needsSnapshot
    }

    public private(set) var epoch: UInt64?
    public private(set) var appliedSeq: UInt64 = 0
    public private(set) var synced = false
    /// Messages received while unsynced, in arrival order.
    public private(set) var buffer: [PubMessage] = []
    /// Beyond this many buffered messages the oldest are dropped (the snapshot then shows the gap).
    public let maxBuffered: Int

    public init(maxBuffered: Int = 4096) {
        self.maxBuffered = maxBuffered
    }

    /// A message of this topic arrived.
    public mutating func offer(_ message: PubMessage) -> Decision {
        guard synced, let epoch else {
            keep(message)
            return .buffered
        }
        if message.epoch != epoch || message.seq > appliedSeq + 1 {
            synced = false
            keep(message)
            return .needsSnapshot
        }
        if message.seq <= appliedSeq { return .ignore }
        appliedSeq = message.seq
        return .apply
    }

    /// A snapshot of the state after messages 1 … `seq` of `epoch` replaced the topic's state. Returns the
    /// buffered messages to apply on top, in order; `gap` when a message is missing after them (the topic
    /// stays unsynced and wants another snapshot).
    public mutating func snapshotApplied(epoch: UInt64, seq: UInt64) -> (apply: [PubMessage], gap: Bool) {
        self.epoch = epoch
        appliedSeq = seq
        let later = buffer.filter { $0.epoch == epoch && $0.seq > seq }.sorted { $0.seq < $1.seq }
        buffer.removeAll(keepingCapacity: true)
        var apply: [PubMessage] = []
        for (index, message) in later.enumerated() {
            if message.seq <= appliedSeq { continue }  // a duplicate in the buffer
            if message.seq != appliedSeq + 1 {
                buffer = Array(later[index...])
                synced = false
                return (apply, true)
            }
            apply.append(message)
            appliedSeq = message.seq
        }
        synced = true
        return (apply, false)
    }

    /// A heartbeat says the publisher `epoch` is at `seq` on this topic. True when that shows lost messages
    /// (a lost tail, or another epoch): the topic is then unsynced.
    public mutating func heartbeat(epoch heartbeatEpoch: UInt64, seq: UInt64) -> Bool {
        guard synced, let epoch else { return false }
        if heartbeatEpoch != epoch || seq > appliedSeq {
            synced = false
            return true
        }
        return false
    }

    /// Forget the sync (publisher silent, or restarted as seen on another topic): the next state comes from a
    /// snapshot.
    public mutating func unsync() {
        synced = false
    }

    private mutating func keep(_ message: PubMessage) {
        if buffer.count >= maxBuffered { buffer.removeFirst(buffer.count - maxBuffered + 1) }
        buffer.append(message)
    }
}
