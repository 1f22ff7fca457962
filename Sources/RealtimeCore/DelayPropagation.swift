import GTFSRealtime
import TransitModel

/// The GTFS-Realtime prediction rules over the stops of a scheduled instance, in one pass.
///
/// Walking the stops in order with a "carried" state (what the last update said for the stops after it):
/// - start: the trip-level delay (TripUpdate.delay) if given, else nothing known — stops before the first
///   stop time update get no prediction (the spec: do not assume on time);
/// - an update with times: arrival and departure from their `time` (absolute; wins over `delay`) or
///   `delay` (relative to the schedule). A missing departure takes the arrival's delay; a missing arrival
///   takes the delay carried from upstream (else the departure's). If the departure would then be before
///   the arrival, the derived one of the two is moved onto the other (both given: the departure is raised
///   to the arrival). The departure delay is carried on;
/// - a SCHEDULED update with neither arrival nor departure means "delay unknown from here" (spec example:
///   stop_sequence 10 with unspecified delay) and is treated as NO_DATA;
/// - NO_DATA (and unknown stop relationships): no prediction here and downstream until the next update
///   with times;
/// - SKIPPED: the stop is marked, gets no prediction, and the carried state passes through unchanged;
/// - stops without an update take the carried delay (predicted = scheduled + delay), or none.
/// A time or delay more than `maxDelaySecs` off the schedule rejects the whole update.
extension TripUpdateResolver {
    enum Carried {
        case nothing
        case noData
        /// A delay and where it came from (`tripDelay` before the first update, else `propagated`).
        case delay(Int64, LivePredictionSource)
    }

    /// Stops of the instance whose offset 0 is at `baseUnix`, with predictions. Uses `matcher.pairs`.
    /// Each stop takes the properties of its matched update too (`LiveStop.takeProperties`): one match decides
    /// where an update's times and properties go.
    func propagate(_ update: TripUpdate, stops: [PatternStop], baseUnix: Int64) throws(TripUpdateDrop) -> [LiveStop] {
        let updates = update.stopTimeUpdates
        let pairs = matcher.pairs
        var result: [LiveStop] = []
        result.reserveCapacity(stops.count)
        var carried: Carried = update.delay.map { .delay(Int64($0), .tripDelay) } ?? .nothing
        var next = 0
        for index in stops.indices {
            let stop = stops[index]
            let scheduledArrival = baseUnix + Int64(stop.arrivalOffset)
            let scheduledDeparture = baseUnix + Int64(stop.departureOffset)
            var assignedStopId: String?
            var predictedArrival: Int64?
            var predictedDeparture: Int64?
            var status = LiveStopStatus.noPrediction
            var source = LivePredictionSource.schedule
            var matchedUpdate: Int?
            if next < pairs.count, StopUpdateMatcher.stopIndex(pairs[next]) == index {
                // Fields are read through the array (no copy of the whole StopTimeUpdate).
                let u = StopUpdateMatcher.updateIndex(pairs[next])
                next += 1
                matchedUpdate = u
                assignedStopId = updates[u].stopTimeProperties?.assignedStopId.nonEmpty
                if assignedStopId == nil, !matcher.platformChanges.isEmpty, matcher.platformChanges.contains(u) {
                    assignedStopId = updates[u].stopId  // another platform of the scheduled stop's station
                }
                switch updates[u].scheduleRelationship ?? .scheduled {
                case .skipped:
                    status = .skipped
                case .scheduled, .unscheduled:
                    let arrival = try eventTime(
                        updates[u].arrival, scheduled: scheduledArrival, update, stop, "arrival")
                    let departure = try eventTime(
                        updates[u].departure, scheduled: scheduledDeparture, update, stop, "departure")
                    var arrivalDerived = false
                    var departureDerived = false
                    var predicted: (arrival: Int64, departure: Int64)
                    if let arrival {
                        if let departure {
                            predicted = (arrival, departure)
                        } else {
                            predicted = (arrival, scheduledDeparture + (arrival - scheduledArrival))
                            departureDerived = true
                        }
                    } else if let departure {
                        let upstream: Int64
                        if case .delay(let delay, _) = carried {
                            upstream = delay
                        } else {
                            upstream = departure - scheduledDeparture
                        }
                        predicted = (scheduledArrival + upstream, departure)
                        arrivalDerived = true
                    } else {
                        status = .noData
                        carried = .noData
                        break
                    }
                    if predicted.departure < predicted.arrival {
                        if arrivalDerived && !departureDerived {
                            predicted.arrival = predicted.departure
                        } else {
                            predicted.departure = predicted.arrival
                        }
                    }
                    predictedArrival = predicted.arrival
                    predictedDeparture = predicted.departure
                    status = .predicted
                    source = .stopUpdate
                    carried = .delay(predicted.departure - scheduledDeparture, .propagated)
                case .noData, .unknown:
                    status = .noData
                    carried = .noData
                }
            } else {
                switch carried {
                case .nothing:
                    break
                case .noData:
                    status = .noData
                case .delay(let delay, let from):
                    predictedArrival = scheduledArrival + delay
                    predictedDeparture = scheduledDeparture + delay
                    status = .predicted
                    source = from
                }
            }
            var resolved = LiveStop(
                stopId: stop.stopId, stopSequence: stop.stopSequence, assignedStopId: assignedStopId,
                scheduledArrival: scheduledArrival, scheduledDeparture: scheduledDeparture,
                predictedArrival: predictedArrival, predictedDeparture: predictedDeparture,
                arrivalDelay: predictedArrival.map { Int32(clamping: $0 - scheduledArrival) },
                departureDelay: predictedDeparture.map { Int32(clamping: $0 - scheduledDeparture) }, status: status,
                predictionSource: source)
            if let matchedUpdate { resolved.takeProperties(of: updates[matchedUpdate]) }
            result.append(resolved)
        }
        return result
    }

