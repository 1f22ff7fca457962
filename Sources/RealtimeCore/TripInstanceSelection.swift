import GTFSRealtime
import TransitCore
import TransitModel

/// Which running of a static trip an update is about: frequency instance (start_time) and service date
/// (start_date, or inferred).
extension TripUpdateResolver {
    /// A static trip instance: its key, its zone, and the unix time of schedule offset 0.
    struct Instance {
        var key: TripInstanceKey
        var zone: Int
        var baseUnix: Int64
    }

    /// The instance a SCHEDULED/UNSCHEDULED/CANCELED/DELETED/REPLACEMENT update names. Also matches the
    /// update's stop time updates to the pattern (`matcher.pairs`), as start-date inference uses them.
    /// `firstDepartureOffset`: the offset a frequency run's start_time is at, when `trip.stops` are not the
    /// original pattern's (a modified trip whose first stop was replaced); nil: the first stop's departure.
    mutating func staticInstance(
        _ update: TripUpdate, trip: StaticTrip, now: Int64, firstDepartureOffset: Int32? = nil
    ) throws(TripUpdateDrop) -> Instance {
        let schedule = trip.schedule
        let tripId = update.trip.tripId
        let zone = try self.zone(schedule.timezone, tripId: tripId)
        let baseSecs: Int64
        let keyStart: Int32?
        if schedule.frequencies.isEmpty {
            // start_time of a non-frequency trip "should be omitted or equal to the schedule"; it is not
            // needed to name the instance, so a differing one is ignored rather than refused.
            baseSecs = Int64(schedule.startSecs)
            keyStart = nil
        } else {
            guard let text = update.trip.startTime.nonEmpty else {
                throw TripUpdateDrop(.ambiguousInstance, tripId: tripId, "frequency-based trip without start_time")
            }
            let start = try parseStartTime(text, tripId: tripId)
            guard schedule.frequencies.contains(where: { $0.admits(start) }) else {
                throw TripUpdateDrop(
                    .noMatchingInstance, tripId: tripId,
                    "start_time \(text) is not an instance of the trip's frequencies (\(Self.describe(schedule.frequencies)))"
                )
            }
            // Frequency start times are the first departure; pattern offsets count from the trip's first time.
            baseSecs = Int64(start) - Int64(firstDepartureOffset ?? trip.stops[0].departureOffset)
            keyStart = start
        }
        matcher.match(update.stopTimeUpdates, stops: trip.stops)
        let date = try serviceDate(
            update, explicit: update.trip.startDate.nonEmpty, zone: zone, stops: trip.stops, baseSecs: baseSecs,
            runsOn: schedule.serviceDates, now: now)
        let baseUnix = clock.referenceUnix(zone: zone, date: date) + baseSecs
        let key = TripInstanceKey(tripId: schedule.tripId, serviceDate: date.serviceDate, startSecs: keyStart)
        return Instance(key: key, zone: zone, baseUnix: baseUnix)
    }

    /// The service date: start_date when given (and, for `runsOn`, one of the trip's dates), else the
    /// candidate date the update fits best (`StartDateInference`). Uses `matcher.pairs`.
    mutating func serviceDate(
        _ update: TripUpdate, explicit: String?, zone: Int, stops: [PatternStop], baseSecs: Int64,
        runsOn: [ServiceDate]?, now: Int64
    ) throws(TripUpdateDrop) -> GTFSDate {
        let tripId = update.trip.tripId
        if let explicit {
            guard let date = GTFSDate(explicit) else {
                throw TripUpdateDrop(.malformed, tripId: tripId, "start_date \"\(explicit)\" is not a YYYYMMDD date")
            }
            if let runsOn, !runsOn.contains(date.serviceDate) {
                throw TripUpdateDrop(
                    .noMatchingInstance, tripId: tripId,
                    "the trip does not run on start_date \(explicit) (service dates loaded: \(Self.describe(runsOn)))")
            }
            return date
        }
        let evidence = inferenceEvidence(update, stops: stops, now: now)
        let anchor: Int64
        switch evidence {
        case .stopTime(_, let time): anchor = time
        case .measuredAt(let unix, _, _, _): anchor = unix
        }
        let today = clock.localDate(zone: zone, unix: anchor)
        let lastOffset = Int64(stops[stops.count - 1].departureOffset)
        let spanDays = Int(max(0, baseSecs + lastOffset) / 86_400)
        var candidates: [StartDateInference.Candidate] = []
        var days: [GTFSDate] = []
        for day in (today.dayNumber - 1 - spanDays)...(today.dayNumber + 1) {
            let date = GTFSDate(dayNumber: day)
            let serviceDate = date.serviceDate
            if let runsOn, !runsOn.contains(serviceDate) { continue }
            candidates.append(
                .init(serviceDate: serviceDate, baseUnix: clock.referenceUnix(zone: zone, date: date) + baseSecs))
            days.append(date)
        }
        switch StartDateInference.choose(
            candidates, evidence: evidence, maxDistance: options.inferenceMaxDistanceSecs,
            ambiguityMargin: options.inferenceAmbiguityMarginSecs)
        {
        case .chosen(let date):
            return days[candidates.firstIndex { $0.serviceDate == date }!]
        case .ambiguous(let a, let b):
            throw TripUpdateDrop(
                .ambiguousInstance, tripId: tripId, "no start_date and the update fits the instances of \(a) and \(b)")
        case .noMatch(let distance):
            let around = today.serviceDate
            if let distance {
                throw TripUpdateDrop(
                    .noMatchingInstance, tripId: tripId,
                    "no start_date and the nearest instance (around \(around)) is \(distance) s from the update")
            }
            throw TripUpdateDrop(
                .noMatchingInstance, tripId: tripId, "no start_date and the trip does not run around \(around)")
        }
    }

