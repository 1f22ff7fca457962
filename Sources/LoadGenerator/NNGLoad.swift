// The nng load: REQ/REP straight to a service (the static service, or the nng echo for the floor), one REQ
// socket per connection, `depth` requesting threads per socket (closed loop) or one thread per socket sending
// at its due instants (open loop: a thread that falls behind sends at once, and the latency still counts
// from the due instant, so the server's queue shows).
import Foundation
import NIOCore
import NNGKit
import Synchronization

/// Requests and checks of an nng workload.
public protocol NNGWorkload: Sendable {
    func request(id: UInt64, rng: inout SeededRandom) -> (op: LoadOp, bytes: [UInt8])
    func check(op: LoadOp, request: [UInt8], reply: [UInt8]) -> AnswerVerdict
}

/// 64 bytes sent and expected back unchanged (the floor under every nng hop).
public struct NNGEchoWorkload: NNGWorkload {
    public init() {}
    public func request(id: UInt64, rng: inout SeededRandom) -> (op: LoadOp, bytes: [UInt8]) {
        var bytes = [UInt8](repeating: 0x5A, count: 64)
        withUnsafeBytes(of: id.littleEndian) { for (i, b) in $0.enumerated() { bytes[i] = b } }
        return (.echo, bytes)
    }
    public func check(op: LoadOp, request: [UInt8], reply: [UInt8]) -> AnswerVerdict {
        reply == request ? .ok(rows: nil) : .error(CheckCode.badShape)
    }
}

public enum NNGLoad {
    public static func run(
        url: String, plan: LoadPlan, workload: any NNGWorkload, timeout: Duration = .seconds(5),
        onWindow: @escaping @Sendable (Bool) -> Void = { _ in }
    ) throws -> LoadRecorder {
        guard plan.connections >= 1 else { throw WorkloadError("--connections must be at least 1") }
        var sockets: [NNGRequester] = []
        for _ in 0..<plan.connections {
            sockets.append(try NNGRequester(dialing: url, defaultTimeout: timeout))
        }
        defer { for s in sockets { s.close() } }
        // Wait until the server answers (the sockets dial in the background).
        var probe = SeededRandom(seed: 0)
        let (_, hello) = workload.request(id: 0, rng: &probe)
        var answered = false
        for _ in 0..<50 where !answered {
            answered = (try? sockets[0].request(hello, timeout: .milliseconds(200))) != nil
        }
        guard answered else { throw WorkloadError("no answer from \(url)") }

        let now = NIODeadline.now().uptimeNanoseconds
        let start = now + 20_000_000
        let windowStart = start + UInt64(plan.warmup.nanos)
        let windowEnd = windowStart + UInt64(plan.duration.nanos)
        var workers: [(socket: Int, index: Int, depthSlot: Int)] = []
        switch plan.pacing {
        case .closed(let depth):
            for c in 0..<plan.connections { for d in 0..<max(depth, 1) { workers.append((c, workers.count, d)) } }
        case .open(let rate):
            guard rate > 0 else { throw WorkloadError("--rate must be above 0") }
            for c in 0..<plan.connections { workers.append((c, c, 0)) }
        }
        let results = Mutex<LoadRecorder>(LoadRecorder(windowStart: windowStart))
        let window = Thread {
            sleepUntil(windowStart)
            onWindow(true)
            sleepUntil(windowEnd)
            onWindow(false)
        }
        window.start()
        let socketsCopy = sockets
        let workerList = workers
        let finished = DispatchSemaphore(value: 0)
        for w in 0..<workerList.count {
            let thread = Thread {
                runWorker(w)
                finished.signal()
            }
            thread.stackSize = 256 << 10
            thread.start()
        }
        for _ in 0..<workerList.count { finished.wait() }
        while !window.isFinished { usleep(1000) }
        return results.withLock { $0 }

        @Sendable func runWorker(_ w: Int) {
            let worker = workerList[w]
            let socket = socketsCopy[worker.socket]
            var rng = SeededRandom(seed: plan.seed &+ UInt64(w) &* 7919)
            var recorder = LoadRecorder(windowStart: windowStart)
            var id: UInt64 = 1
            var k: UInt64 = 0
            sleepUntil(start)
            requests: while true {
                let begin: UInt64
                switch plan.pacing {
                case .closed:
                    begin = NIODeadline.now().uptimeNanoseconds
                    if begin >= windowEnd { break requests }
                case .open(let rate):
                    begin =
                        start
                        + LoadPlan.dueOffset(
                            connection: worker.index, request: k, connections: plan.connections, rate: rate)
                    k += 1
                    sleepUntil(begin)
                }
                if begin >= windowEnd { break requests }
                let (op, bytes) = workload.request(id: id, rng: &rng)
                id += 1
                let verdict: AnswerVerdict
                do {
                    let reply = try socket.request(bytes)
                    verdict = workload.check(op: op, request: bytes, reply: reply)
                } catch {
                    verdict = .error(error.isTimedOut ? CheckCode.noAnswer : "NNG_ERROR")
                }
                let end = NIODeadline.now().uptimeNanoseconds
                guard begin >= windowStart else { continue }
                switch verdict {
                case .ok: recorder.success(op, nanos: end - begin, now: end)
                case .error(let code): recorder.error(op, code: code, now: end)
                }
            }
            results.withLock { $0.merge(recorder) }
        }
    }

    static func sleepUntil(_ deadline: UInt64) {
        let now = NIODeadline.now().uptimeNanoseconds
        guard deadline > now else { return }
        var ts = timespec(tv_sec: Int((deadline - now) / 1_000_000_000), tv_nsec: Int((deadline - now) % 1_000_000_000))
        nanosleep(&ts, nil)
    }
}
