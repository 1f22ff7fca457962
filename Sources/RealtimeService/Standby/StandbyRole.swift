import Logging
import NNGKit
import ServiceLifecycle
import Synchronization

/// `transit-realtime serve --peer <url>`: stands by while the peer is active (`PeerWatch`), then makes and
/// runs the realtime service (polling, publishing under a new epoch, answering REQ). Until it takes over it
/// binds no socket, so gateways dialing both instances' URLs reach only the active one.
public final class StandbyRole: Service, Sendable {
    private let peer: PeerWatch
    private let takeoverAfter: Duration
    private let initialGrace: Duration
    private let makeRunner: @Sendable () async throws -> RealtimeServiceRunner
    private let logger: Logger
    private let runner = Mutex<RealtimeServiceRunner?>(nil)

    /// Dials the peer of `configuration.standby`, which must be set; the service it takes over with is made
    /// from `configuration`.
    public init(configuration: RealtimeServiceConfiguration, logger: Logger) throws(NNGError) {
        guard let standby = configuration.standby else {
            preconditionFailure("StandbyRole needs configuration.standby (serve --peer)")
        }
        self.peer = try PeerWatch(peerURL: standby.peerURL)
        self.takeoverAfter = standby.takeoverAfter
        self.initialGrace = standby.startsAsStandby ? standby.takeoverAfter : .zero
        self.logger = logger
        self.makeRunner = {
            try await RealtimeServiceRunner(
                configuration: configuration, logger: logger, epoch: try configuration.nextEpochWithoutElection())
        }
    }

    /// The running service once this instance took over; nil while standing by.
    public var current: RealtimeServiceRunner? { runner.withLock { $0 } }

    public func run() async throws {
        logger.info(
            "waiting for the peer to be silent before taking over",
            metadata: ["peer": "\(peer.peerURL)", "takeover_after_s": "\(takeoverAfter.components.seconds)"])
        do {
            let peer = self.peer, takeoverAfter = self.takeoverAfter, initialGrace = self.initialGrace
            let logger = self.logger
            try await cancelWhenGracefulShutdown {
                try await peer.waitUntilSilent(
                    takeoverAfter: takeoverAfter, initialGrace: initialGrace, logger: logger)
            }
        } catch {
            peer.close()
            logger.info("stopped while standing by")
            return
        }
        peer.close()
        logger.notice("taking over: the peer is silent", metadata: ["peer": "\(peer.peerURL)"])
        let service = try await makeRunner()
        runner.withLock { $0 = service }
        try await service.run()
    }
}
