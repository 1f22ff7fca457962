import TransitModel

/// The two text fields of a TripDescriptor: start_time ("HH:MM:SS", hours may exceed 23, a one-digit hour
/// is accepted) and start_date ("YYYYMMDD"). Byte-level, no Foundation, nil on anything else.
enum GTFSTimeText {
    /// Seconds since the service day's reference, or nil when not H:MM:SS / HH:MM:SS with MM, SS < 60.
    static func parseTime(_ text: String) -> Int32? {
        var hours: Int32 = 0, minutes: Int32 = 0, seconds: Int32 = 0
        var field = 0, digits = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: ":") {
                guard digits > 0, field < 2 else { return nil }
                if field > 0, digits != 2 { return nil }
                field += 1
                digits = 0
                continue
            }
            guard byte >= 0x30, byte <= 0x39, digits < 3 else { return nil }
            let value = Int32(byte &- 0x30)
            switch field {
            case 0: hours = hours * 10 + value
            case 1: minutes = minutes * 10 + value
            default: seconds = seconds * 10 + value
            }
            digits += 1
        }
        guard field == 2, digits == 2, minutes < 60, seconds < 60 else { return nil }
        return hours * 3600 + minutes * 60 + seconds
    }

    /// "HH:MM:SS" (hours past 23 kept), "-" prefixed when negative.
    static func format(_ secs: Int32) -> String {
        let sign = secs < 0 ? "-" : ""
        let value = secs.magnitude
        let h = value / 3600, m = value / 60 % 60, s = value % 60
        return sign + (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m):" + (s < 10 ? "0" : "") + "\(s)"
    }

    /// YYYYMMDD as a `ServiceDate`, nil unless 8 digits naming a real calendar date.
    static func parseDate(_ text: String) -> ServiceDate? {
        var value: UInt32 = 0, count = 0
        for byte in text.utf8 {
            guard byte >= 0x30, byte <= 0x39, count < 8 else { return nil }
            value = value * 10 + UInt32(byte &- 0x30)
            count += 1
        }
        guard count == 8, CivilDate(serviceDate: value) != nil else { return nil }
        return value
    }
}
