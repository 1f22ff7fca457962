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

    /// Unpacks `bytes`, runs `body` on the message and frees it. `body` must copy out what it keeps.
    /// Unpack failure (truncated or garbage bytes) throws `.malformed`; errors from `body` get
    /// `messageName` as their message.
    package static func withUnpacked<M, R>(
        _ bytes: UnsafeRawBufferPointer,
        messageName: StaticString,
        unpack: (UnsafeMutablePointer<ProtobufCAllocator>?, Int, UnsafePointer<UInt8>?) -> UnsafeMutablePointer<M>?,
        free: (UnsafeMutablePointer<M>?, UnsafeMutablePointer<ProtobufCAllocator>?) -> Void,
        _ body: (UnsafePointer<M>) throws(ProtoDecodeError) -> R
    ) throws(ProtoDecodeError) -> R {
        let data = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        guard let message = withEmptyFallback(data, { unpack(nil, bytes.count, $0) }) else {
            throw ProtoDecodeError(message: "\(messageName)", field: "", reason: .malformed(byteCount: bytes.count))
        }
        defer { free(message, nil) }
        do {
            return try body(message)
        } catch {
            var named = error
            named.message = "\(messageName)"
            throw named
        }
    }

    /// An empty buffer may have no base address; protobuf-c reads nothing then, but gets a valid pointer.
    private static func withEmptyFallback<T>(
        _ data: UnsafePointer<UInt8>?, _ body: (UnsafePointer<UInt8>) -> T
    ) -> T {
        if let data { return body(data) }
        var empty: UInt8 = 0
        return withUnsafePointer(to: &empty) { body($0) }
    }
}
