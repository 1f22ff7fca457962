import NIOCore

/// Runs a connection's request tasks on the connection's own event loop. The work between two waits is
/// short and never blocks (every wait on a service is an async nng round trip), and on the loop it costs no
/// hand-over to the cooperative pool and back: two thread wake-ups per request less, most of a board answered
/// from the board window cache.
package final class EventLoopTaskExecutor: TaskExecutor {
    package let loop: any EventLoop

    package init(_ loop: any EventLoop) {
        self.loop = loop
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
