import DelayStore
import TransitCore
import TransitModel

/// Finds the departures to record in the changes of the live state (protocol/README.md flow 6): for each
/// trip instance and stop, the departure observed from vehicle positions, else the last predicted delay held
/// before the vehicle left.
///
/// Predictions (`observe(old:new:now:)`): a stop has departed once its predicted departure (else arrival) is
/// at or before now; its delay comes from the new state of the instance when that still predicts the stop,
/// else from the previous one (a stop the update dropped, or whose carried prediction expired). Canceled and
/// deleted instances, skipped stops, stops without a scheduled time or a delay, and instances without a route
/// record nothing.
/// A departed prediction is held until the next write (`release(now:)`), or recorded at once when a vehicle
/// is already past its stop, so the record does not depend on which of two feeds of the same moment (trip
/// updates, vehicle positions) was applied first.
///
/// Positions (`observe(position:trip:)`): a vehicle STOPPED_AT a stop and later seen past it departed at the
/// last timestamp it was still stopped there. While a vehicle reports positions for an instance, the
/// predictions of stops it has not passed yet are held back, so an observation replaces them; held ones are
/// released when the vehicle passes without being seen stopped, when the instance leaves, or after
/// `holdLimit` (`release(now:)`). Each stop of an instance is recorded once.
struct DepartureCapture {
    /// Seconds a prediction waits at most for the vehicle to pass its stop.
    static let holdLimit: Int64 = 1800

    /// A prediction waiting for the vehicle.
    struct Held {
        var sample: DelaySample
        var since: Int64
    }

    /// What is known of one instance.
    struct Progress {
        /// The index of the first stop the prediction scan has not recorded or passed over.
        var next = 0
        /// Stops recorded (by either way), never recorded again.
        var recorded = StopIndexSet()
        /// The timestamp of the last position used; nil: no vehicle reports this instance.
        var lastPosition: Int64?
        /// Stops before this index the vehicle is past.
        var passed = 0
        /// The stop the vehicle is STOPPED_AT and the last timestamp it was seen there.
        var dwell: (index: Int, last: Int64)?
        /// Predictions of stops the vehicle has not passed yet, by stop index.
        var held: [Int: Held] = [:]
    }

    /// Stop indexes: the first 64 in a word (no allocation for almost every trip), the rest in a set.
    struct StopIndexSet {
        private var low: UInt64 = 0
        private var high: Set<Int> = []

        func contains(_ index: Int) -> Bool { index < 64 ? low & (1 << UInt64(index)) != 0 : high.contains(index) }

        /// Adds `index`; `inserted` is false when it was there.
        @discardableResult
        mutating func insert(_ index: Int) -> (inserted: Bool, memberAfterInsert: Int) {
            if index >= 64 { return high.insert(index) }
            let bit: UInt64 = 1 << UInt64(index)
            defer { low |= bit }
            return (low & bit == 0, index)
        }
    }

    private(set) var progress: [TripInstanceKey: Progress] = [:]
    let zone: ServiceTimeZone
    /// Which dates run a weekend timetable (the static service's `feed_info`); empty: every date its weekday.
    var dayTypes = DayTypeCalendar()

    init(zone: ServiceTimeZone) { self.zone = zone }

    /// The departures that `old` → `new` (nil: the instance left the live state) shows at `now`.
    mutating func observe(old: LiveTrip?, new: LiveTrip?, now: Int64) -> [DelaySample] {
        guard let instance = (new ?? old)?.instance else { return [] }
        if let new, new.relationship == .canceled || new.relationship == .deleted {
            progress[instance] = nil
            return []
        }
        if new == nil, let old, old.relationship == .canceled || old.relationship == .deleted {
            progress[instance] = nil
            return []
        }
        var p = progress[instance] ?? Progress()
        let mark = p.next
        var changed = false
        var samples: [DelaySample] = []
        let count = max(old?.stops.count ?? 0, new?.stops.count ?? 0)
        if mark < count {
            for index in mark..<count {
                let newStop = new.flatMap { index < $0.stops.count ? $0.stops[index] : nil }
                if newStop?.status == .skipped { continue }
                let oldStop = old.flatMap { index < $0.stops.count ? $0.stops[index] : nil }
                guard let stop = Self.predicted(newStop) ?? Self.predicted(oldStop),
                    let time = stop.predictedDeparture ?? stop.predictedArrival, time <= now
                else { continue }
                p.next = index + 1
                changed = true
                guard !p.recorded.contains(index), let routeId = (new ?? old)?.routeId,
                    let delay = stop.departureDelay ?? stop.arrivalDelay,
                    let sample = sample(instance, routeId: routeId, stop: stop, delay: Int(delay))
                else { continue }
                if index < p.passed {
                    p.recorded.insert(index)
                    samples.append(sample)
                } else {
                    // Held even when no vehicle reports the instance yet: a position of the same moment,
                    // applied before or after this update (the feeds are polled apart), then decides alike.
                    p.held[index] = Held(sample: sample, since: now)
                }
            }
        }
        if new == nil {
            samples += p.held.sorted { $0.key < $1.key }.map(\.value.sample)
            progress[instance] = nil
        } else if changed {
            progress[instance] = p
        }
        return samples
    }

