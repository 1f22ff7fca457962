import NIOCore
import ProcessSupport

/// Proves the gateway's event loops move: a task repeated every `period` on each loop advances its own watchdog
/// component ("event loop 1", …). A loop blocked by a handler (or a stopped process) runs no task, so its
/// component turns late. The tasks end when the loops shut down.
enum EventLoopHeartbeats {
    static let period: TimeAmount = .seconds(1)

    static func start(on group: any EventLoopGroup, watchdog: Watchdog) {
        for (index, loop) in group.makeIterator().enumerated() {
            let component = "event loop \(index + 1)"
            watchdog.advance(component, nextWithin: .nanoseconds(period.nanoseconds))
            loop.scheduleRepeatedTask(initialDelay: period, delay: period) { _ in
                watchdog.advance(component, nextWithin: .nanoseconds(period.nanoseconds))
            }
        }
    }

    /// The loops are shutting down on purpose: stop watching them.
    static func stop(on group: any EventLoopGroup, watchdog: Watchdog) {
        for (index, _) in group.makeIterator().enumerated() {
            watchdog.remove("event loop \(index + 1)")
        }
    }
}
