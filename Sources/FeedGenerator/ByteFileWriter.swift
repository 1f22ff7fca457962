#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Errors of writing the generated feed.
public enum FeedGeneratorError: Error, CustomStringConvertible, Equatable {
    case cannotCreateDirectory(path: String, reason: String)
    case cannotOpen(path: String, reason: String)
    case writeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason): "cannot create directory \(path): \(reason)"
        case .cannotOpen(let path, let reason): "cannot open \(path) for writing: \(reason)"
        case .writeFailed(let path, let reason): "cannot write \(path): \(reason)"
        }
    }
}

func errnoText() -> String {
    String(cString: strerror(errno))
}

/// Writes a file through one large byte buffer.
///
/// The generator writes ten million rows; building a `String` per field would dominate the run time, so
/// every value is formatted straight into this buffer and the buffer goes to the file in 4 MiB writes.
final class ByteFileWriter {
    let path: String
    private let fd: Int32
    private var capacity: Int
    private var buffer: UnsafeMutablePointer<UInt8>
    private var count = 0
    private(set) var bytesWritten = 0
    private var closed = false

    init(path: String, capacity: Int = 4 << 20) throws {
        self.path = path
        self.capacity = capacity
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw FeedGeneratorError.cannotOpen(path: path, reason: errnoText()) }
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        if !closed { _ = systemClose(fd) }
        buffer.deallocate()
    }

    /// Flushes and closes; the writer must not be used afterwards.
    func close() throws {
        guard !closed else { return }
        try flush()
        closed = true
        if systemClose(fd) != 0 {
            throw FeedGeneratorError.writeFailed(path: path, reason: errnoText())
        }
    }

    func flush() throws {
        var offset = 0
        while offset < count {
            let n = systemWrite(fd, buffer + offset, count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw FeedGeneratorError.writeFailed(path: path, reason: errnoText())
            }
            offset += n
        }
        bytesWritten += count
        count = 0
    }

    /// Makes room for `n` more bytes. Callers then write with the unchecked `put` functions.
    @inline(__always)
    func reserve(_ n: Int) throws {
        if count + n > capacity { try makeRoom(n) }
    }

    private func makeRoom(_ n: Int) throws {
        try flush()
        if n > capacity {
            // a single value larger than the buffer: grow it rather than overrun it
            buffer.deallocate()
            capacity = n
            buffer = .allocate(capacity: n)
        }
    }

    // MARK: unchecked writes (after `reserve`)

    @inline(__always)
    func put(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    @inline(__always)
    func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        (buffer + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    /// A non-negative integer in decimal.
    @inline(__always)
    func putDecimal(_ value: Int) {
        var v = value
        if v < 10 {
            put(UInt8(48 + v))
            return
        }
        var digits = 0
        var probe = v
        while probe > 0 { probe /= 10; digits += 1 }
        var p = count + digits - 1
        while v > 0 {
            buffer[p] = UInt8(48 + v % 10)
            v /= 10
            p -= 1
        }
        count += digits
    }

    /// A GTFS time `HH:MM:SS` (hours may exceed 24; at least two digits).
    @inline(__always)
    func putTime(_ seconds: Int) {
        let h = seconds / 3600, m = (seconds / 60) % 60, s = seconds % 60
        if h < 10 { put(48) }
        putDecimal(h)
        put(58)
        put(UInt8(48 + m / 10)); put(UInt8(48 + m % 10))
        put(58)
        put(UInt8(48 + s / 10)); put(UInt8(48 + s % 10))
    }

    /// A coordinate given in millionths of a degree, as `-33.870123`.
    @inline(__always)
    func putMicrodegrees(_ value: Int) {
        var v = value
        if v < 0 { put(45); v = -v }
        putDecimal(v / 1_000_000)
        put(46)
        var frac = v % 1_000_000
        var p = count + 5
        for _ in 0..<6 {
            buffer[p] = UInt8(48 + frac % 10)
            frac /= 10
            p -= 1
        }
        count += 6
    }

    // MARK: checked writes (reserve themselves)

    func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { bytes in
            try reserve(bytes.count)
            put(bytes)
        }
    }

    /// A CSV field: quoted (with doubled quotes) only when it holds a comma, quote or line break.
    func writeField(_ text: String) throws {
        var text = text
        try text.withUTF8 { bytes in
            var needsQuotes = false
            var quotes = 0
            for b in bytes {
                if b == 44 || b == 10 || b == 13 { needsQuotes = true }
                if b == 34 { needsQuotes = true; quotes += 1 }
            }
            try reserve(bytes.count + quotes + 2)
            guard needsQuotes else { put(bytes); return }
            put(34)
            for b in bytes {
                if b == 34 { put(34) }
                put(b)
            }
            put(34)
        }
    }

    func writeDecimal(_ value: Int) throws {
        try reserve(24)
        if value < 0 { put(45); putDecimal(-value) } else { putDecimal(value) }
    }

    func writeByte(_ byte: UInt8) throws {
        try reserve(1)
        put(byte)
    }
}

// File-scope wrappers: inside the class, `close` and `write` would name its own methods.
private func systemClose(_ fd: Int32) -> Int32 {
    close(fd)
}

private func systemWrite(_ fd: Int32, _ bytes: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    write(fd, bytes, count)
}
