// The lenient part of decoding. protobuf-c refuses a whole message when one known field arrives with
// another wire type than the schema's (Transport for NSW sends StopTimeUpdate field 6, which the official
// schema gives to the stop_time_properties message, as a varint), and says nothing about where a body is
// broken. When protobuf-c refuses a body, WireCheck walks its wire against the schema protobuf-c uses
// (WireSchema) and either
// - finds it well-formed but for mismatched fields: each is counted (by field path, with its first
//   occurrence) and its tag is rewritten, in a copy of the bytes, to an unknown number of the same tag
//   length, so protobuf-c skips it like any unknown field and keeps the rest of its message; or
// - finds where it really breaks (truncated, an impossible length, a group): the byte offset and field path
//   for the error.
//
// Why a rewrite and not a reader of our own: protobuf-c cannot be told to skip a mismatched field, and
// replacing its unpack would mean a second decoder to keep equal to the first. The rewrite keeps protobuf-c
// as the one decoder, keeps each value's bytes in place (a renamed field stays readable as an unknown
// field: that is how TfNSW's field 6 occupancy reaches the model), and costs nothing on a clean body: the
// check only runs after protobuf-c refused. A body with mismatches pays for a failed unpack, the check,
// a copy and a second unpack; the split decode does this per refused entity only.

/// What the wire check found in bytes protobuf-c refused.
struct WireCheck {
    /// Mismatched fields in order of first occurrence, with their counts.
    private(set) var skips: [SkippedField] = []
    /// Where the bytes break, if they do; then `skips` covers only the bytes before it.
    private(set) var fault: WireFault?
    /// Tags to rewrite: offset, tag length, new number, wire type.
    private var renames: [(offset: Int, length: Int, number: UInt32, wireType: UInt8)] = []
    private var skipIndex: [String: Int] = [:]
    private let schema = WireSchema.gtfsRealtime
    /// The path's first names, before those of the walk's steps.
    private let prefix: [String]

    /// One step of the path: field `field` of message `message`. (Names are looked up only for a report.)
    private struct Step {
        let message: Int
        let field: UInt32
    }

    /// Checks `bytes[range]` as message `message` of the schema, whose field path starts with `path`
    /// (empty for a whole FeedMessage). Offsets are positions in `bytes`.
    init(
        _ bytes: UnsafeRawBufferPointer, range: Range<Int>? = nil, message: Int = WireSchema.feedMessage,
        path: [String] = []
    ) {
        prefix = path
        var steps: [Step] = []
        steps.reserveCapacity(8)
        let table = schema.slotTable, ranges = schema.slotRanges
        table.withUnsafeBufferPointer { table in
            ranges.withUnsafeBufferPointer { ranges in
                _ = walk(bytes, range ?? 0..<bytes.count, message, &steps, table, ranges)
            }
        }
    }

    /// True when rewriting the mismatched tags makes the bytes acceptable (as far as the wire goes).
    var isRepairable: Bool { fault == nil && !renames.isEmpty }