    /// The first absolute time of a matched stop time update, else the measuring moment with the first
    /// known delay.
    func inferenceEvidence(_ update: TripUpdate, stops: [PatternStop], now: Int64) -> StartDateInference.Evidence {
        var firstDelay: Int32?
        for pair in matcher.pairs {
            let stopUpdate = update.stopTimeUpdates[StopUpdateMatcher.updateIndex(pair)]
            let stop = stops[StopUpdateMatcher.stopIndex(pair)]
            if let time = PlausibleTime.filter(stopUpdate.arrival?.time) {
                return .stopTime(offset: Int64(stop.arrivalOffset), time: time)
            }
            if let time = PlausibleTime.filter(stopUpdate.departure?.time) {
                return .stopTime(offset: Int64(stop.departureOffset), time: time)
            }
            if firstDelay == nil { firstDelay = stopUpdate.arrival?.delay ?? stopUpdate.departure?.delay }
        }
        var at = now
        if let timestamp = update.timestamp, timestamp < UInt64(PlausibleTime.upperBound), timestamp > 0 {
            at = Int64(timestamp)
        }
        return .measuredAt(
            unix: at, delay: Int64(firstDelay ?? update.delay ?? 0), firstOffset: Int64(stops[0].arrivalOffset),
            lastOffset: Int64(stops[stops.count - 1].departureOffset))
    }

    mutating func zone(_ identifier: String, tripId: String?) throws(TripUpdateDrop) -> Int {
        guard let zone = clock.zone(identifier) else {
            throw TripUpdateDrop(.malformed, tripId: tripId, "unknown timezone \"\(identifier)\"")
        }
        return zone
    }

    func parseStartTime(_ text: String, tripId: String?) throws(TripUpdateDrop) -> Int32 {
        guard let start = GTFSTimeText.parseTime(text) else {
            throw TripUpdateDrop(.malformed, tripId: tripId, "start_time \"\(text)\" is not HH:MM:SS")
        }
        return start
    }

    static func describe(_ windows: [FrequencyWindow]) -> String {
        windows.map {
            "\(GTFSTimeText.format($0.startSecs))-\(GTFSTimeText.format($0.endSecs)) every \($0.headwaySecs) s"
                + ($0.exactTimes ? " exact" : "")
        }.joined(separator: ", ")
    }

    static func describe(_ dates: [ServiceDate]) -> String {
        dates.isEmpty
            ? "none" : dates.prefix(8).map(String.init).joined(separator: ", ") + (dates.count > 8 ? ", …" : "")
    }
}

extension FrequencyWindow {
    /// Whether an instance may start at `start`: exact_times=1 on the grid start + k·headway before the
    /// end; exact_times=0 anywhere in the window (its start times are not fixed by the schedule).
    func admits(_ start: Int32) -> Bool {
        if exactTimes {
            guard headwaySecs > 0, start >= startSecs, start < endSecs else { return false }
            return (start - startSecs) % headwaySecs == 0
        }
        return start >= startSecs && start <= endSecs
    }
}
