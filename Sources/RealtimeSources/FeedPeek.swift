// What a replay needs to know of a recorded feed without decoding it: its header timestamp (the moment it
// was current, which orders and times the snapshots) and which kinds its entities hold (a folder of plain .pb
// files names no kind). A walk over the protobuf wire of the FeedMessage's first fields; RealtimeSources does
// not decode feeds (that is GTFSRealtime's job, in the realtime service).
import Foundation
import TransitCore

struct FeedPeek: Equatable {
    /// FeedHeader.timestamp; nil when absent (or the bytes are not a feed).
    var timestamp: UInt64?
    /// The kinds of the entities read: trip_update, vehicle, alert.
    var kinds: Set<SourceKind> = []

    /// How much of a file is read: the header comes first, and the start of the first entity (its id, then its
    /// trip_update, vehicle or alert field) tells the kinds; an entity cut off by the prefix is read as far as
    /// it goes. Small, because a folder of a day of one-minute captures is peeked at file by file.
    static let prefixBytes = 16 << 10

    /// Peeks at the start of `bytes`; a cut-off or malformed part ends the walk with what was read.
    init(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            var entities = 0
            while offset < raw.count, entities < 64 {
                guard let next = Self.field(raw, at: &offset) else { return }
                guard let payload = next.1 else { continue }  // not length-delimited: skipped
                let field = next.0
                switch field {
                case 1: timestamp = Self.headerTimestamp(raw, payload) ?? timestamp
                case 2:
                    entities += 1
                    kinds.formUnion(Self.entityKinds(raw, payload))
                default: break
                }
            }
        }
    }

    /// Peeks at the first `prefixBytes` of a file; nil when it cannot be read.
    init?(file path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: Self.prefixBytes) else { return nil }
        self.init([UInt8](data))
    }

    /// The next field at `offset`: its number and, when length-delimited, the range of its payload (cut to the
    /// bytes there are). nil at a malformed tag or a wire type protobuf does not have.
    private static func field(_ raw: UnsafeRawBufferPointer, at offset: inout Int) -> (Int, Range<Int>?)? {
        guard let key = Varint.read(raw, at: &offset) else { return nil }
        let field = Int(truncatingIfNeeded: key >> 3)
        switch key & 7 {
        case 0: return Varint.read(raw, at: &offset) == nil ? nil : (field, nil)
        case 1: offset += 8
        case 5: offset += 4
        case 2:
            guard let length = Varint.read(raw, at: &offset), length <= UInt64(Int.max - offset) else { return nil }
            let start = offset
            offset = min(raw.count, offset + Int(length))
            return (field, start..<offset)
        default: return nil
        }
        return offset <= raw.count ? (field, nil) : nil
    }

    private static func headerTimestamp(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>) -> UInt64? {
        let header = UnsafeRawBufferPointer(rebasing: raw[range])
        var offset = 0
        while offset < header.count {
            let start = offset
            guard let key = Varint.read(header, at: &offset) else { return nil }
            if key == (3 << 3) { return Varint.read(header, at: &offset) }  // timestamp, a varint
            offset = start
            guard Self.field(header, at: &offset) != nil else { return nil }
        }
        return nil
    }

    private static func entityKinds(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>) -> Set<SourceKind> {
        let entity = UnsafeRawBufferPointer(rebasing: raw[range])
        var kinds = Set<SourceKind>()
        var offset = 0
        while offset < entity.count, let next = Self.field(entity, at: &offset) {
            guard next.1 != nil else { continue }
            switch next.0 {
            case 3: kinds.insert(.tripUpdates)
            case 4: kinds.insert(.vehiclePositions)
            case 5: kinds.insert(.alerts)
            default: break
            }
        }
        return kinds
    }
}
