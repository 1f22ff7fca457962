import TransitModel

/// The outcome of resolving one trip update.
public enum TripResolution: Sendable, Hashable {
    /// Store (replace) the live state of `trip.key`.
    case resolved(ResolvedTrip)
    /// DELETED: the instance must disappear from every view, its schedule included (the live state keeps
    /// a tombstone under this key so the static departures do not show it either).
    case deleted(TripInstanceKey)
    /// The update was not used; count the reason upstream.
    case dropped(TripUpdateDrop)

    public var resolvedTrip: ResolvedTrip? {
        if case .resolved(let trip) = self { return trip }
        return nil
    }

    public var drop: TripUpdateDrop? {
        if case .dropped(let drop) = self { return drop }
        return nil
    }
}

/// Why a trip update was dropped: a countable reason plus a message naming the trip and the cause.
public struct TripUpdateDrop: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The trip id is not in the static schedule (and the update does not carry its own stops), or a
        /// descriptor without trip_id matches no static trip (or lacks a field to find one by).
        case unknownTrip
        /// The descriptor names no running of the trip: start_date off its service days, a start_time
        /// outside its frequencies, or no service day whose times the update fits.
        case noMatchingInstance
        /// Several instances fit equally well (missing start_date or start_time), or several static trips
        /// match a descriptor without trip_id.
        case ambiguousInstance
        /// A descriptor without trip_id whose matching trips (or their schedule) the static service has not
        /// told (yet): not the feed's fault.
        case scheduleUnavailable
        /// A delay, or a time's distance to its schedule, of more than the limit (a day by default).
        case absurdDelay
        /// The update breaks the spec in a way that leaves nothing to resolve (no trip id, bad dates or
        /// times, a DUPLICATED trip without trip_properties, an added trip without stops, ...).
        case malformed
    }

    public var reason: Reason
    /// The update's trip id, when it has one.
    public var tripId: String?
    public var message: String

    public init(_ reason: Reason, tripId: String?, _ message: String) {
        self.reason = reason
        self.tripId = tripId
        self.message = message
    }

    public var description: String {
        "\(reason.rawValue)" + (tripId.map { " (trip \"\($0)\")" } ?? "") + ": \(message)"
    }
}
