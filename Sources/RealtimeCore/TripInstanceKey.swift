import TransitModel

/// One running of a trip: the key of the live state.
///
/// - `tripId`: the static trip id (with the feed's id prefix), or for a DUPLICATED trip the new id from
///   `trip_properties`, or the realtime id of a NEW/ADDED trip.
/// - `serviceDate`: the GTFS service date (YYYYMMDD) the instance belongs to, which is the date its
///   times are measured from (a 24:30:00 trip runs after midnight on the next calendar day).
/// - `startSecs`: the instance's start (GTFS seconds of its first departure) when the trip id and date
///   alone do not name one instance: frequency-based trips, DUPLICATED copies, and added trips given a
///   start_time (so an ADDED copy of a static trip never collides with the scheduled instance). `nil`
///   for ordinary scheduled trips.
public struct TripInstanceKey: Hashable, Sendable, CustomStringConvertible {
    public var tripId: String
    public var serviceDate: ServiceDate
    public var startSecs: Int32?

    public init(tripId: String, serviceDate: ServiceDate, startSecs: Int32? = nil) {
        self.tripId = tripId
        self.serviceDate = serviceDate
        self.startSecs = startSecs
    }

    /// `trip@20250314` or `trip@20250314+08:15:00`.
    public var description: String {
        guard let startSecs else { return "\(tripId)@\(serviceDate)" }
        return "\(tripId)@\(serviceDate)+\(GTFSTimeText.format(startSecs))"
    }
}
