// A framed `tu` PubMessage (topic, 0x00, PubMessage{epoch, topic, seq, sent_unix_ms, trip_updates}) written
// straight to wire bytes.
//
// Why not protobuf-c: a full update of a buses feed is ≈ 3,000 trips × 40 stops (≈ 9 MB). Through protobuf-c
// that is ≈ 125,000 structs and their strings built in an arena, then a packer that sizes every sub-message
// again at each level above it: ≈ 30 ms, a third of the realtime service's time per update. Written directly
// it is one sizing pass and one writing pass over the Swift values.
//
// The bytes equal what the protobuf-c path (`RealtimeCodec.encodeFramedWithProtobufC`) writes for the same
// message; tests compare the two, so a field added to realtime.proto's TripPrediction, StopPrediction,
// TripInstance, Carriage, TripUpdatesBatch or PubMessage must be added here too.
import Dispatch
import Foundation
import TransitModel

enum TripUpdatesWire {
    // Field numbers of protocol/realtime.proto.
    private enum Pub { static let epoch = 1, topic = 2, seq = 3, sentUnixMs = 4, tripUpdates = 10 }
    private enum Batch { static let trips = 1, removed = 2 }
    private enum Instance { static let tripId = 1, serviceDate = 2, startSecs = 3 }
    private enum Trip {
        static let trip = 1, relationship = 2, staticTripId = 3, routeId = 4, directionId = 5, vehicleId = 6,
            vehicleLabel = 7, timestamp = 8, tripDelay = 9, stops = 10, source = 11, entityId = 12,
            tripHeadsign = 13, modificationsId = 14
    }
    private enum Stop {
        static let stopId = 1, stopSequence = 2, assignedStopId = 3, scheduledArrival = 4, scheduledDeparture = 5,
            predictedArrival = 6, predictedDeparture = 7, arrivalDelay = 8, departureDelay = 9, status = 10,
            departureOccupancy = 11, stopHeadsign = 12, carriages = 13, predictionSource = 14, pickupType = 15,
            dropOffType = 16, assignedPlatform = 30
    }
    private enum Carriage {
        static let position = 1, name = 2, occupancy = 3, departureOccupancy = 4, quiet = 5, toilet = 6, luggageRack = 7
    }

    /// Batches with at least this many stops are sized and written by two threads (when there are two cores):
    /// a full update of a buses feed takes ≈ 8 ms on one.
    static let parallelMinimumStops = 20_000

