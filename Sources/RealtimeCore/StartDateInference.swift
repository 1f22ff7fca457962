import TransitModel

/// Picks the service date of a trip update that has no start_date.
///
/// The candidates are the instances of the trip on the service dates around the update (the resolver
/// passes the previous days, today and tomorrow, only among the dates the trip runs on). Each is scored by
/// how far the update is from it, in seconds:
/// - with an absolute time at a stop: |time − that stop's scheduled time on the date| (the implied delay);
/// - otherwise from the moment the progress was measured (TripUpdate.timestamp, else now): its distance
///   to the instance's scheduled span shifted by the known delay (0 inside the span).
/// The closest candidate wins if it is within `maxDistance`; when the runner-up is within `maxDistance`
/// too and less than `ambiguityMargin` further away, the update is ambiguous (it could be either running,
/// e.g. a trip longer than a day, or a moment halfway between two daily instances).
public enum StartDateInference {
    /// One instance the update could be about.
    public struct Candidate: Sendable, Hashable {
        public var serviceDate: ServiceDate
        /// Unix time of schedule offset 0 of the instance on that date (service-day reference + start).
        public var baseUnix: Int64
        public init(serviceDate: ServiceDate, baseUnix: Int64) {
            self.serviceDate = serviceDate
            self.baseUnix = baseUnix
        }
    }

    /// What the update says about when it runs.
    public enum Evidence: Sendable, Hashable {
        /// A predicted absolute time at a stop scheduled `offset` seconds after the instance's base.
        case stopTime(offset: Int64, time: Int64)
        /// Progress measured at `unix`, `delay` seconds late, on an instance spanning offsets
        /// `firstOffset...lastOffset`.
        case measuredAt(unix: Int64, delay: Int64, firstOffset: Int64, lastOffset: Int64)
    }

    public enum Choice: Sendable, Hashable {
        case chosen(ServiceDate)
        /// No candidate, or the nearest is `distance` seconds away (nil: no candidate at all).
        case noMatch(distance: Int64?)
        case ambiguous(ServiceDate, ServiceDate)
    }

    public static let defaultMaxDistance: Int64 = 12 * 3600
    public static let defaultAmbiguityMargin: Int64 = 3600

    public static func choose(
        _ candidates: [Candidate], evidence: Evidence,
        maxDistance: Int64 = defaultMaxDistance, ambiguityMargin: Int64 = defaultAmbiguityMargin
    ) -> Choice {
        var best: (date: ServiceDate, score: Int64)?
        var second: (date: ServiceDate, score: Int64)?
        for candidate in candidates {
            let score = distance(candidate, evidence)
            if best == nil || score < best!.score {
                second = best
                best = (candidate.serviceDate, score)
            } else if second == nil || score < second!.score {
                second = (candidate.serviceDate, score)
            }
        }
        guard let best else { return .noMatch(distance: nil) }
        guard best.score <= maxDistance else { return .noMatch(distance: best.score) }
        if let second, second.score <= maxDistance, second.score - best.score < ambiguityMargin {
            return .ambiguous(min(best.date, second.date), max(best.date, second.date))
        }
        return .chosen(best.date)
    }

    static func distance(_ candidate: Candidate, _ evidence: Evidence) -> Int64 {
        switch evidence {
        case .stopTime(let offset, let time):
            return abs(time - (candidate.baseUnix + offset))
        case .measuredAt(let unix, let delay, let firstOffset, let lastOffset):
            let start = candidate.baseUnix + firstOffset + delay
            let end = candidate.baseUnix + lastOffset + delay
            if unix < start { return start - unix }
            if unix > end { return unix - end }
            return 0
        }
    }
}
