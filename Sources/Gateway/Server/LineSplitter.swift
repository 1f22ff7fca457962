#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a byte stream into request lines (GATEWAY.md §1): a line ends with `\n` or `\r\n`; a line longer
/// than `limit` bytes (without its terminator) is reported once as `.tooLong` and the rest of it, up to the
/// next `\n`, is discarded, so the connection can go on. Bytes are taken as they come (`append`) and lines
/// are pulled one at a time (`next`), which lets the connection stop taking lines while many are pending.
struct LineSplitter {
    enum Event: Equatable {
        /// A line without its terminator (it may be blank: the caller decides).
        case line([UInt8])
        /// A line passed `limit`; what follows up to its end is dropped.
        case tooLong
    }

    let limit: Int
    private var buffer: [UInt8] = []
    /// First byte not yet returned.
    private var start = 0
    /// Bytes from `start` already searched for `\n` (none found).
    private var scanned = 0
    /// Inside an over-long line: drop bytes up to the next `\n`.
    private var discarding = false

    init(limit: Int) {
        self.limit = limit
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 64 * 1024 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The next complete line, a `.tooLong`, or nil when more bytes are needed.
    mutating func next() -> Event? {
        while true {
            if discarding {
                guard let newline = findNewline(from: start) else {
                    start = buffer.count
                    return nil
                }
                start = newline + 1
                discarding = false
                continue
            }
            if let newline = findNewline(from: start + scanned) {
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = Array(buffer[start..<end])
                start = newline + 1
                scanned = 0
                return line.count > limit ? .tooLong : .line(line)
            }
            let pending = buffer.count - start
            scanned = pending
            // One byte more than the limit may still be the `\r` of a `\r\n` not yet received.
            if pending > limit + 1 || (pending == limit + 1 && buffer.last != UInt8(ascii: "\r")) {
                discarding = true
                start = buffer.count
                scanned = 0
                return .tooLong
            }
            return nil
        }
    }

    /// At the end of the input: the last line if it had no terminator (nil if nothing is left, or if it was
    /// the tail of an over-long line already reported).
    mutating func finish() -> Event? {
        defer {
            buffer.removeAll()
            start = 0
            scanned = 0
        }
        if discarding {
            discarding = false
            return nil
        }
        guard start < buffer.count else { return nil }
        var end = buffer.count
        if buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let line = Array(buffer[start..<end])
        return line.count > limit ? .tooLong : .line(line)
    }

    private func findNewline(from index: Int) -> Int? {
        guard index < buffer.count else { return nil }
        return buffer.withUnsafeBytes { raw -> Int? in
            guard let base = raw.baseAddress,
                let hit = memchr(base + index, Int32(UInt8(ascii: "\n")), raw.count - index)
            else { return nil }
            return base.distance(to: UnsafeRawPointer(hit))
        }
    }
}
