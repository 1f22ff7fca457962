// A big feed decoded on several threads: protobuf-c unpacks one message on one thread, but a FeedMessage is
// a header and a list of independent entities, so each thread unpacks and converts a share of the entities
// into its own arena (FeedWireLayout finds them). A buses-sized feed (3,000 trip updates × 40 stops, 4.7 MB)
// decodes in about half the time on two cores. The answer is the one-thread answer: an entity protobuf-c
// refuses gets the same wire check as a refused whole body (WireCheck.swift), and anything unusual (see
// FeedWireLayout, or an entity refused even so) falls back to unpacking the whole message.
import Dispatch
import Foundation
import TransitProto
import TransitProtoC

extension GTFSRealtimeCodec {
    /// Bodies at least this big are split between threads when the machine has more than one core.
    static let splitMinimumBytes = 256 * 1024

    /// How many threads decode a body of `byteCount` bytes.
    static func decodeWorkers(byteCount: Int) -> Int {
        byteCount >= splitMinimumBytes ? min(2, ProcessInfo.processInfo.activeProcessorCount) : 1
    }

    /// The feed decoded by `workers` threads, or nil when the body must be unpacked whole (see the file
    /// comment); the caller then decodes it on one thread.
    package static func decodeSplit(_ bytes: UnsafeRawBufferPointer, workers: Int) -> FeedMessage? {
        guard workers > 1, let layout = FeedWireLayout(bytes) else { return nil }
        let header = try? ProtoWire.withUnpacked(
            UnsafeRawBufferPointer(rebasing: bytes[layout.header]), messageName: "transit_realtime.FeedHeader",
            unpack: transit_realtime__feed_header__unpack
        ) { (h) throws(ProtoDecodeError) -> FeedHeader in try FeedDecoding.header(h.pointee) }
        guard let header else { return nil }

        var decoded = [DecodedEntity?](repeating: nil, count: layout.entities.count)
        var failed = false
        decoded.withUnsafeMutableBufferPointer { out in
            let job = SplitDecodeJob(bytes: bytes, ranges: layout.entities, out: out, workers: workers)
            DispatchQueue.concurrentPerform(iterations: workers) { job.run(worker: $0) }
        }

        // In wire order, as the one-thread decode does it: the first of several entities with one id wins.
        var entities: [FeedEntity] = []
        entities.reserveCapacity(decoded.count)
        var problems: [EntityProblem] = []
        var skippedFields: [SkippedField] = []
        var seenIds = Set<String>(minimumCapacity: decoded.count)
        for index in decoded.indices {
            guard let entity = decoded[index] else {
                failed = true
                break
            }
            decoded[index] = nil  // the array keeps no second reference to the entity's storage
            SkippedField.merge(entity.skippedFields, into: &skippedFields)
            if seenIds.insert(entity.entity.id).inserted {
                problems += entity.problems
                entities.append(entity.entity)
            } else {
                problems.append(FeedDecoding.duplicateProblem(index: index, id: entity.entity.id))
            }
        }
        if failed { return nil }
        return FeedMessage(header: header, entities: entities, problems: problems, skippedFields: skippedFields)
    }
}

/// An entity converted by a worker, with the problems of its parts and the fields skipped in its bytes.
private struct DecodedEntity {
    var entity: FeedEntity
    var problems: [EntityProblem]
    var skippedFields: [SkippedField]
}

/// One `decodeSplit` run, shared by its workers. Each worker reads the body and writes only its own slots
/// of `out`, so no two threads touch the same memory; each has its own arena.
private struct SplitDecodeJob: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    let ranges: [Range<Int>]
    let out: UnsafeMutableBufferPointer<DecodedEntity?>
    let workers: Int

    static let feedEntity = WireSchema.gtfsRealtime.index(of: "transit_realtime.FeedEntity")!

    /// The entities of worker `w`: consecutive ones with about a `workers`-th of the bytes.
    private func share(_ w: Int) -> Range<Int> {
        guard let first = ranges.first, let last = ranges.last else { return 0..<0 }
        let span = last.upperBound - first.lowerBound
        func start(_ w: Int) -> Int {
            if w == 0 { return 0 }
            if w >= workers { return ranges.count }
            let offset = first.lowerBound + span / workers * w
            return ranges.partitionPoint { $0.lowerBound >= offset }
        }
        return start(w)..<start(w + 1)
    }

    func run(worker w: Int) {
        let share = share(w)
        guard let firstIndex = share.first, let lastIndex = share.last else { return }
        let byteCount = ranges[lastIndex].upperBound - ranges[firstIndex].lowerBound
        // The unpacked structs and strings take about twice the wire size; one chunk usually holds them.
        ProtoWire.withArenaAllocator(capacity: 2 * byteCount + 512) { allocator in
            for index in share {
                let range = ranges[index]
                var skippedFields: [SkippedField] = []
                var e = ProtoWire.unpack(
                    allocator, UnsafeRawBufferPointer(rebasing: bytes[range]), transit_realtime__feed_entity__unpack)
                if e == nil {
                    // As the one-thread decode does for the whole body (WireCheck.swift), for this entity.
                    let check = WireCheck(bytes, range: range, message: SplitDecodeJob.feedEntity, path: ["entity"])
                    if check.isRepairable {
                        e = check.repaired(bytes, range: range).withUnsafeBytes {
                            ProtoWire.unpack(allocator, $0, transit_realtime__feed_entity__unpack)
                        }
                        skippedFields = check.skips
                    }
                }
                // A refused entity (or one without id) leaves its slot nil: the whole feed is then decoded
                // on one thread, which reports it as it always has.
                guard let e, let cId = e.pointee.id else { return }
                var problems: [EntityProblem] = []
                let entity = FeedDecoding.content(
                    e.pointee, id: String(cString: cId), index: index, problems: &problems)
                out[index] = DecodedEntity(entity: entity, problems: problems, skippedFields: skippedFields)
            }
        }
    }
}
