// Why a body is not a usable GTFS-Realtime feed.

/// A body that is not a GTFS-Realtime FeedMessage at all. (A feed with a few broken entities decodes; those
/// are listed in `FeedMessage.problems`.)
public struct GTFSRealtimeDecodeError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// A 0-byte body.
        case empty
        /// Larger than the decoder's limit; not unpacked.
        case tooLarge(limit: Int)
        /// Text (an HTML error page, JSON, a plain message) instead of protobuf; `start` is its first line,
        /// cut to 40 characters.
        case text(start: String)
        /// protobuf-c could not unpack it: truncated, or bytes that are not protobuf.
        case malformed
        /// It unpacked, but has no header or the header has no gtfs_realtime_version.
        case missingField(String)
    }

    public var reason: Reason
    /// Size of the body.
    public var byteCount: Int
    /// For `.malformed`: where the wire first breaks, when the decoder's wire check found it.
    public var fault: WireFault?

    public init(reason: Reason, byteCount: Int, fault: WireFault? = nil) {
        self.reason = reason
        self.byteCount = byteCount
        self.fault = fault
    }

    public var description: String {
        let size = "\(byteCount) bytes"
        switch reason {
        case .empty:
            return "not a GTFS-Realtime FeedMessage: the body is empty (0 bytes)"
        case .tooLarge(let limit):
            return "GTFS-Realtime feed too large: \(size), the limit is \(limit) bytes"
        case .text(let start):
            return "not a GTFS-Realtime FeedMessage (starts with '\(start)'), \(size)"
        case .malformed:
            let at = fault.map { ": \($0)" } ?? ""
            return "not a GTFS-Realtime FeedMessage: \(size) of truncated or invalid protobuf\(at)"
        case .missingField(let field):
            return "not a GTFS-Realtime FeedMessage: missing \(field), \(size)"
        }
    }
}

/// Where a refused body breaks the wire format.
public struct WireFault: Sendable, Hashable, CustomStringConvertible {
    /// Byte offset in the body of the tag or value that cannot be read.
    public var offset: Int
    /// Field names from the FeedMessage down to the broken field (its number when the schema has none),
    /// e.g. "entity.trip_update.stop_time_update.arrival"; for an unreadable tag, the message it is in
    /// ("" at the top level).
    public var field: String
    /// What is wrong, e.g. "length 57 runs past the end of its message (12 bytes left)".
    public var problem: String

    public init(offset: Int, field: String, problem: String) {
        self.offset = offset
        self.field = field
        self.problem = problem
    }

    public var description: String { "at byte \(offset) in \(field.isEmpty ? "FeedMessage" : field): \(problem)" }
}

extension GTFSRealtimeDecodeError {
    /// The error for bytes protobuf-c refused (or that lack a header): text gets quoted, the rest is
    /// "malformed" (with `fault` when known) / "missing".
    static func classify(_ bytes: UnsafeRawBufferPointer, otherwise reason: Reason, fault: WireFault? = nil)
        -> GTFSRealtimeDecodeError
    {
        if let start = textStart(bytes) {
            return GTFSRealtimeDecodeError(reason: .text(start: start), byteCount: bytes.count)
        }
        return GTFSRealtimeDecodeError(
            reason: reason, byteCount: bytes.count, fault: reason == .malformed ? fault : nil)
    }

    /// The first line of `bytes` when they look like text (a protobuf feed has control bytes within its
    /// first few bytes: tags and lengths), else nil.
    static func textStart(_ bytes: UnsafeRawBufferPointer) -> String? {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }  // UTF-8 byte order mark
        body = body.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let sample = body.prefix(64)
        guard !sample.isEmpty,
            sample.allSatisfy({ ($0 >= 0x20 && $0 != 0x7F) || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }),
            isUTF8(sample)
        else { return nil }
        let line = sample.prefix { $0 != 0x0A && $0 != 0x0D }.prefix(40)
        return String(decoding: line, as: UTF8.self)
    }

    /// Valid UTF-8, allowing the sample to end inside a character.
    private static func isUTF8(_ sample: Slice<UnsafeRawBufferPointer>) -> Bool {
        (0...min(3, sample.count - 1)).contains { cut in String(validating: sample.dropLast(cut), as: UTF8.self) != nil
        }
    }
}
