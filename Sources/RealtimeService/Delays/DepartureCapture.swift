import DelayStore
import TransitCore
import TransitModel

/// Finds the departures to record in the changes of the live state (protocol/README.md flow 6): for each
/// trip instance and stop, the last predicted delay held before the vehicle left.
///
/// A stop has departed once its predicted departure (else arrival) is at or before now; its delay comes from
/// the new state of the instance when that still predicts the stop, else from the previous one (a stop the
/// update dropped, or whose carried prediction expired). Each stop is recorded once: a high-water mark per
/// instance. Canceled and deleted instances, skipped stops, stops without a scheduled time or a delay, and
/// instances without a route record nothing.
struct DepartureCapture {
    /// Per instance, the index of the first stop not yet recorded or passed over.
    private(set) var marks: [TripInstanceKey: Int] = [:]
    let zone: ServiceTimeZone

    init(zone: ServiceTimeZone) { self.zone = zone }

    /// The departures that `old` → `new` (nil: the instance left the live state) shows at `now`.
    mutating func observe(old: LiveTrip?, new: LiveTrip?, now: Int64) -> [DelaySample] {
        guard let instance = (new ?? old)?.instance else { return [] }
        if let new, new.relationship == .canceled || new.relationship == .deleted {
            marks[instance] = nil
            return []
        }
        if new == nil, let old, old.relationship == .canceled || old.relationship == .deleted {
            marks[instance] = nil
            return []
        }
        let mark = marks[instance] ?? 0
        var samples: [DelaySample] = []
        var next = mark
        let count = max(old?.stops.count ?? 0, new?.stops.count ?? 0)
        if mark < count {
            for index in mark..<count {
                let newStop = new.flatMap { index < $0.stops.count ? $0.stops[index] : nil }
                if newStop?.status == .skipped { continue }
                let oldStop = old.flatMap { index < $0.stops.count ? $0.stops[index] : nil }
                guard let stop = Self.predicted(newStop) ?? Self.predicted(oldStop),
                    let time = stop.predictedDeparture ?? stop.predictedArrival, time <= now
                else { continue }
                next = index + 1
                guard let routeId = (new ?? old)?.routeId,
                    let delay = stop.departureDelay ?? stop.arrivalDelay,
                    let scheduled = stop.scheduledDeparture ?? stop.scheduledArrival,
                    let date = GTFSDate(yyyymmdd: Int(instance.serviceDate))
                else { continue }
                let secs = Int(scheduled - zone.referenceUnix(of: date))
                samples.append(
                    DelaySample(
                        routeId: routeId, stopId: stop.stopId, serviceDay: date.dayNumber,
                        hour: TypicalDelay.hour(ofSecs: secs), dayType: DayType(isoWeekday: date.weekday),
                        delay: Int(delay)))
            }
        }
        if new == nil {
            marks[instance] = nil
        } else if next != mark {
            marks[instance] = next
        }
        return samples
    }

    private static func predicted(_ stop: LiveStop?) -> LiveStop? {
        guard let stop, stop.status == .predicted else { return nil }
        return stop
    }
}
