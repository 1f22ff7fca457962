import TransitCore
// The GTFS-Realtime schema as protobuf-c itself sees it, read once from the descriptors protoc-c generated
// (so it cannot drift from what protobuf-c checks), shaped for WireCheck: per message, its fields' numbers,
// names, accepted wire types and nested messages, and the unknown number each field is renamed to when it
// arrives with a wire type protobuf-c would refuse.
import TransitProtoC

struct WireSchema: Sendable {
    struct Field: Sendable {
        let number: UInt32
        let name: String
        /// The wire type the schema gives the field (0 varint, 1 64-bit, 2 length-delimited, 5 32-bit).
        let wireType: UInt8
        /// Bit `1 << w` is set for each wire type protobuf-c unpacks this field from: the schema's, the
        /// packed form of a repeated scalar, and any for a bool (protobuf-c reads a bool from whatever bytes
        /// it is given, so a bool never fails the unpack and is never renamed).
        let accepted: UInt8
        /// Index in `messages` of the field's message type, for message fields.
        let message: Int?
        /// A number the message does not define, outside the extension ranges, whose tag is no longer than
        /// this field's: a mismatched occurrence gets its tag rewritten to it (same length), so protobuf-c
        /// keeps it as an unknown field. Distinct per field while the message has spare numbers of that tag
        /// length (StopTimeUpdate has); 0 when there is none at all.
        let spare: UInt32
    }

    /// What the wire check needs of a field, without its name (a plain value: no reference counting in the
    /// walk's inner loop).
    struct Slot: Sendable {
        /// 0 for a number the message does not define.
        let accepted: UInt8
        let wireType: UInt8
        /// Index in `messages`, or -1.
        let message: Int32
        let spare: UInt32

        static let unknown = Slot(accepted: 0, wireType: 0, message: -1, spare: 0)

        var isKnown: Bool { accepted != 0 }

        @inline(__always)
        func accepts(_ wireType: UInt8) -> Bool { accepted & (1 << wireType) != 0 }
    }

    struct Message: Sendable {
        /// Full protobuf name, e.g. "transit_realtime.TripUpdate.StopTimeUpdate".
        let name: String
        let fields: [Field]
        /// By field number, for numbers up to the largest the message defines.
        let slots: [Slot]

        init(name: String, fields: [Field]) {
            self.name = name
            self.fields = fields
            var table = [Slot](repeating: .unknown, count: Int(fields.map(\.number).max() ?? 0) + 1)
            for field in fields {
                table[Int(field.number)] = Slot(
                    accepted: field.accepted, wireType: field.wireType, message: Int32(field.message ?? -1),
                    spare: field.spare)
            }
            slots = table
        }

        @inline(__always)
        func slot(_ number: UInt32) -> Slot { number < slots.count ? slots[Int(number)] : .unknown }

        func field(_ number: UInt32) -> Field? { fields.first { $0.number == number } }
    }

    let messages: [Message]
    /// Every message's `slots` in one array, and where each message's start and end in it: the wire check
    /// walks this through one pointer instead of retaining a message's array for each message it enters.
    let slotTable: [Slot]
    let slotRanges: [Range<Int>]

    /// FeedMessage is message 0.
    static let feedMessage = 0

    /// The schema protobuf-c unpacks GTFS-Realtime feeds with.
    static let gtfsRealtime = WireSchema(root: transit_realtime__feed_message__descriptor)

    /// The index of the message with this full name.
    func index(of name: String) -> Int? { messages.firstIndex { $0.name == name } }

    /// The number a mismatched `field` of message `name` is renamed to (see `Field.spare`).
    func spare(of field: UInt32, in name: String) -> UInt32? {
        index(of: name).flatMap { messages[$0].field(field)?.spare }
    }

    private init(root: ProtobufCMessageDescriptor) {
        var builder = Builder()
        _ = builder.add(root, key: nil)
        messages = builder.messages.map { $0! }
        slotTable = messages.flatMap(\.slots)
        var start = 0
        slotRanges = messages.map { message in
            defer { start += message.slots.count }
            return start..<(start + message.slots.count)
        }
    }

    /// Builds the message list depth-first, each message type once (by descriptor address).
    private struct Builder {
        var messages: [Message?] = []
        var indexes: [UnsafeRawPointer: Int] = [:]

        mutating func add(_ d: ProtobufCMessageDescriptor, key: UnsafeRawPointer?) -> Int {
            if let key, let known = indexes[key] { return known }
            let index = messages.count
            messages.append(nil)
            if let key { indexes[key] = index }
            var fields: [(descriptor: ProtobufCFieldDescriptor, message: Int?)] = []
            for i in 0..<Int(d.n_fields) {
                let f = d.fields[i]
                var child: Int?
                if f.type == PROTOBUF_C_TYPE_MESSAGE, let nested = f.descriptor {
                    child = add(nested.assumingMemoryBound(to: ProtobufCMessageDescriptor.self).pointee, key: nested)
                }
                fields.append((f, child))
            }
            let spares = WireSchema.spares(for: fields.map(\.descriptor.id))
            messages[index] = Message(
                name: String(cString: d.name),
                fields: fields.map { f, child in
                    let wireType = WireSchema.wireType(f.type)
                    var accepted: UInt8 = 1 << wireType
                    if f.type == PROTOBUF_C_TYPE_BOOL { accepted = 0b0010_0111 }  // 0, 1, 2, 5
                    if f.label == PROTOBUF_C_LABEL_REPEATED && wireType != 2 { accepted |= 1 << 2 }  // packed
                    return Field(
                        number: f.id, name: String(cString: f.name), wireType: wireType, accepted: accepted,
                        message: child, spare: spares[f.id] ?? 0)
                })
            return index
        }
    }

    private static func wireType(_ type: ProtobufCType) -> UInt8 {
        switch type {
        case PROTOBUF_C_TYPE_SFIXED64, PROTOBUF_C_TYPE_FIXED64, PROTOBUF_C_TYPE_DOUBLE: 1
        case PROTOBUF_C_TYPE_STRING, PROTOBUF_C_TYPE_BYTES, PROTOBUF_C_TYPE_MESSAGE: 2
        case PROTOBUF_C_TYPE_SFIXED32, PROTOBUF_C_TYPE_FIXED32, PROTOBUF_C_TYPE_FLOAT: 5
        default: 0
        }
    }

    /// Bytes of the shortest tag of field `number`.
    static func tagLength(_ number: UInt32) -> Int { Varint.size(UInt64(number) << 3) }

    /// A spare number for each of `numbers` (a message's fields): the smallest free ones whose tags are no
    /// longer than the field's, in field order; when the free numbers of that length run out, the fields
    /// left share the first one.
    private static func spares(for numbers: [UInt32]) -> [UInt32: UInt32] {
        let taken = Set(numbers)
        func free(_ n: UInt32) -> Bool {
            !taken.contains(n) && !(1000...1999).contains(n) && !(9000...9999).contains(n)
        }
        var used = Set<UInt32>()
        var result: [UInt32: UInt32] = [:]
        for number in numbers.sorted() {
            let limit = tagLength(number)
            // Numbers 1...15 have 1-byte tags, up to 2047 2-byte ones: look only as far as needed.
            let candidates = (1...UInt32(limit == 1 ? 15 : 2047)).lazy.filter { free($0) && tagLength($0) <= limit }
            result[number] = candidates.first { !used.contains($0) } ?? candidates.first ?? 0
            if let spare = result[number], spare != 0 { used.insert(spare) }
        }
        return result
    }
}
