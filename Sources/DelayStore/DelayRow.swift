import TransitCore
import TransitModel

/// One recorded departure: the last predicted delay of a trip instance at a stop before it left.
public struct DelaySample: Sendable, Hashable {
    public var routeId: String
    public var stopId: String
    /// The trip instance's service date, as a day number (TransitCore.GTFSDate.dayNumber).
    public var serviceDay: Int
    /// Scheduled departure hour of the service day, 0–23 (`TypicalDelay.hour(ofSecs:)`).
    public var hour: Int
    public var dayType: DayType
    /// Seconds, negative when early.
    public var delay: Int

    public init(routeId: String, stopId: String, serviceDay: Int, hour: Int, dayType: DayType, delay: Int) {
        self.routeId = routeId
        self.stopId = stopId
        self.serviceDay = serviceDay
        self.hour = hour
        self.dayType = dayType
        self.delay = delay
    }
}

/// The histograms of one store row, one (stop, route, day type): per hour the current and the previous
/// block of `DelayStore.blockDays` service days. `block` is the current block's number (day number / 14).
struct DelayRow: Sendable, Hashable {
    struct Hour: Sendable, Hashable {
        var current = DelayHistogram()
        var previous = DelayHistogram()
    }

    var block: Int
    var hours: [Int: Hour] = [:]

    /// Adds one delay of a service day in `sampleBlock`: into the current block, the previous one, or after
    /// moving the row forward; a sample older than the previous block is dropped (returns false).
    mutating func add(delay: Int, hour: Int, sampleBlock: Int) -> Bool {
        if sampleBlock > block { roll(to: sampleBlock) }
        if sampleBlock == block {
            hours[hour, default: Hour()].current.add(delay: delay)
        } else if sampleBlock == block - 1 {
            hours[hour, default: Hour()].previous.add(delay: delay)
        } else {
            return false
        }
        return true
    }

    /// Moves the row so that `newBlock` is current: the old current becomes the previous block when it is
    /// `newBlock − 1`, else everything is dropped.
    mutating func roll(to newBlock: Int) {
        guard newBlock > block else { return }
        if newBlock == block + 1 {
            var next: [Int: Hour] = [:]
            for (hour, h) in hours where !h.current.isEmpty { next[hour] = Hour(previous: h.current) }
            hours = next
        } else {
            hours = [:]
        }
        block = newBlock
    }

    /// The counts of an hour (nil: all hours) that fall in the window of `todayBlock`: its block and the one
    /// before.
    func histogram(hour: Int?, todayBlock: Int) -> DelayHistogram {
        var sum = DelayHistogram()
        guard block == todayBlock || block == todayBlock - 1 else { return sum }
        for (h, entry) in hours where hour == nil || hour == h {
            sum.merge(entry.current)
            if block == todayBlock { sum.merge(entry.previous) }
        }
        return sum
    }

    var isEmpty: Bool { hours.values.allSatisfy { $0.current.isEmpty && $0.previous.isEmpty } }

    // MARK: bytes

    /// Per hour with data: the hour byte, then each block's sparse counts (a varint byte length, then one
    /// byte per non-empty bucket: bits 0–5 the bucket, bits 6–7 the count 1–3, or 3 and a varint count).
    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        for hour in hours.keys.sorted() {
            let h = hours[hour]!
            if h.current.isEmpty && h.previous.isEmpty { continue }
            out.append(UInt8(hour))
            for histogram in [h.current, h.previous] {
                let bytes = Self.sparse(histogram)
                Varint.append(UInt64(bytes.count), to: &out)
                out += bytes
            }
        }
        return out
    }

    init(block: Int, hours: [Int: Hour] = [:]) {
        self.block = block
        self.hours = hours
    }

    /// Decodes `encoded()`; nil for bytes it did not write.
    init?(block: Int, bytes: UnsafeRawBufferPointer) {
        self.block = block
        var i = 0
        while i < bytes.count {
            let hour = Int(bytes[i])
            i += 1
            guard hour < 24 else { return nil }
            var entry = Hour()
            for half in 0..<2 {
                guard let length = Varint.read(bytes, at: &i), i + Int(length) <= bytes.count else { return nil }
                let end = i + Int(length)
                var histogram = DelayHistogram()
                while i < end {
                    let byte = bytes[i]
                    i += 1
                    let bucket = Int(byte & 0x3F), code = byte >> 6
                    guard bucket < DelayHistogram.bucketCount else { return nil }
                    var count = UInt64(code) + 1
                    if code == 3 {
                        guard let c = Varint.read(bytes, at: &i), i <= end else { return nil }
                        count = c
                    }
                    histogram.add(bucket: bucket, count: UInt32(clamping: count))
                }
                if half == 0 { entry.current = histogram } else { entry.previous = histogram }
            }
            hours[hour] = entry
        }
    }

    private static func sparse(_ histogram: DelayHistogram) -> [UInt8] {
        var out: [UInt8] = []
        for (bucket, count) in histogram.counts.enumerated() where count != 0 {
            if count <= 3 {
                out.append(UInt8(bucket) | UInt8(count - 1) << 6)
            } else {
                out.append(UInt8(bucket) | 3 << 6)
                Varint.append(UInt64(count), to: &out)
            }
        }
        return out
    }
}