    /// The predicted time of an event: its `time` when set (> 0: some producers send 0 for "unset"),
    /// else scheduled + `delay`; nil when it has neither. Rejects what is more than the limit off.
    func eventTime(
        _ event: StopTimeEvent?, scheduled: Int64?, _ update: TripUpdate, _ stop: PatternStop?, _ what: String
    ) throws(TripUpdateDrop) -> Int64? {
        guard let event else { return nil }
        let predicted: Int64
        if let time = event.time, time > 0 {
            guard PlausibleTime.contains(time) else {
                throw TripUpdateDrop(
                    .absurdDelay, tripId: update.trip.tripId, "\(what) time \(time) is not a plausible POSIX time")
            }
            predicted = time
        } else if let delay = event.delay, let scheduled {
            predicted = scheduled + Int64(delay)
        } else {
            return nil
        }
        if let scheduled, (predicted - scheduled).magnitude > UInt64(clamping: options.maxDelaySecs) {
            let place = stop.map { "stop_sequence \($0.stopSequence) (stop \($0.stopId))" } ?? "a stop"
            throw TripUpdateDrop(
                .absurdDelay, tripId: update.trip.tripId,
                "\(what) at \(place) is \(predicted - scheduled) s off its schedule (limit ±\(options.maxDelaySecs) s)")
        }
        return predicted
    }

    /// The stops of an instance with their schedule only (canceled trips).
    func scheduleOnly(_ stops: [PatternStop], baseUnix: Int64) -> [LiveStop] {
        var result: [LiveStop] = []
        result.reserveCapacity(stops.count)
        for stop in stops {
            result.append(
                LiveStop(
                    stopId: stop.stopId, stopSequence: stop.stopSequence,
                    scheduledArrival: baseUnix + Int64(stop.arrivalOffset),
                    scheduledDeparture: baseUnix + Int64(stop.departureOffset), status: .noPrediction))
        }
        return result
    }
}

/// POSIX times the resolver accepts from a feed: after 1970 and before 9998-12-31, so that every sum
/// and difference with schedule times stays far from Int64 overflow and every date derived from one is
/// a YYYYMMDD date.
enum PlausibleTime {
    static let upperBound: Int64 = 253_370_678_400

    @inline(__always)
    static func contains(_ time: Int64) -> Bool { time > 0 && time < upperBound }

    /// The value when plausible, else nil.
    @inline(__always)
    static func filter(_ time: Int64?) -> Int64? {
        guard let time, contains(time) else { return nil }
        return time
    }
}
