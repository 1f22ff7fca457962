import TransitModel

// The timetable match of a realtime source, as `health` and `transit-realtime query sources` show it.

extension JSONWriter {
    /// A realtime source's `match` (GATEWAY.md `health`, the realtime service's `sources` query): null before its
    /// first update naming a scheduled trip.
    public mutating func timetableMatch(_ match: LiveTimetableMatch?) {
        guard let match else { return null() }
        func rate(_ permille: UInt32?) -> Double? { permille.map { Double($0) / 1000 } }
        beginObject()
        for (name, count) in [("trip_updates", match.tripUpdates), ("vehicles", match.vehicles)] {
            key(name); beginObject()
            key("considered"); int(count.considered)
            key("matched"); int(count.matched)
            endObject()
        }
        key("rate"); double(rate(match.ratePermille))
        key("median_hour"); double(rate(match.medianPermille))
        key("samples_hour"); int(match.samples)
        key("min_rate"); double(rate(match.minPermille))
        key("mismatch"); bool(match.mismatch)
        key("mismatch_since_unix"); int(match.mismatchSinceUnix)
        endObject()
    }
}
