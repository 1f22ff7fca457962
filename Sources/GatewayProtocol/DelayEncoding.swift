import TransitCore
import TransitModel

// Encoders of the recorded departure delays: a row's `typical_delay` and the data of `reliability`
// (GATEWAY.md "typical delay", "reliability").

/// A row's `typical_delay`: the figures and, for a row without a live prediction, the band it will likely
/// leave in.
public struct TypicalDelayView: Sendable, Hashable {
    public var typical: TypicalDelay
    /// Scheduled + p10 … scheduled + p90, for a row with no live prediction; nil otherwise.
    public var band: ClosedRange<Int64>?

    public init(_ typical: TypicalDelay, scheduledUnix: Int64?, predicted: Bool) {
        self.typical = typical
        band =
            predicted
            ? nil : scheduledUnix.map { ($0 + Int64(typical.p10))...($0 + Int64(min(typical.p90, Int.max))) }
    }
}

/// The answer of `reliability`.
public struct ReliabilityAnswer: Sendable, Hashable {
    public var query: DelaySlice
    public var window: DelayWindowHistogram

    public init(query: DelaySlice, window: DelayWindowHistogram) {
        self.query = query
        self.window = window
    }
}

extension JSONWriter {
    public mutating func typicalDelay(_ view: TypicalDelayView?) {
        guard let view else { return null() }
        beginObject()
        key("p50_s")
        int(view.typical.p50)
        key("p90_s")
        int(view.typical.p90)
        key("samples")
        int(view.typical.samples)
        key("level")
        string(view.typical.level.rawValue)
        key("expected_band")
        if let band = view.band {
            beginObject()
            key("earliest_unix")
            int(band.lowerBound)
            key("latest_unix")
            int(band.upperBound)
            endObject()
        } else {
            null()
        }
        endObject()
    }

    public mutating func reliabilityData(_ answer: ReliabilityAnswer) {
        let histogram = answer.window.histogram
        let samples = histogram.samples
        let punctuality = histogram.punctuality
        func share(_ count: Int) -> Double? {
            samples == 0 ? nil : (Double(count) / Double(samples) * 1000).rounded() / 1000
        }
        beginObject()
        key("route_id")
        string(answer.query.routeId)
        key("stop_id")
        string(answer.query.stopId)
        key("hour")
        int(answer.query.hour)
        key("day_type")
        string(answer.query.dayType?.name)
        key("samples")
        int(samples)
        key("on_time_share")
        double(share(punctuality.onTime))
        key("early_share")
        double(share(punctuality.early))
        key("late_share")
        double(share(punctuality.late))
        key("on_time_window")
        beginObject()
        key("early_s")
        int(DelayHistogram.onTimeEarliest)
        key("late_s")
        int(DelayHistogram.onTimeLatestExclusive - 1)
        endObject()
        key("p10_s")
        int(histogram.percentile(0.1))
        key("p50_s")
        int(histogram.percentile(0.5))
        key("p90_s")
        int(histogram.percentile(0.9))
        key("buckets")
        beginArray()
        for (bucket, count) in histogram.counts.enumerated() where count != 0 {
            beginObject()
            key("from_s")
            int(DelayHistogram.lowerEdge(ofBucket: bucket))
            key("to_s")
            int(DelayHistogram.upperEdge(ofBucket: bucket))
            key("count")
            int(count)
            endObject()
        }
        endArray()
        key("first_date")
        serviceDate(answer.window.firstDate)
        key("last_date")
        serviceDate(answer.window.lastDate)
        key("days")
        let first = GTFSDate(yyyymmdd: Int(answer.window.firstDate))
        let last = GTFSDate(yyyymmdd: Int(answer.window.lastDate))
        int(first.flatMap { f in last.map { $0.dayNumber - f.dayNumber + 1 } })
        endObject()
    }
}
