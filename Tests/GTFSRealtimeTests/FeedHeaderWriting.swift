import TransitTesting

extension WireWriter {
    /// A FeedMessage header with version "2.0".
    mutating func header(timestamp: UInt64 = 1_767_225_600) {
        message(1) { h in
            h.string(1, "2.0")
            h.varint(3, timestamp)
        }
    }
}
