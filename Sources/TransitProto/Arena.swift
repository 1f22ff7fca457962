// The C memory behind one protobuf-c message tree that Swift builds for packing.
//
// A protobuf-c struct can only point at memory that outlives the Swift expression that filled it
// (`&local` is not allowed in a struct field), so every sub-message, string and repeated array goes into
// an arena: a bump allocator over a few malloc'd chunks, freed all at once when the arena dies. One
// response of 30 departures then costs a couple of mallocs instead of several hundred.
//
// Decoding uses it too: protobuf-c unpacks into an arena (see ProtoWire), so the hundreds of small
// mallocs and frees of an unpacked message become bump allocations and one free per chunk.
//
// Nothing here knows about transit.proto: the realtime service's messages use the same arena.

/// A bump allocator owning the C memory of one message tree under construction.
///
/// Use it only through `ProtoArena.with { arena in ... }`, which keeps the arena (and so every pointer it
/// handed out) alive until the closure returns: pack the message inside the closure.
package final class ProtoArena {
    /// Every chunk is aligned to this, and so is every allocation: enough for any protobuf-c field
    /// (pointers, size_t, double, uint64_t).
    private static let alignment = 16
    package static let firstChunkSize = 4 * 1024
    private static let maxChunkSize = 1024 * 1024

    private var chunks: [UnsafeMutableRawPointer] = []
    private var cursor: UnsafeMutableRawPointer?
    private var remaining = 0
    private var nextChunkSize: Int

    private init(capacity: Int) {
        nextChunkSize = max(capacity, 64)
    }

    deinit {
        for chunk in chunks { chunk.deallocate() }
    }

    /// Runs `body` with a fresh arena and frees all its memory afterwards. Pointers from the arena must not
    /// escape the closure. `capacity` sizes the first chunk (later ones double, up to 1 MiB).
    package static func with<R, E: Error>(
        capacity: Int = ProtoArena.firstChunkSize, _ body: (ProtoArena) throws(E) -> R
    ) throws(E) -> R {
        let arena = ProtoArena(capacity: capacity)
        // Without this, ARC may free the arena right after its last use inside `body`, before the pack.
        return try withExtendedLifetime(arena) { () throws(E) -> R in try body(arena) }
    }

    /// Uninitialised memory for `byteCount` bytes, aligned to 16.
    package func allocate(byteCount: Int) -> UnsafeMutableRawPointer {
        let size = (max(byteCount, 1) + Self.alignment - 1) & ~(Self.alignment - 1)
        if size > remaining { newChunk(atLeast: size) }
        let p = cursor.unsafelyUnwrapped
        cursor = p + size
        remaining -= size
        return p
    }

    private func newChunk(atLeast size: Int) {
        let chunkSize = max(size, nextChunkSize)
        nextChunkSize = max(min(nextChunkSize * 2, Self.maxChunkSize), nextChunkSize)
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: Self.alignment)
        chunks.append(chunk)
        cursor = chunk
        remaining = chunkSize
    }

    /// Uninitialised storage for `count` values of `T`.
    package func allocate<T>(_ type: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        precondition(MemoryLayout<T>.alignment <= Self.alignment, "ProtoArena: \(T.self) needs a larger alignment")
        return allocate(byteCount: MemoryLayout<T>.stride * count).bindMemory(to: T.self, capacity: count)
    }

    /// A new message struct, set to its defaults by the generated `xxx__init` function.
    package func message<M>(_ initialize: (UnsafeMutablePointer<M>?) -> Void) -> UnsafeMutablePointer<M> {
        let m = allocate(M.self, count: 1)
        initialize(m)
        return m
    }

    /// A new message struct set to its defaults, then filled by `fill`:
    ///
    ///     arena.message(transit__stop_query__init) { m in m.stop_id = arena.string(q.stopId) }
    package func message<M>(
        _ initialize: (UnsafeMutablePointer<M>?) -> Void, _ fill: (inout M) -> Void
    ) -> UnsafeMutablePointer<M> {
        let m = message(initialize)
        fill(&m.pointee)
        return m
    }

    /// A NUL-terminated UTF-8 copy of `s`.
    ///
    /// protobuf-c measures strings with strlen, so a string with an embedded NUL is cut there on the wire.
    package func string(_ s: String) -> UnsafeMutablePointer<CChar> {
        if let copy = s.utf8.withContiguousStorageIfAvailable({ copyCString($0) }) { return copy }
        return Array(s.utf8).withUnsafeBufferPointer { copyCString($0) }
    }

    /// nil (the field is absent) or a copy of `s`.
    package func string(_ s: String?) -> UnsafeMutablePointer<CChar>? {
        guard let s else { return nil }
        return string(s)
    }

    private func copyCString(_ utf8: UnsafeBufferPointer<UInt8>) -> UnsafeMutablePointer<CChar> {
        let out = allocate(byteCount: utf8.count + 1)
        if let base = utf8.baseAddress { out.copyMemory(from: base, byteCount: utf8.count) }
        out.storeBytes(of: 0, toByteOffset: utf8.count, as: UInt8.self)
        return out.bindMemory(to: CChar.self, capacity: utf8.count + 1)
    }

    /// A repeated scalar field: `(n_xxx, xxx) = arena.values(array)`. Empty gives `(0, nil)`.
    package func values<T: BitwiseCopyable>(_ values: [T]) -> (Int, UnsafeMutablePointer<T>?) {
        guard !values.isEmpty else { return (0, nil) }
        let out = allocate(T.self, count: values.count)
        values.withUnsafeBufferPointer { out.initialize(from: $0.baseAddress!, count: $0.count) }
        return (values.count, out)
    }

    /// A repeated string field: `(n_xxx, xxx) = arena.strings(array)`. Empty gives `(0, nil)`.
    package func strings(_ values: [String]) -> (Int, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) {
        guard !values.isEmpty else { return (0, nil) }
        let out = allocate(UnsafeMutablePointer<CChar>?.self, count: values.count)
        for i in values.indices { (out + i).initialize(to: string(values[i])) }
        return (values.count, out)
    }

    /// A repeated message field: `(n_xxx, xxx) = arena.messages(elements) { make one }`.
    /// Empty gives `(0, nil)`.
    package func messages<Element, M>(
        _ elements: [Element], _ make: (Element) -> UnsafeMutablePointer<M>
    ) -> (Int, UnsafeMutablePointer<UnsafeMutablePointer<M>?>?) {
        guard !elements.isEmpty else { return (0, nil) }
        let out = allocate(UnsafeMutablePointer<M>?.self, count: elements.count)
        // Indexing passes each element borrowed; `enumerated()` would copy (retain) every one.
        for i in elements.indices { (out + i).initialize(to: make(elements[i])) }
        return (elements.count, out)
    }
}
