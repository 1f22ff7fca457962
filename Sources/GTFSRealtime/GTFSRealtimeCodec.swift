import TransitCore
// The module's entry point: bytes of a GTFS-Realtime feed <-> FeedMessage, through protobuf-c.
import TransitProto
import TransitProtoC

public enum GTFSRealtimeCodec {
    /// The default size limit of a feed body: 64 MiB.
    public static let defaultMaxBytes = 64 * 1024 * 1024

    /// Decodes a FeedMessage.
    ///
    /// Unknown fields and extensions are skipped, except Transport for NSW's, which are read into the model
    /// (TfnswExtensions.swift); enum numbers newer than this code become `.unknown(n)`. A known field that
    /// arrives with another wire type than the schema's is skipped too, the rest of its message kept, and
    /// counted in `skippedFields` (WireCheck.swift). Entities that break the spec (a trip update without its
    /// trip, a position without latitude, an alert without informed entity, a duplicate id, ...) are left
    /// out and listed in `problems`. Throws when the body as a whole is unusable: empty, larger than `maxBytes`
    /// (checked before unpacking), text such as an HTML error page, truncated or garbage bytes (the error's
    /// `fault` names the byte offset and field path where it breaks), or no header.
    ///
    /// Cost: a feed of 3,000 trip updates x 40 stop updates (4.7 MB) takes about 26 ms of CPU here, of which
    /// protobuf-c's unpack is 15; bodies over 256 KiB are split between two threads (SplitDecoding.swift). That assumes glibc keeps freed memory: with its defaults every decode
    /// gets fresh pages from the kernel for the unpacked structs and the Swift arrays (about twice the time).
    /// A process decoding large feeds repeatedly should call `mallopt(M_MMAP_THRESHOLD, 32 << 20)` and
    /// `mallopt(M_TRIM_THRESHOLD, 256 << 20)` at startup.
    public static func decode(_ bytes: some Collection<UInt8>, maxBytes: Int = defaultMaxBytes)
        throws(GTFSRealtimeDecodeError) -> FeedMessage
    {
        try checkSize(bytes.count, maxBytes)
        return try withRawBytes(bytes) { (buffer) throws(GTFSRealtimeDecodeError) in
            try decode(buffer, maxBytes: maxBytes)
        }
    }

    /// Decodes a FeedMessage from raw memory (e.g. an nng message body); see `decode(_:maxBytes:)`.
    public static func decode(_ bytes: UnsafeRawBufferPointer, maxBytes: Int = defaultMaxBytes)
        throws(GTFSRealtimeDecodeError) -> FeedMessage
    {
        try decode(bytes, maxBytes: maxBytes, workers: decodeWorkers(byteCount: bytes.count))
    }

