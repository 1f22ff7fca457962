// The numbers of the static service's contract, defined once: the service enforces them (StaticService's
// request checks, TransitStore's queries) and its clients rely on them (the gateway's request checks, its board
// paging and board window cache). Changing one here changes every side together.

/// Ranges every static request must respect. The static service is the last line of defence: the gateway
/// checks the same ranges before asking (its search and nearby pass the client's values through unchanged),
/// other clients (the debug client, the realtime service, tests) may not, so an out-of-range request gets
/// INVALID_ARGUMENT with a message naming the field.
public enum StaticRequestLimits {
    /// Largest `limit` of search, nearby and departures; the gateway's static board pages ask at most this.
    public static let maxLimit = 100
    /// `limit` of search, nearby and departures.
    public static let limitRange = 1...maxLimit
    /// `radius_m` of nearby: more than 0, at most this.
    public static let maxRadiusMetres = 5000.0
    /// Largest side of a `stops_in_bbox` box, in degrees of latitude or longitude (about 55 km north–south):
    /// a map view wider than that shows too many stops to be useful, and the answer's limit would cut it.
    public static let maxBBoxDegrees = 0.5
    /// `at` (unix seconds): 0 … 2100-01-01T00:00:00Z.
    public static let atRange: ClosedRange<Int64> = 0...4_102_444_800
    /// Ids (stop, trip), in bytes.
    public static let maxIdBytes = 255
    /// Search text (`q`), in bytes.
    public static let maxSearchBytes = 800
    /// Cursors are opaque but short; anything longer is not one of ours.
    public static let maxCursorBytes = 512
}

extension DepartureBoard {
    /// How far a departures query searches ahead of (or back from) its anchor to fill its limit, in seconds.
    /// Fewer rows than asked means no other departure is scheduled within this span: the gateway's paging and
    /// its board window cache conclude from that where the board is complete.
    public static let horizon: Int64 = 86_400
}
