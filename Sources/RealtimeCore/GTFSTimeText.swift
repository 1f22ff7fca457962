import TransitCore
import TransitModel

/// The two text fields of a TripDescriptor, via TransitCore's GTFS parsers: start_time ("HH:MM:SS",
/// hours may exceed 23) and start_date ("YYYYMMDD"); nil for anything else.
enum GTFSTimeText {
    /// Seconds since the service day's reference.
    static func parseTime(_ text: String) -> Int32? {
        guard let secs = try? GTFSTime.parse(text) else { return nil }
        return Int32(secs)
    }

    static func format(_ secs: Int32) -> String { GTFSTime.format(Int(secs)) }

    static func parseDate(_ text: String) -> ServiceDate? {
        GTFSDate(text).map { ServiceDate($0.yyyymmdd) }
    }
}

extension GTFSDate {
    var serviceDate: ServiceDate { ServiceDate(yyyymmdd) }
}
