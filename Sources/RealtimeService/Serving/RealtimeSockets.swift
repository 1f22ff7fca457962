import Logging
import NNGKit
import ProcessSupport

/// The realtime service's two listening sockets: PUB (the change stream) and REP (queries, snapshots).
public final class RealtimeSockets: Sendable {
    /// Largest request accepted on REP: requests are small.
    public static let maxRequestBytes = 1 << 20
    /// PUB send queue in messages (protocol/README.md): bursts; what does not fit is dropped per subscriber
    /// and recovered by the gap handshake.
    public static let sendBufferMessages = 1024

    public let publisher: NNGPublisher
    public let hub: RealtimeHub
    private let server: NNGReplyServer

    /// Listens on both URLs; the hub publishes on the PUB socket and the REP workers answer from it.
    /// `clock` stamps the published messages' send times.
    /// `delays` records departure delays (nil: none recorded). `epoch` and `lease`: `RealtimeHub`'s.
    public init(
        listen: String, publish: String, contexts: Int = 4, clock: ServiceClock = .system, logger: Logger? = nil,
        delays: TypicalDelays? = nil, epoch: UInt64 = EpochCounter.fromClock(),
        lease: PublishingLease = .unelected
    ) throws(NNGError) {
        publisher = try NNGPublisher(listeningOn: publish, sendBuffer: Self.sendBufferMessages)
        let hub = RealtimeHub(
            sink: PublisherSink(publisher: publisher), epoch: epoch, nowMs: { clock.unixMilliseconds }, delays: delays,
            lease: lease)
        self.hub = hub
        do {
            let socket = try NNGSocket.rep()
            try socket.setMaxReceiveSize(Self.maxRequestBytes)
            try socket.listen(listen)
            let handler = RealtimeRequestHandler(hub: hub, logger: logger)
            server = try NNGReplyServer(socket: socket, contexts: contexts) { handler.handle($0) }
        } catch {
            publisher.close()
            throw error
        }
    }

    /// Stops answering (in-flight queries finish) and closes the PUB socket.
    public func stop() {
        server.stop()
        publisher.close()
    }
}

/// The PUB socket as a `FrameSink`.
struct PublisherSink: FrameSink {
    let publisher: NNGPublisher
    func send(_ frame: [UInt8]) throws { try publisher.publish(frame) }
}
