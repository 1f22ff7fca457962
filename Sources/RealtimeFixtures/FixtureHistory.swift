import DelayStore
import Foundation
import TransitCore
import TransitModel

/// A recorded past for the fixtures: the departure delays the realtime service would have recorded had the
/// fixture moment's trips run on each of the service days before it, so typical delays and reliability have
/// figures on a fresh demo (a delay store fills only as vehicles leave, and a frozen clock never lets one
/// leave). Deterministic: the same schedule gives the same samples.
public enum FixtureHistory {
    /// Service days recorded before the fixture moment's own.
    public static let days = 21

    /// One sample per instance, stop with a departure (the last one has none) and earlier service day (fewer
    /// at the seldom recorded stops).
    public static func samples(_ schedule: FixtureSchedule, days: Int = days) -> [DelaySample] {
        guard let zone = try? ServiceTimeZone(identifier: schedule.timeZone) else { return [] }
        var samples: [DelaySample] = []
        for instance in schedule.instances {
            guard let date = GTFSDate(yyyymmdd: Int(instance.serviceDate)) else { continue }
            let reference = zone.referenceUnix(of: date)
            for k in instance.stops.indices.dropLast() {
                let secs = Int(instance.departure(k) - reference)
                // One stop in five was seldom recorded (about one day in four), so its typical delay falls back
                // to the route's, as where a producer leaves a stop out of its updates.
                let seldom = FixtureGenerator.fnv(instance.stops[k].stopId) % 5 == 0
                for back in 1...max(1, days) {
                    let day = GTFSDate(dayNumber: date.dayNumber - back)
                    let hash = FixtureGenerator.fnv("\(instance.trip.tripId)|\(k)|\(day.dayNumber)")
                    if seldom && hash / 160 % 4 != 0 { continue }
                    samples.append(
                        DelaySample(
                            routeId: instance.trip.routeId, stopId: instance.stops[k].stopId,
                            serviceDay: day.dayNumber, hour: TypicalDelay.hour(ofSecs: secs),
                            dayType: DayType(isoWeekday: day.weekday),
                            delay: delay(hash)))
                }
            }
        }
        return samples
    }

    /// A delay in seconds: mostly on time, a third a few minutes late, a few early or very late.
    static func delay(_ hash: UInt64) -> Int {
        let step = Int(hash / 20 % 8)
        switch hash % 20 {
        case 0: return -90 - step * 15  // early
        case 1..<12: return step * 20 - 30  // −30 … +110 s
        case 12..<18: return 120 + step * 30  // +2 … +5.5 min
        default: return 360 + step * 60  // +6 … +13 min
        }
    }

    /// Writes `samples(schedule)` into a new delay store at `path` (an existing store there, with its WAL
    /// files, is replaced). Returns how many were kept.
    @discardableResult
    public static func write(_ schedule: FixtureSchedule, toStore path: String) throws -> Int {
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            do {
                try FileManager.default.removeItem(atPath: path + suffix)
            } catch {
                throw FixtureError("cannot replace the delay store \(path + suffix): \(error.localizedDescription)")
            }
        }
        let store = try DelayStore(path: path)
        let kept = try store.add(samples(schedule))
        try store.checkpoint()
        return kept
    }
}
