// Packing and unpacking through the functions protoc-c generates for each message, so a caller never
// handles the raw protobuf-c memory of a whole message itself.
import TransitProtoC

package enum ProtoWire {
    /// Packs a message into exactly `get_packed_size` bytes.
    ///
    ///     ProtoWire.pack(m, size: transit__stop__get_packed_size, pack: transit__stop__pack)
    package static func pack<M>(
        _ message: UnsafePointer<M>,
        size: (UnsafePointer<M>?) -> Int,
        pack: (UnsafePointer<M>?, UnsafeMutablePointer<UInt8>?) -> Int
    ) -> [UInt8] {
        let count = size(message)
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = pack(message, buffer.baseAddress)
            precondition(initialized == count, "protobuf-c packed \(initialized) bytes, promised \(count)")
        }
    }

    /// Unpacks `bytes` into an arena, runs `body` on the message and frees it all. `body` must copy out
    /// what it keeps. Unpack failure (truncated or garbage bytes) throws `.malformed`; errors from `body`
    /// get `messageName` as their message.
    ///
    ///     try ProtoWire.withUnpacked(bytes, messageName: "transit.Stop", unpack: transit__stop__unpack) { m in ... }
    package static func withUnpacked<M, R>(
        _ bytes: UnsafeRawBufferPointer,
        messageName: StaticString,
        unpack: (UnsafeMutablePointer<ProtobufCAllocator>?, Int, UnsafePointer<UInt8>?) -> UnsafeMutablePointer<M>?,
        _ body: (UnsafePointer<M>) throws(ProtoDecodeError) -> R
    ) throws(ProtoDecodeError) -> R {
        // The unpacked structs and strings take about twice the wire size; one chunk usually holds them.
        try withArenaAllocator(capacity: 2 * bytes.count + 512) { (allocator) throws(ProtoDecodeError) -> R in
            guard let message = Self.unpack(allocator, bytes, unpack) else {
                throw ProtoDecodeError(message: "\(messageName)", field: "", reason: .malformed(byteCount: bytes.count))
            }
            do throws(ProtoDecodeError) {
                return try body(message)
            } catch {
                var named = error
                named.message = "\(messageName)"
                throw named
            }
        }
    }

    /// Runs `body` with a protobuf-c allocator over a fresh arena (freed afterwards, with everything
    /// unpacked through it). For unpacking several messages into one arena, e.g. a feed's entities on one
    /// thread: `unpack(allocator, bytes, transit_realtime__feed_entity__unpack)`.
    package static func withArenaAllocator<R, E: Error>(
        capacity: Int, _ body: (UnsafeMutablePointer<ProtobufCAllocator>) throws(E) -> R
    ) throws(E) -> R {
        try ProtoArena.with(capacity: capacity) { (arena) throws(E) -> R in
            var allocator = ProtobufCAllocator(
                // The guaranteed reference skips a retain/release pair per allocation (a sixth of decode
                // time otherwise); `with` keeps the arena alive meanwhile.
                alloc: { data, size in
                    Unmanaged<ProtoArena>.fromOpaque(data!)._withUnsafeGuaranteedRef { $0.allocate(byteCount: size) }
                },
                free: { _, _ in },  // the arena frees everything at once
                allocator_data: Unmanaged.passUnretained(arena).toOpaque()
            )
            return try withUnsafeMutablePointer(to: &allocator) { (pointer) throws(E) -> R in try body(pointer) }
        }
    }

    /// One message unpacked through `allocator` (see `withArenaAllocator`); nil when protobuf-c refuses
    /// the bytes (truncated, garbage, a required field missing).
    package static func unpack<M>(
        _ allocator: UnsafeMutablePointer<ProtobufCAllocator>, _ bytes: UnsafeRawBufferPointer,
        _ unpack: (UnsafeMutablePointer<ProtobufCAllocator>?, Int, UnsafePointer<UInt8>?) -> UnsafeMutablePointer<M>?
    ) -> UnsafeMutablePointer<M>? {
        // An empty buffer may have no base address; protobuf-c reads nothing then, but gets a valid pointer.
        let empty: UInt8 = 0
        return withUnsafePointer(to: empty) { emptyPointer in
            unpack(allocator, bytes.count, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? emptyPointer)
        }
    }
}