    /// `message` framed for PUB; its payload must be `.tripUpdates(batch)`. `workers`: threads that size and
    /// write the trips (nil: by the batch's size and the machine); every count writes the same bytes.
    static func framed(_ message: PubMessage, _ batch: LiveTripBatch, workers: Int? = nil) -> [UInt8] {
        let topic = RealtimeTopic.tripUpdates.rawValue
        let tripCount = batch.trips.count
        // Where each trip's stop sizes go in `stopSizes` (one flat array for all trips).
        var stopStart = [Int]()
        stopStart.reserveCapacity(tripCount + 1)
        var stopCount = 0
        for i in batch.trips.indices {
            stopStart.append(stopCount)
            stopCount += batch.trips[i].stops.count
        }
        stopStart.append(stopCount)
        let workers = max(
            1,
            min(
                workers
                    ?? (stopCount >= parallelMinimumStops ? min(2, ProcessInfo.processInfo.activeProcessorCount) : 1),
                max(tripCount, 1)))
        // The trips of each worker: consecutive, with about as many stops each.
        let shares = (0..<workers).map { w -> Range<Int> in
            func start(_ w: Int) -> Int {
                w == 0 ? 0 : w == workers ? tripCount : stopStart.partitionPoint { $0 >= stopCount / workers * w }
            }
            return start(w)..<max(start(w), start(w + 1))
        }

        // Every trip's and stop's body size, computed once and used again for its length prefix.
        var tripSizes = [Int](repeating: 0, count: tripCount)
        var stopSizes = [Int32](repeating: 0, count: stopCount)
        var shareBytes = [Int](repeating: 0, count: workers)
        batch.trips.withUnsafeBufferPointer { trips in
            tripSizes.withUnsafeMutableBufferPointer { tripSizes in
                stopSizes.withUnsafeMutableBufferPointer { stopSizes in
                    shareBytes.withUnsafeMutableBufferPointer { shareBytes in
                        let job = SizingJob(
                            trips: trips, stopStart: stopStart, shares: shares, tripSizes: tripSizes,
                            stopSizes: stopSizes, shareBytes: shareBytes)
                        perform(workers) { job.run(worker: $0) }
                    }
                }
            }
        }
        var body = shareBytes.reduce(0, +)
        for instance in batch.removed { body += WireSize.delimited(Batch.removed, instanceSize(instance)) }
        let pub =
            WireSize.varintField(Pub.epoch, message.epoch) + WireSize.string(Pub.topic, topic)
            + WireSize.varintField(Pub.seq, message.seq)
            + WireSize.varintField(Pub.sentUnixMs, UInt64(bitPattern: message.sentUnixMs))
            + WireSize.delimited(Pub.tripUpdates, body)
        let topicBytes = topic.utf8.count
        let total = topicBytes + 1 + pub

        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            var out = WireOutput(buffer.baseAddress!)
            out.raw(topic)
            out.byte(0)
            out.varintField(Pub.epoch, message.epoch)
            out.string(Pub.topic, topic)
            out.varintField(Pub.seq, message.seq)
            out.varintField(Pub.sentUnixMs, UInt64(bitPattern: message.sentUnixMs))
            out.delimitedHeader(Pub.tripUpdates, body)
            // Each worker writes its trips from where the shares before it end.
            var shareStart: [UnsafeMutablePointer<UInt8>] = []
            var next = out.cursor
            for bytes in shareBytes {
                shareStart.append(next)
                next += bytes
            }
            batch.trips.withUnsafeBufferPointer { trips in
                tripSizes.withUnsafeBufferPointer { tripSizes in
                    stopSizes.withUnsafeBufferPointer { stopSizes in
                        let job = WritingJob(
                            trips: trips, stopStart: stopStart, shares: shares, tripSizes: tripSizes,
                            stopSizes: stopSizes, shareStart: shareStart, shareBytes: shareBytes)
                        perform(workers) { job.run(worker: $0) }
                    }
                }
            }
            out = WireOutput(next)
            for instance in batch.removed {
                out.delimitedHeader(Batch.removed, instanceSize(instance))
                write(instance, &out)
            }
            initialized = out.cursor - buffer.baseAddress!
            precondition(initialized == total, "TripUpdatesWire wrote \(initialized) bytes, sized \(total)")
        }
    }

    private static func perform(_ workers: Int, _ work: @Sendable (Int) -> Void) {
        if workers == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: workers, execute: work) }
    }

    /// Sizes one share of trips. Workers read the trips and write only their own trips' slots.
    private struct SizingJob: @unchecked Sendable {
        let trips: UnsafeBufferPointer<LiveTrip>
        let stopStart: [Int]
        let shares: [Range<Int>]
        let tripSizes: UnsafeMutableBufferPointer<Int>
        let stopSizes: UnsafeMutableBufferPointer<Int32>
        let shareBytes: UnsafeMutableBufferPointer<Int>

        func run(worker w: Int) {
            var bytes = 0
            for i in shares[w] {
                let size = tripSize(trips.baseAddress! + i, stopSizes: stopSizes.baseAddress! + stopStart[i])
                tripSizes[i] = size
                bytes += WireSize.delimited(Batch.trips, size)
            }
            shareBytes[w] = bytes
        }
    }

    /// Writes one share of trips into its own part of the output.
    private struct WritingJob: @unchecked Sendable {
        let trips: UnsafeBufferPointer<LiveTrip>
        let stopStart: [Int]
        let shares: [Range<Int>]
        let tripSizes: UnsafeBufferPointer<Int>
        let stopSizes: UnsafeBufferPointer<Int32>
        let shareStart: [UnsafeMutablePointer<UInt8>]
        let shareBytes: [Int]

        func run(worker w: Int) {
            var out = WireOutput(shareStart[w])
            for i in shares[w] {
                out.delimitedHeader(Batch.trips, tripSizes[i])
                write(trips.baseAddress! + i, stopSizes: stopSizes.baseAddress! + stopStart[i], &out)
            }
            precondition(
                out.cursor == shareStart[w] + shareBytes[w], "TripUpdatesWire: a share wrote other than its size")
        }
    }

    // MARK: sizes (bodies, without the field's own tag and length)

    private static func instanceSize(_ i: TripInstanceKey) -> Int {
        var size =
            WireSize.string(Instance.tripId, i.tripId)
            + WireSize.varintField(Instance.serviceDate, UInt64(i.serviceDate))
        if let start = i.startSecs { size += WireSize.int32Field(Instance.startSecs, start) }
        return size
    }

    @inline(__always)
    private static func optionalString(_ field: Int, _ s: String?) -> Int {
        guard let s else { return 0 }
        return WireSize.string(field, s)
    }

    @inline(__always)
    private static func int64Field(_ field: Int, _ value: Int64?) -> Int {
        guard let value else { return 0 }
        return WireSize.varintField(field, UInt64(bitPattern: value))
    }

    @inline(__always)
    private static func int32Field(_ field: Int, _ value: Int32?) -> Int {
        guard let value else { return 0 }
        return WireSize.int32Field(field, value)
    }

    private static func stopSize(_ s: UnsafePointer<LiveStop>) -> Int {
        WireSize.string(Stop.stopId, s.pointee.stopId)
            + WireSize.varintField(Stop.stopSequence, UInt64(s.pointee.stopSequence))
            + optionalString(Stop.assignedStopId, s.pointee.assignedStopId)
            + int64Field(Stop.scheduledArrival, s.pointee.scheduledArrival)
            + int64Field(Stop.scheduledDeparture, s.pointee.scheduledDeparture)
            + int64Field(Stop.predictedArrival, s.pointee.predictedArrival)
            + int64Field(Stop.predictedDeparture, s.pointee.predictedDeparture)
            + int32Field(Stop.arrivalDelay, s.pointee.arrivalDelay)
            + int32Field(Stop.departureDelay, s.pointee.departureDelay)
            + WireSize.int32Field(Stop.status, Int32(bitPattern: s.pointee.status.proto.rawValue))
            + optionalString(Stop.departureOccupancy, s.pointee.departureOccupancy)
            + optionalString(Stop.stopHeadsign, s.pointee.stopHeadsign)
            + optionalString(Stop.assignedPlatform, s.pointee.assignedPlatform)
            + carriagesSize(s.pointee.carriages)
            + int32Field(
                Stop.predictionSource, s.pointee.predictionSource.sent.map { Int32(bitPattern: $0.proto.rawValue) })
            + int32Field(Stop.pickupType, s.pointee.pickupType) + int32Field(Stop.dropOffType, s.pointee.dropOffType)
    }

    /// The carriages' fields in a stop (zero for none: most feeds send none). A carriage's size is computed
    /// again when written; there are a handful per stop at most.
    @inline(__always)
    private static func carriagesSize(_ carriages: [LiveCarriage]) -> Int {
        if carriages.isEmpty { return 0 }
        var size = 0
        for i in carriages.indices { size += WireSize.delimited(Stop.carriages, carriageSize(carriages[i])) }
        return size
    }

    private static func carriageSize(_ c: LiveCarriage) -> Int {
        var size =
            int32Field(Carriage.position, c.position) + optionalString(Carriage.name, c.name)
            + optionalString(Carriage.occupancy, c.occupancy)
            + optionalString(Carriage.departureOccupancy, c.departureOccupancy)
        if let v = c.quiet { size += WireSize.varintField(Carriage.quiet, v ? 1 : 0) }
        size += optionalString(Carriage.toilet, c.toilet)
        if let v = c.luggageRack { size += WireSize.varintField(Carriage.luggageRack, v ? 1 : 0) }
        return size
    }

    /// The trip's body size; writes its stops' body sizes to `stopSizes[0..<stops.count]`.
    private static func tripSize(_ t: UnsafePointer<LiveTrip>, stopSizes: UnsafeMutablePointer<Int32>) -> Int {
        var size =
            WireSize.delimited(Trip.trip, instanceSize(t.pointee.instance))
            + WireSize.int32Field(Trip.relationship, Int32(bitPattern: t.pointee.relationship.proto.rawValue))
            + optionalString(Trip.staticTripId, t.pointee.staticTripId)
            + optionalString(Trip.routeId, t.pointee.routeId)
            + int32Field(Trip.directionId, t.pointee.directionId.map { Int32(clamping: $0) })
            + optionalString(Trip.vehicleId, t.pointee.vehicleId)
            + optionalString(Trip.vehicleLabel, t.pointee.vehicleLabel)
        if let timestamp = t.pointee.timestamp { size += WireSize.varintField(Trip.timestamp, timestamp) }
        size += int32Field(Trip.tripDelay, t.pointee.tripDelay)
        t.pointee.stops.withUnsafeBufferPointer { stops in
            guard let base = stops.baseAddress else { return }
            for i in stops.indices {
                let stop = stopSize(base + i)
                stopSizes[i] = Int32(stop)
                size += WireSize.delimited(Trip.stops, stop)
            }
        }
        return size + WireSize.string(Trip.source, t.pointee.source) + optionalString(Trip.entityId, t.pointee.entityId)
            + optionalString(Trip.tripHeadsign, t.pointee.tripHeadsign)
            + optionalString(Trip.modificationsId, t.pointee.modificationsId)
    }

    // MARK: writing

    private static func write(_ i: TripInstanceKey, _ out: inout WireOutput) {
        out.string(Instance.tripId, i.tripId)
        out.varintField(Instance.serviceDate, UInt64(i.serviceDate))
        if let start = i.startSecs { out.int32Field(Instance.startSecs, start) }
    }

    /// Writes the trip; its stops' sizes are `stopSizes[0..<stops.count]`.
    private static func write(_ t: UnsafePointer<LiveTrip>, stopSizes: UnsafePointer<Int32>, _ out: inout WireOutput) {
        out.delimitedHeader(Trip.trip, instanceSize(t.pointee.instance))
        write(t.pointee.instance, &out)
        out.int32Field(Trip.relationship, Int32(bitPattern: t.pointee.relationship.proto.rawValue))
        if let s = t.pointee.staticTripId { out.string(Trip.staticTripId, s) }
        if let s = t.pointee.routeId { out.string(Trip.routeId, s) }
        if let d = t.pointee.directionId { out.int32Field(Trip.directionId, Int32(clamping: d)) }
        if let s = t.pointee.vehicleId { out.string(Trip.vehicleId, s) }
        if let s = t.pointee.vehicleLabel { out.string(Trip.vehicleLabel, s) }
        if let v = t.pointee.timestamp { out.varintField(Trip.timestamp, v) }
        if let v = t.pointee.tripDelay { out.int32Field(Trip.tripDelay, v) }
        t.pointee.stops.withUnsafeBufferPointer { stops in
            guard let base = stops.baseAddress else { return }
            for i in stops.indices {
                out.delimitedHeader(Trip.stops, Int(stopSizes[i]))
                write(base + i, &out)
            }
        }
        out.string(Trip.source, t.pointee.source)
        if let s = t.pointee.entityId { out.string(Trip.entityId, s) }
        if let s = t.pointee.tripHeadsign { out.string(Trip.tripHeadsign, s) }
        if let s = t.pointee.modificationsId { out.string(Trip.modificationsId, s) }
    }

    private static func write(_ s: UnsafePointer<LiveStop>, _ out: inout WireOutput) {
        out.string(Stop.stopId, s.pointee.stopId)
        out.varintField(Stop.stopSequence, UInt64(s.pointee.stopSequence))
        if let v = s.pointee.assignedStopId { out.string(Stop.assignedStopId, v) }
        if let v = s.pointee.scheduledArrival { out.varintField(Stop.scheduledArrival, UInt64(bitPattern: v)) }
        if let v = s.pointee.scheduledDeparture { out.varintField(Stop.scheduledDeparture, UInt64(bitPattern: v)) }
        if let v = s.pointee.predictedArrival { out.varintField(Stop.predictedArrival, UInt64(bitPattern: v)) }
        if let v = s.pointee.predictedDeparture { out.varintField(Stop.predictedDeparture, UInt64(bitPattern: v)) }
        if let v = s.pointee.arrivalDelay { out.int32Field(Stop.arrivalDelay, v) }
        if let v = s.pointee.departureDelay { out.int32Field(Stop.departureDelay, v) }
        out.int32Field(Stop.status, Int32(bitPattern: s.pointee.status.proto.rawValue))
        if let v = s.pointee.departureOccupancy { out.string(Stop.departureOccupancy, v) }
        if let v = s.pointee.stopHeadsign { out.string(Stop.stopHeadsign, v) }
        if !s.pointee.carriages.isEmpty {
            for i in s.pointee.carriages.indices { write(s.pointee.carriages[i], &out) }
        }
        if let v = s.pointee.predictionSource.sent {
            out.int32Field(Stop.predictionSource, Int32(bitPattern: v.proto.rawValue))
        }
        if let v = s.pointee.pickupType { out.int32Field(Stop.pickupType, v) }
        if let v = s.pointee.dropOffType { out.int32Field(Stop.dropOffType, v) }
        if let v = s.pointee.assignedPlatform { out.string(Stop.assignedPlatform, v) }
    }

    private static func write(_ c: LiveCarriage, _ out: inout WireOutput) {
        out.delimitedHeader(Stop.carriages, carriageSize(c))
        if let v = c.position { out.int32Field(Carriage.position, v) }
        if let v = c.name { out.string(Carriage.name, v) }
        if let v = c.occupancy { out.string(Carriage.occupancy, v) }
        if let v = c.departureOccupancy { out.string(Carriage.departureOccupancy, v) }
        if let v = c.quiet { out.varintField(Carriage.quiet, v ? 1 : 0) }
        if let v = c.toilet { out.string(Carriage.toilet, v) }
        if let v = c.luggageRack { out.varintField(Carriage.luggageRack, v ? 1 : 0) }
    }
}
