import Foundation
import NNGKit
import ProcessSupport
import Synchronization
import TransitModel
import TransitProto

/// Proves the request workers answer: every `interval` a `feed_info` request goes to the service's own REP
/// socket, over an inproc listener added to it, and is answered by a worker like any client's (a database
/// query included). Each answer advances the watchdog's `component`; a worker pool that is stuck (every context
/// held by a query that does not end, a deadlock, a stopped process) answers nothing and the component turns
/// late. A probe on a side thread that only checked a flag would prove nothing of that.
///
/// The probe's answers count in the service's metrics like any `feed_info` (one a second).
final class WorkerProbe: Sendable {
    static let component = "request workers"
    private let requester: NNGRequester
    private let watchdog: Watchdog
    private let interval: Duration
    private let stopped = Atomic<Bool>(false)
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Adds an inproc listener to `socket` (the server's REP socket) and dials it; call `start()` to probe.
    init(socket: NNGSocket, watchdog: Watchdog, interval: Duration = .seconds(1)) throws(NNGError) {
        let url = "inproc://transit-static-probe-\(UUID().uuidString)"
        try socket.listen(url)
        requester = try NNGRequester(dialing: url, defaultTimeout: .seconds(30))
        self.watchdog = watchdog
        self.interval = interval
    }

    func start() {
        let request = StaticCodec.encode(StaticRequest(requestId: 0, query: .feedInfo))
        watchdog.advance(Self.component, nextWithin: interval)
        task.withLock { task in
            task = Task { [self] in
                while !stopped.load(ordering: .relaxed) {
                    // A probe that waits long is the news: it is late, whatever it then answers.
                    if (try? await requester.request(request)) != nil {
                        watchdog.advance(Self.component, nextWithin: interval)
                    }
                    try? await Task.sleep(for: interval)
                }
            }
        }
    }

    /// Stops probing (before the server stops: a probe would otherwise count as late) and closes the socket.
    func stop() async {
        stopped.store(true, ordering: .relaxed)
        watchdog.remove(Self.component)
        let running = task.withLock { $0 }
        running?.cancel()
        await running?.value
        _ = requester.close()
    }
}