    /// `decode` on `workers` threads (1: the whole message unpacked at once); see SplitDecoding.swift.
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, maxBytes: Int = defaultMaxBytes, workers: Int
    ) throws(GTFSRealtimeDecodeError) -> FeedMessage {
        try checkSize(bytes.count, maxBytes)
        if workers > 1, let feed = decodeSplit(bytes, workers: workers) { return feed }
        do throws(ProtoDecodeError) {
            return try decodeWhole(bytes, skippedFields: [])
        } catch {
            guard case .malformed = error.reason else { throw converted(error, bytes) }
            // protobuf-c refused the body: mismatched wire types are skipped, anything else is located.
            let check = WireCheck(bytes)
            guard check.isRepairable else { throw converted(error, bytes, fault: check.fault) }
            let result = check.repaired(bytes).withUnsafeBytes { repaired in
                Result { () throws(ProtoDecodeError) in try decodeWhole(repaired, skippedFields: check.skips) }
            }
            switch result {
            case .success(let feed): return feed
            case .failure(let error): throw converted(error, bytes)
            }
        }
    }

    /// The whole message unpacked at once and converted.
    private static func decodeWhole(
        _ bytes: UnsafeRawBufferPointer, skippedFields: [SkippedField]
    ) throws(ProtoDecodeError) -> FeedMessage {
        try ProtoWire.withUnpacked(
            bytes, messageName: "transit_realtime.FeedMessage", unpack: transit_realtime__feed_message__unpack
        ) { (m) throws(ProtoDecodeError) -> FeedMessage in
            let header = try requiredMessage(m.pointee.header, "header", FeedDecoding.header)
            var problems: [EntityProblem] = []
            let entities = FeedDecoding.entities(m.pointee.n_entity, m.pointee.entity, problems: &problems)
            return FeedMessage(header: header, entities: entities, problems: problems, skippedFields: skippedFields)
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
            return ProtoWire.pack(
                m, size: transit_realtime__feed_message__get_packed_size, pack: transit_realtime__feed_message__pack)
        }
    }

    /// The same feed with its header timestamp replaced and everything else kept, unknown fields and
    /// extensions included: for replaying recorded feeds as if they were fresh. Throws as `decode` does for
    /// a body that is not a feed. A feed `decode` reads only by skipping mismatched fields keeps them too:
    /// its header is replaced in place and every other byte is copied as it was.
    public static func restamp(_ bytes: some Collection<UInt8>, timestamp: UInt64, maxBytes: Int = defaultMaxBytes)
        throws(GTFSRealtimeDecodeError) -> [UInt8]
    {
        try checkSize(bytes.count, maxBytes)
        return try withRawBytes(bytes) { (buffer) throws(GTFSRealtimeDecodeError) -> [UInt8] in
            do throws(ProtoDecodeError) {
                return try ProtoWire.withUnpacked(
                    buffer, messageName: "transit_realtime.FeedMessage", unpack: transit_realtime__feed_message__unpack
                ) { (m) throws(ProtoDecodeError) -> [UInt8] in
                    guard let header = m.pointee.header else { throw .missing("header") }
                    (header.pointee.has_timestamp, header.pointee.timestamp) = present(timestamp)
                    // protobuf-c packs the unknown fields it kept while unpacking, so extensions survive.
                    return ProtoWire.pack(
                        m, size: transit_realtime__feed_message__get_packed_size,
                        pack: transit_realtime__feed_message__pack)
                }
            } catch {
                guard case .malformed = error.reason else { throw converted(error, buffer) }
                let check = WireCheck(buffer)
                guard check.isRepairable else { throw converted(error, buffer, fault: check.fault) }
                // The repaired copy must unpack, as `decode` requires; the output is spliced from the original.
                let decodable = check.repaired(buffer).withUnsafeBytes { unpackOnly($0) != nil }
                guard decodable, let layout = FeedWireLayout(buffer) else { throw converted(error, buffer) }
                return try restampHeader(buffer, layout: layout, timestamp: timestamp)
            }
        }
    }

    /// `bytes` with only its header field replaced by one carrying `timestamp`.
    private static func restampHeader(
        _ bytes: UnsafeRawBufferPointer, layout: FeedWireLayout, timestamp: UInt64
    ) throws(GTFSRealtimeDecodeError) -> [UInt8] {
        // A header with mismatched fields of its own is unpacked from its repaired copy.
        let check = WireCheck(
            bytes, range: layout.header, message: WireSchema.gtfsRealtime.index(of: "transit_realtime.FeedHeader")!)
        let headerBytes = check.isRepairable ? check.repaired(bytes, range: layout.header) : Array(bytes[layout.header])
        let packed = headerBytes.withUnsafeBytes { header in
            try? ProtoWire.withUnpacked(
                header, messageName: "transit_realtime.FeedHeader", unpack: transit_realtime__feed_header__unpack
            ) { (h) throws(ProtoDecodeError) -> [UInt8] in
                let header = UnsafeMutablePointer(mutating: h)
                (header.pointee.has_timestamp, header.pointee.timestamp) = present(timestamp)
                return ProtoWire.pack(
                    h, size: transit_realtime__feed_header__get_packed_size, pack: transit_realtime__feed_header__pack)
            }
        }
        guard let packed else { throw GTFSRealtimeDecodeError.classify(bytes, otherwise: .malformed) }
        var out = [UInt8](bytes[..<layout.headerField.lowerBound])
        out.reserveCapacity(bytes.count + 16)
        out.append(0x0A)  // field 1, length-delimited
        Varint.append(UInt64(packed.count), to: &out)
        out += packed
        out += bytes[layout.headerField.upperBound...]
        return out
    }

    // MARK: helpers

    private static func checkSize(_ count: Int, _ maxBytes: Int) throws(GTFSRealtimeDecodeError) {
        guard count > 0 else { throw GTFSRealtimeDecodeError(reason: .empty, byteCount: 0) }
        guard count <= maxBytes else {
            throw GTFSRealtimeDecodeError(reason: .tooLarge(limit: maxBytes), byteCount: count)
        }
    }

    private static func converted(
        _ error: ProtoDecodeError, _ bytes: UnsafeRawBufferPointer, fault: WireFault? = nil
    ) -> GTFSRealtimeDecodeError {
        switch error.reason {
        case .malformed: .classify(bytes, otherwise: .malformed, fault: fault)
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