    /// A copy of `bytes[range]` with every mismatched tag renamed (see the file comment).
    func repaired(_ bytes: UnsafeRawBufferPointer, range: Range<Int>? = nil) -> [UInt8] {
        let range = range ?? 0..<bytes.count
        var copy = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[range]))
        for rename in renames {
            WireCheck.writeTag(
                number: rename.number, wireType: rename.wireType, length: rename.length,
                into: &copy, at: rename.offset - range.lowerBound)
        }
        return copy
    }

    /// The tag of `number` and `wireType` in exactly `length` bytes (padded with continuation bytes when
    /// shorter: protobuf-c reads tags of up to 5 bytes, redundant ones included).
    static func writeTag(number: UInt32, wireType: UInt8, length: Int, into bytes: inout [UInt8], at offset: Int) {
        var rest = UInt64(number) >> 4
        bytes[offset] = UInt8(truncatingIfNeeded: (UInt64(number) & 0xF) << 3) | wireType | (length > 1 ? 0x80 : 0)
        for k in 1..<max(length, 1) {
            bytes[offset + k] = UInt8(truncatingIfNeeded: rest & 0x7F) | (k < length - 1 ? 0x80 : 0)
            rest >>= 7
        }
    }

    // MARK: the walk

    /// Walks one message; false once a fault is found.
    private mutating func walk(
        _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ m: Int, _ path: inout [Step],
        _ table: UnsafeBufferPointer<WireSchema.Slot>, _ ranges: UnsafeBufferPointer<Range<Int>>
    ) -> Bool {
        let slots = UnsafeBufferPointer(rebasing: table[ranges[m]])
        var reader = WireReader(bytes, range)
        while !reader.atEnd {
            let tagStart = reader.offset
            guard let (number, wireType) = reader.protobufCTag() else {
                return fail(at: tagStart, path, "unreadable tag")
            }
            let tagLength = reader.offset - tagStart
            let field = number < slots.count ? slots[Int(number)] : .unknown
            let valueStart = reader.offset
            let here = Step(message: m, field: number)
            var payload: Range<Int>?
            if reader.atEnd, [0, 1, 2, 5].contains(wireType) {
                return fail(at: valueStart, path, here, "no value: its message ends after the tag")
            }
            switch wireType {
            case 0:
                guard reader.varint() != nil else {
                    return fail(at: valueStart, path, here, "varint cut off or longer than 10 bytes")
                }
            case 1, 5:
                let size = wireType == 1 ? 8 : 4
                guard reader.skip(size) else {
                    return fail(
                        at: valueStart, path, here,
                        "\(size)-byte value cut off (\(reader.end - valueStart) bytes left in its message)")
                }
            case 2:
                // protobuf-c reads length prefixes of at most 5 bytes.
                guard let length = reader.varint(maxBytes: 5) else {
                    return fail(at: valueStart, path, here, "unreadable length")
                }
                let left = reader.end - reader.offset
                guard length <= UInt64(left) else {
                    return fail(
                        at: valueStart, path, here,
                        "length \(length) runs past the end of its message (\(left) bytes left)")
                }
                payload = reader.offset..<(reader.offset + Int(length))
                reader.offset += Int(length)
            case 3, 4:
                return fail(at: tagStart, path, here, "groups (wire types 3 and 4) are not supported")
            default:
                return fail(at: tagStart, path, here, "invalid wire type \(wireType)")
            }
            guard field.isKnown else { continue }  // unknown fields and extensions: protobuf-c keeps them as they are
            if field.accepts(wireType) {
                if field.message >= 0, let payload {
                    path.append(here)
                    defer { path.removeLast() }
                    guard walk(bytes, payload, Int(field.message), &path, table, ranges) else { return false }
                }
            } else if field.spare != 0 {
                record(path, "\(number)", at: tagStart, wireType: wireType, expected: field.wireType)
                renames.append((tagStart, tagLength, field.spare, wireType))
            } else {
                return fail(at: tagStart, path, here, "wire type \(wireType) where the schema has \(field.wireType)")
            }
        }
        return true
    }

    /// "entity.trip_update.stop_time_update" for the steps, then `last` (a field's name or number).
    private func joined(_ path: [Step], _ last: String?) -> String {
        let names = path.map { step in
            schema.messages[step.message].field(step.field)?.name ?? "\(step.field)"
        }
        return (prefix + names + (last.map { [$0] } ?? [])).joined(separator: ".")
    }

    private mutating func fail(at offset: Int, _ path: [Step], _ problem: String) -> Bool {
        fault = WireFault(offset: offset, field: joined(path, nil), problem: problem)
        return false
    }

    private mutating func fail(at offset: Int, _ path: [Step], _ step: Step, _ problem: String) -> Bool {
        fail(at: offset, path + [step], problem)
    }

    private mutating func record(_ path: [Step], _ last: String, at offset: Int, wireType: UInt8, expected: UInt8) {
        let key = joined(path, last)
        if let index = skipIndex[key] {
            skips[index].count += 1
        } else {
            skipIndex[key] = skips.count
            skips.append(
                SkippedField(
                    path: key, count: 1, firstOffset: offset, wireType: Int(wireType), expectedWireType: Int(expected)))
        }
    }
}

extension SkippedField {
    /// `more` added to `list` (both in order of first occurrence, `more` from later bytes): counts of the
    /// same path add up, the first occurrence stays the earlier one.
    static func merge(_ more: [SkippedField], into list: inout [SkippedField]) {
        for skip in more {
            if let index = list.firstIndex(where: { $0.path == skip.path }) {
                list[index].count += skip.count
            } else {
                list.append(skip)
            }
        }
    }
}

extension WireReader {
    /// A tag as protobuf-c reads it: at most 5 bytes, and a first byte whose field bits are not all zero.
    /// Returns the field number (truncated to 32 bits, as protobuf-c does) and the wire type.
    @inline(__always)
    mutating func protobufCTag() -> (number: UInt32, wireType: UInt8)? {
        guard offset < end else { return nil }
        let first = bytes[offset]
        guard first & 0xF8 != 0 else { return nil }
        offset += 1
        var number = UInt32(first & 0x7F) >> 3
        if first & 0x80 == 0 { return (number, first & 7) }
        var shift: UInt32 = 4
        let limit = min(end, offset + 4)
        while offset < limit {
            let byte = bytes[offset]
            offset += 1
            number |= UInt32(byte & 0x7F) &<< shift
            if byte & 0x80 == 0 { return (number, first & 7) }
            shift += 7
        }
        return nil
    }
}