    /// The departure a vehicle position shows: `trip` is the live state's instance the position names
    /// (`position.trip`), with its schedule.
    mutating func observe(position: LiveVehicle, trip: LiveTrip) -> [DelaySample] {
        guard let instance = position.trip, instance == trip.instance,
            trip.relationship == .scheduled || trip.relationship == .unscheduled,
            let timestamp = position.timestamp, timestamp > 0, let routeId = trip.routeId
        else { return [] }
        let time = Int64(clamping: timestamp)
        var p = progress[instance] ?? Progress()
        if let last = p.lastPosition, time <= last { return [] }
        guard let index = Self.stopIndex(of: position, in: trip, from: p.dwell?.index ?? p.passed),
            index >= p.passed
        else { return [] }
        p.lastPosition = time
        var samples: [DelaySample] = []
        let stopped = position.currentStatus == "STOPPED_AT"
        if let dwell = p.dwell, dwell.index < index {
            // Past the stop it dwelt at: it left after the last position still stopped there.
            p.dwell = nil
            p.held[dwell.index] = nil
            if p.recorded.insert(dwell.index).inserted {
                let stop = trip.stops[dwell.index]
                if let scheduled = stop.scheduledDeparture ?? stop.scheduledArrival,
                    let sample = sample(instance, routeId: routeId, stop: stop, delay: Int(dwell.last - scheduled))
                {
                    samples.append(sample)
                }
            }
        }
        if stopped {
            if p.dwell?.index == index { p.dwell?.last = time } else if p.dwell == nil { p.dwell = (index, time) }
        }
        if index > p.passed {
            // Stops before this one are passed: their held predictions stand (nothing was observed there).
            p.passed = index
            for (i, held) in p.held.sorted(by: { $0.key < $1.key }) where i < index {
                p.held[i] = nil
                if p.recorded.insert(i).inserted { samples.append(held.sample) }
            }
        }
        progress[instance] = p
        return samples
    }

    /// Predictions held, all instances together.
    var heldCount: Int { progress.values.reduce(0) { $0 + $1.held.count } }

    /// The held predictions to record at `now` (each write): all of an instance no vehicle reports, else
    /// those older than `holdLimit` (the vehicle stopped reporting).
    mutating func release(now: Int64) -> [DelaySample] {
        var samples: [DelaySample] = []
        for (instance, p) in progress where !p.held.isEmpty {
            var p = p
            let tracked = p.lastPosition != nil
            for (i, held) in p.held.sorted(by: { $0.key < $1.key }) where !tracked || now - held.since >= Self.holdLimit
            {
                p.held[i] = nil
                if p.recorded.insert(i).inserted { samples.append(held.sample) }
            }
            progress[instance] = p
        }
        return samples
    }

    /// The stop index a position names: by stop sequence, else the first stop with its id from `from` on.
    private static func stopIndex(of position: LiveVehicle, in trip: LiveTrip, from: Int) -> Int? {
        if let sequence = position.currentStopSequence {
            return trip.stops.firstIndex { $0.stopSequence == sequence }
        }
        guard let id = position.stopId, !id.isEmpty, from < trip.stops.count else { return nil }
        return trip.stops[from...].firstIndex { $0.stopId == id }
    }

    private func sample(_ instance: TripInstanceKey, routeId: String, stop: LiveStop, delay: Int) -> DelaySample? {
        guard let scheduled = stop.scheduledDeparture ?? stop.scheduledArrival,
            let date = GTFSDate(yyyymmdd: Int(instance.serviceDate))
        else { return nil }
        let secs = Int(scheduled - zone.referenceUnix(of: date))
        return DelaySample(
            routeId: routeId, stopId: stop.stopId, serviceDay: date.dayNumber, hour: TypicalDelay.hour(ofSecs: secs),
            dayType: dayTypes.dayType(of: instance.serviceDate, isoWeekday: date.weekday), delay: delay)
    }

    private static func predicted(_ stop: LiveStop?) -> LiveStop? {
        guard let stop, stop.status == .predicted else { return nil }
        return stop
    }
}
