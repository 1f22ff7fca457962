import TransitModel

@testable import Gateway

/// Small live values for tests: trip updates with a scheduled and a predicted time per stop.
enum LiveFixtures {
    /// A trip instance with one stop per `(stopId, scheduled, predicted)` (unix; nil: unknown / no prediction);
    /// stop sequences count from `firstSequence`.
    static func trip(
        _ tripId: String, date: ServiceDate = 20_251_222, startSecs: Int32? = nil,
        relationship: LiveTripRelationship = .scheduled, routeId: String? = nil,
        stops: [(stopId: String, scheduled: Int64?, predicted: Int64?)], firstSequence: UInt32 = 1,
        source: String = "tu",
        skipped: Set<String> = []
    ) -> LiveTrip {
        var list: [LiveStop] = []
        for (offset, s) in stops.enumerated() {
            let predicted = s.predicted
            let isSkipped = skipped.contains(s.stopId)
            list.append(
                LiveStop(
                    stopId: s.stopId, stopSequence: firstSequence + UInt32(offset), scheduledArrival: s.scheduled,
                    scheduledDeparture: s.scheduled, predictedArrival: isSkipped ? nil : predicted,
                    predictedDeparture: isSkipped ? nil : predicted,
                    departureDelay: predicted.flatMap { p in s.scheduled.map { Int32(p - $0) } },
                    status: isSkipped ? .skipped : (predicted == nil ? .noData : .predicted)))
        }
        return LiveTrip(
            instance: TripInstanceKey(tripId: tripId, serviceDate: date, startSecs: startSecs),
            relationship: relationship,
            routeId: routeId, stops: list, source: source)
    }

    static func freshSource(_ name: String = "tu", kind: LiveSourceKind = .tripUpdates, now: Int64) -> LiveSourceStatus
    {
        LiveSourceStatus(name: name, kind: kind, feedTimestamp: UInt64(now - 5), lastSuccessUnix: now - 5, stale: false)
    }
}
