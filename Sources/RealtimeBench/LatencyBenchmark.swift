import Foundation
import GTFSRealtime
import Logging
import NNGKit
import RealtimeFixtures
import RealtimeService
import Synchronization
import TransitModel
import TransitProto
import TransitStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Publish → subscriber latency over a real PUB socket to a subscriber in another process (BENCHMARKS.md,
/// "Realtime service"): for 1 KiB messages and for full feed updates published by the engine.
///
/// Both processes read CLOCK_MONOTONIC (one clock for the whole machine). The subscriber
/// (`LatencySubscriber`, started by the caller's `spawn`) prints one line per message received, with its
/// receive time; the publisher sends the next message only after reading that line, so nothing queues.
/// For a full update three spans are measured: send (the frame handed to nng) → received, feed bytes in →
/// received (decode, resolve, diff, encode, publish and transfer), and the subscriber's decode of the frame.
public enum LatencyBenchmark {
    public struct Result: Sendable {
        public var smallBytes = 1024
        /// µs, send → received.
        public var smallMicros: [Double] = []
        /// ms.
        public var fullSendToReceiveMs: [Double] = []
        public var fullFeedToReceiveMs: [Double] = []
        public var fullSubscriberDecodeMs: [Double] = []
        public var fullFrameBytes = 0
    }

    /// Listens on `url`, starts the subscriber with `spawn(url)` and measures. Full updates alternate two
    /// bodies of `feed` as in `UpdateBenchmark` (every trip changes at every update); schedules come from
    /// the database at `databasePath`.
    public static func run(
        url: String, spawn: (String) throws -> SubscriberProcess, feed: BenchFeed, databasePath: String,
        smallMessages: Int, fullUpdates: Int, logger: Logger, log: (String) -> Void = { _ in }
    ) async throws -> Result {
        let store = try StaticStore(path: databasePath, connections: 2)
        let bodies = [
            feed.body(variant: 0, timestamp: UInt64(feed.at)), feed.body(variant: 1, timestamp: UInt64(feed.at)),
        ]
        let publisher = try NNGPublisher(listeningOn: url, sendBuffer: 1024)
        defer { publisher.close() }
        let subscriber = try spawn(url)
        defer { subscriber.stop() }
        var result = Result()

        // Until the subscriber is connected, PUB drops everything: probe until one arrives.
        log("waiting for the subscriber …")
        var connected = false
        for probe in 0..<500 where !connected {
            try publisher.publish(smallFrame(id: UInt64(1_000_000 + probe), size: 64))
            while let line = try subscriber.readLine(timeoutMs: 20) {
                if line.topic == "lat" { connected = true }
            }
        }
        guard connected else { throw FixtureError("the subscriber did not receive anything within 10 s") }
        while try subscriber.readLine(timeoutMs: 100) != nil {}  // late probes

        log("\(smallMessages) messages of \(result.smallBytes) bytes …")
        for id in 0..<UInt64(smallMessages) {
            let frame = smallFrame(id: id, size: result.smallBytes)
            let sent = monotonicNanos()
            try publisher.publish(frame)
            let line = try subscriber.await(topic: "lat", id: id)
            result.smallMicros.append(Double(line.receivedNs - sent) / 1000)
        }

        log("\(fullUpdates) full updates …")
        let sink = TimedSink(publisher: publisher)
        let hub = RealtimeHub(sink: sink)
        let now = feed.at
        let engine = try RealtimeEngine(
            sources: [SourceSettings(name: "buses", kind: .tripUpdates, timeZone: feed.timeZone)], hub: hub,
            schedules: StoreScheduleSource(store: store), timeZone: feed.timeZone, logger: logger,
            clock: { now })
        for run in -1..<fullUpdates {  // run -1 warms up (schedules fetched)
            let body = bodies[(run + 2) % 2]
            let start = monotonicNanos()
            await engine.handle(.fetched(source: "buses", bytes: body, at: now))
            let seq = hub.sequence(.tripUpdates)
            let line = try subscriber.await(topic: RealtimeTopic.tripUpdates.rawValue, id: seq)
            guard run >= 0, let sent = sink.lastSent(.tripUpdates) else { continue }
            result.fullSendToReceiveMs.append(Double(line.receivedNs - sent.ns) / 1e6)
            result.fullFeedToReceiveMs.append(Double(line.receivedNs - start) / 1e6)
            result.fullSubscriberDecodeMs.append(Double(line.decodedNs - line.receivedNs) / 1e6)
            result.fullFrameBytes = sent.bytes
        }
        return result
    }

    /// "lat", 0, the id (8 bytes, little-endian), then filler up to `size` bytes.
    static func smallFrame(id: UInt64, size: Int) -> [UInt8] {
        var frame: [UInt8] = Array("lat".utf8) + [0]
        withUnsafeBytes(of: id.littleEndian) { frame.append(contentsOf: $0) }
        frame.append(contentsOf: repeatElement(0x2E, count: max(0, size - frame.count)))
        return frame
    }
}

/// Nanoseconds of CLOCK_MONOTONIC (the same clock in every process of the machine).
func monotonicNanos() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

/// The PUB socket, noting when each topic's last frame was handed to nng.
final class TimedSink: FrameSink {
    private let publisher: NNGPublisher
    private let sent = Mutex<[String: (ns: Int64, bytes: Int)]>([:])

    init(publisher: NNGPublisher) { self.publisher = publisher }

    func send(_ frame: [UInt8]) throws {
        let topic = String(decoding: frame.prefix { $0 != 0 }, as: UTF8.self)
        let now = monotonicNanos()
        sent.withLock { $0[topic] = (now, frame.count) }
        try publisher.publish(frame)
    }

    func lastSent(_ topic: RealtimeTopic) -> (ns: Int64, bytes: Int)? { sent.withLock { $0[topic.rawValue] } }
}

/// The subscriber side, run in its own process (`transit-realtime bench-subscriber`): one line per message
/// received on standard output, "<topic> <id> <received ns> <decoded ns>", where the id is a `lat`
/// message's number or a realtime message's sequence number, and a realtime message is decoded.
public enum LatencySubscriber {
    public static func run(url: String) throws {
        let subscriber = try NNGSubscriber(dialing: url, topics: [[]], maxReceiveSize: 256 << 20, receiveBuffer: 1024)
        defer { subscriber.close() }
        while true {
            let bytes = try subscriber.receive()
            let received = monotonicNanos()
            let topicEnd = bytes.firstIndex(of: 0) ?? bytes.count
            let topic = String(decoding: bytes[..<topicEnd], as: UTF8.self)
            var id: UInt64 = 0
            var decoded = received
            if topic == "lat", bytes.count >= topicEnd + 9 {
                for k in 0..<8 { id |= UInt64(bytes[topicEnd + 1 + k]) << (8 * UInt64(k)) }
            } else if topic == "end" {
                return
            } else if let message = try? RealtimeCodec.decodeFramed(bytes) {
                decoded = monotonicNanos()
                id = message.seq
            }
            let line = "\(topic) \(id) \(received) \(decoded)\n"
            _ = line.utf8CString.withUnsafeBufferPointer { write(1, $0.baseAddress, $0.count - 1) }
        }
    }
}

/// The subscriber's process, as the publisher sees it: lines from its standard output.
public final class SubscriberProcess {
    public struct Line {
        var topic: String
        var id: UInt64
        var receivedNs: Int64
        var decodedNs: Int64
    }

    private let process: Process
    private let fd: Int32
    private var buffer: [UInt8] = []

    /// Starts `executable` with `arguments`; its standard output is read here, its standard error inherited.
    public init(executable: String, arguments: [String]) throws {
        let pipe = Pipe()
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = pipe
        try process.run()
        fd = pipe.fileHandleForReading.fileDescriptor
    }

    /// Stops the process (its id, nothing else).
    public func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// The next line, or nil after `timeoutMs` without one.
    func readLine(timeoutMs: Int32) throws -> Line? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let text = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                let parts = text.split(separator: " ")
                guard parts.count == 4, let id = UInt64(parts[1]), let received = Int64(parts[2]),
                    let decoded = Int64(parts[3])
                else {
                    throw FixtureError("subscriber: unexpected line \"\(text)\"")
                }
                return Line(topic: String(parts[0]), id: id, receivedNs: received, decodedNs: decoded)
            }
            var pending = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pending, 1, timeoutMs)
            if ready == 0 { return nil }
            if ready < 0 {
                if errno == EINTR { continue }
                throw FixtureError("subscriber: poll failed (errno \(errno))")
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { throw FixtureError("subscriber: its output ended (did it exit?)") }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// Lines until the one of `topic` and `id` (others are skipped); fails after 10 s.
    func await(topic: String, id: UInt64) throws -> Line {
        let deadline = monotonicNanos() + 10_000_000_000
        while monotonicNanos() < deadline {
            if let line = try readLine(timeoutMs: 1000), line.topic == topic, line.id == id { return line }
        }
        throw FixtureError("subscriber: no \(topic) message \(id) within 10 s")
    }
}
