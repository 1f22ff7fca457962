// The module's entry point: bytes of a GTFS-Realtime feed <-> FeedMessage, through protobuf-c.
import TransitProto
import TransitProtoC

public enum GTFSRealtimeCodec {
    /// The default size limit of a feed body: 64 MiB.
    public static let defaultMaxBytes = 64 * 1024 * 1024

    /// Decodes a FeedMessage.
    ///
    /// Unknown fields and extensions (e.g. Transport for NSW's 1007) are skipped; enum numbers newer than
    /// this code become `.unknown(n)`. Entities that break the spec (a trip update without its trip, a
    /// position without latitude, an alert without informed entity, a duplicate id, ...) are left out and
    /// listed in `problems`. Throws when the body as a whole is unusable: empty, larger than `maxBytes`
    /// (checked before unpacking), text such as an HTML error page, truncated or garbage bytes, or no header.
    ///
    /// Cost: a feed of 3,000 trip updates x 40 stop updates (4.7 MB) takes about 26 ms of CPU here, of which
    /// protobuf-c's unpack is 15; bodies over 256 KiB are split between two threads (SplitDecoding.swift). That assumes glibc keeps freed memory: with its defaults every decode
    /// gets fresh pages from the kernel for the unpacked structs and the Swift arrays (about twice the time).
    /// A process decoding large feeds repeatedly should call `mallopt(M_MMAP_THRESHOLD, 32 << 20)` and
    /// `mallopt(M_TRIM_THRESHOLD, 256 << 20)` at startup.
    public static func decode(_ bytes: some Collection<UInt8>, maxBytes: Int = defaultMaxBytes) throws(GTFSRealtimeDecodeError) -> FeedMessage {
        try checkSize(bytes.count, maxBytes)
        return try withRawBytes(bytes) { (buffer) throws(GTFSRealtimeDecodeError) in try decode(buffer, maxBytes: maxBytes) }
    }

    /// Decodes a FeedMessage from raw memory (e.g. an nng message body); see `decode(_:maxBytes:)`.
    public static func decode(_ bytes: UnsafeRawBufferPointer, maxBytes: Int = defaultMaxBytes) throws(GTFSRealtimeDecodeError) -> FeedMessage {
        try decode(bytes, maxBytes: maxBytes, workers: decodeWorkers(byteCount: bytes.count))
    }

    /// `decode` on `workers` threads (1: the whole message unpacked at once); see SplitDecoding.swift.
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, maxBytes: Int = defaultMaxBytes, workers: Int
    ) throws(GTFSRealtimeDecodeError) -> FeedMessage {
        try checkSize(bytes.count, maxBytes)
        if workers > 1, let feed = decodeSplit(bytes, workers: workers) { return feed }
        do throws(ProtoDecodeError) {
            return try ProtoWire.withUnpacked(
                bytes, messageName: "transit_realtime.FeedMessage", unpack: transit_realtime__feed_message__unpack
            ) { (m) throws(ProtoDecodeError) -> FeedMessage in
                let header = try requiredMessage(m.pointee.header, "header", FeedDecoding.header)
                var problems: [EntityProblem] = []
                let entities = FeedDecoding.entities(m.pointee.n_entity, m.pointee.entity, problems: &problems)
                return FeedMessage(header: header, entities: entities, problems: problems)
            }
        } catch {
            throw converted(error, bytes)
        }
    }

    /// protobuf-c's unpack alone (into the same arena `decode` uses), without building Swift values: the
    /// baseline the realtime benchmark measures `decode` against. Returns the number of entities, or nil
    /// for bytes protobuf-c refuses.
    package static func unpackOnly(_ bytes: UnsafeRawBufferPointer) -> Int? {
        try? ProtoWire.withUnpacked(
            bytes, messageName: "transit_realtime.FeedMessage", unpack: transit_realtime__feed_message__unpack
        ) { (m) throws(ProtoDecodeError) -> Int in m.pointee.n_entity }
    }

    /// Encodes a FeedMessage (its `problems` are not part of the format).
    public static func encode(_ feed: FeedMessage) -> [UInt8] {
        // Roughly what the C structs of a feed take, so most feeds need one or two chunks.
        let capacity = 4096 + feed.entities.count * 256
        return ProtoArena.with(capacity: capacity) { arena in
            let m = FeedEncoding(arena: arena).feedMessage(feed)
            return ProtoWire.pack(m, size: transit_realtime__feed_message__get_packed_size, pack: transit_realtime__feed_message__pack)
        }
    }

    /// The same feed with its header timestamp replaced and everything else kept, unknown fields and
    /// extensions included: for replaying recorded feeds as if they were fresh. Throws as `decode` does for
    /// a body that is not a feed.
    public static func restamp(_ bytes: some Collection<UInt8>, timestamp: UInt64, maxBytes: Int = defaultMaxBytes) throws(GTFSRealtimeDecodeError) -> [UInt8] {
        try checkSize(bytes.count, maxBytes)
        return try withRawBytes(bytes) { (buffer) throws(GTFSRealtimeDecodeError) -> [UInt8] in
            do throws(ProtoDecodeError) {
                return try ProtoWire.withUnpacked(
                    buffer, messageName: "transit_realtime.FeedMessage", unpack: transit_realtime__feed_message__unpack
                ) { (m) throws(ProtoDecodeError) -> [UInt8] in
                    guard let header = m.pointee.header else { throw .missing("header") }
                    (header.pointee.has_timestamp, header.pointee.timestamp) = present(timestamp)
                    // protobuf-c packs the unknown fields it kept while unpacking, so extensions survive.
                    return ProtoWire.pack(m, size: transit_realtime__feed_message__get_packed_size, pack: transit_realtime__feed_message__pack)
                }
            } catch {
                throw converted(error, buffer)
            }
        }
    }

    // MARK: helpers

    private static func checkSize(_ count: Int, _ maxBytes: Int) throws(GTFSRealtimeDecodeError) {
        guard count > 0 else { throw GTFSRealtimeDecodeError(reason: .empty, byteCount: 0) }
        guard count <= maxBytes else { throw GTFSRealtimeDecodeError(reason: .tooLarge(limit: maxBytes), byteCount: count) }
    }

    private static func converted(_ error: ProtoDecodeError, _ bytes: UnsafeRawBufferPointer) -> GTFSRealtimeDecodeError {
        switch error.reason {
        case .malformed: .classify(bytes, otherwise: .malformed)
        case .missingField, .unknownEnumValue: .classify(bytes, otherwise: .missingField(error.field))
        }
    }

    /// Runs `body` on the bytes in place when they are contiguous, else on a copy.
    private static func withRawBytes<R>(
        _ bytes: some Collection<UInt8>, _ body: (UnsafeRawBufferPointer) throws(GTFSRealtimeDecodeError) -> R
    ) throws(GTFSRealtimeDecodeError) -> R {
        if let result = bytes.withContiguousStorageIfAvailable({ buffer in
            Result { () throws(GTFSRealtimeDecodeError) in try body(UnsafeRawBufferPointer(buffer)) }
        }) {
            return try result.get()
        }
        return try Array(bytes).withUnsafeBytes { buffer in
            Result { () throws(GTFSRealtimeDecodeError) in try body(buffer) }
        }.get()
    }
}
