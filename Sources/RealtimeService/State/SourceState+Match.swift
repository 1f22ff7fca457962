import GTFSRealtime
import RealtimeCore
import TransitModel

// How much of a source's feed the timetable knows (protocol/README.md, "Timetable match"). Counted while an
// update is applied (or everything held is resolved again after a new static database), judged when it is done.

/// The judged match rates of a source's updates over the last hour, and the verdict on a new one. Pure: the
/// caller gives the time.
struct MatchHistory {
    /// How far back the median looks.
    static let window: Int64 = 3600
    /// A rate this far (per-mille) below the median is a mismatch, whatever the minimum.
    static let medianDrop: UInt32 = 300

    /// (unix, per-mille), oldest first.
    private(set) var samples: [(unix: Int64, permille: UInt32)] = []

    /// The median of the rates recorded in the hour before `now` (the source's own baseline, the rate judged now
    /// left out); nil without any.
    func median(before now: Int64) -> (permille: UInt32, samples: Int)? {
        let recent = samples.filter { $0.unix > now - Self.window && $0.unix <= now }.map(\.permille).sorted()
        guard !recent.isEmpty else { return nil }
        let middle = recent.count / 2
        let median = recent.count % 2 == 1 ? recent[middle] : (recent[middle - 1] + recent[middle] + 1) / 2
        return (median, recent.count)
    }

    mutating func record(_ permille: UInt32, at now: Int64) {
        samples.removeAll { $0.unix <= now - Self.window || $0.unix > now }  // old ones, and any from a clock set back
        samples.append((now, permille))
    }

    /// Below `minimum`, or more than `medianDrop` below the median: the static data no longer fits the feed.
    static func isMismatch(_ permille: UInt32, median: UInt32?, minimum: UInt32) -> Bool {
        if permille < minimum { return true }
        guard let median else { return false }
        return median > permille + medianDrop
    }
}

extension SourceState {
    /// Starts counting an update (or a resolving again).
    mutating func beginMatchTally() {
        matchTally = (LiveMatchCount(), LiveMatchCount())
    }

    /// A trip update resolved: counted when it names a scheduled trip (ADDED, NEW, DUPLICATED and UNSCHEDULED
    /// name none; one the static service could not be asked about tells nothing of the timetable).
    mutating func tallyTripUpdate(
        _ descriptor: TripDescriptor, _ resolution: TripResolution?, _ schedules: ScheduleCache
    ) {
        guard Self.namesScheduledTrip(descriptor), let matched = matches(descriptor, resolution, schedules) else {
            return
        }
        matchTally.tripUpdates.considered += 1
        if matched { matchTally.tripUpdates.matched += 1 }
    }

    /// A vehicle with a trip: the same rule.
    mutating func tallyVehicle(_ descriptor: TripDescriptor?, _ resolution: TripResolution?, _ schedules: ScheduleCache)
    {
        guard let descriptor, descriptor.tripId.nonEmptyText != nil, Self.namesScheduledTrip(descriptor),
            let matched = matches(descriptor, resolution, schedules)
        else { return }
        matchTally.vehicles.considered += 1
        if matched { matchTally.vehicles.matched += 1 }
    }

    /// Ends the count: the judged rate (trip updates', else vehicles'), its median over the hour before and the
    /// verdict. An update that names no scheduled trip keeps the last judgement.
    mutating func finishMatchTally(now: Int64) {
        let (tripUpdates, vehicles) = matchTally
        guard let rate = tripUpdates.permille ?? vehicles.permille else { return }
        let median = matchHistory.median(before: now)
        let mismatch = MatchHistory.isMismatch(rate, median: median?.permille, minimum: settings.minMatchPermille)
        let since = mismatch ? (match?.mismatchSinceUnix ?? now) : nil
        matchHistory.record(rate, at: now)
        match = LiveTimetableMatch(
            tripUpdates: tripUpdates, vehicles: vehicles, ratePermille: rate, medianPermille: median?.permille,
            samples: UInt32(median?.samples ?? 0), minPermille: settings.minMatchPermille, mismatch: mismatch,
            mismatchSinceUnix: since)
    }

    private static func namesScheduledTrip(_ descriptor: TripDescriptor) -> Bool {
        switch descriptor.scheduleRelationship ?? .scheduled {
        case .added, .new, .duplicated, .unscheduled: return false
        default: return true
        }
    }

    /// Whether the resolution found a timetable trip; nil when it says nothing about the timetable (no schedule
    /// to be had from the static service). A trip resolved by its own stops (a REPLACEMENT trip the timetable
    /// does not know) found none.
    private func matches(_ descriptor: TripDescriptor, _ resolution: TripResolution?, _ schedules: ScheduleCache)
        -> Bool?
    {
        switch resolution {
        case nil, .resolved?, .deleted?:
            guard let id = descriptor.tripId.nonEmptyText else { return true }  // matched by route and start
            let prefix = settings.idPrefix
            return schedules.schedule(tripId: prefix.isEmpty ? id : prefix + id) != nil
        case .dropped(let drop)?:
            return classify(drop, schedules) == .scheduleUnavailable ? nil : false
        }
    }
}
