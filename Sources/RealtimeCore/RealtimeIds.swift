/// Ids in a realtime feed are the agency's; the static database stores them with the feed's prefix
/// ("B:" + "2147_1"). This compares and converts without building prefixed strings in the hot path.
struct RealtimeIds: Sendable {
    let prefix: String
    private let prefixCount: Int

    init(prefix: String) {
        self.prefix = prefix
        prefixCount = prefix.utf8.count
    }

    /// The static id of a realtime id.
    @inline(__always)
    func staticId(_ realtimeId: String) -> String {
        prefixCount == 0 ? realtimeId : prefix + realtimeId
    }

    /// Whether static id `stored` is the realtime id `realtimeId` under the prefix.
    @inline(__always)
    func matches(stored: String, realtimeId: String) -> Bool {
        if prefixCount == 0 { return stored == realtimeId }
        let storedBytes = stored.utf8
        guard storedBytes.count == prefixCount + realtimeId.utf8.count, stored.hasPrefix(prefix) else { return false }
        return storedBytes.dropFirst(prefixCount).elementsEqual(realtimeId.utf8)
    }
}

extension Optional where Wrapped == String {
    /// nil for an absent or empty string (proto2 producers sometimes send "" for "not set").
    var nonEmpty: String? {
        guard let value = self, !value.isEmpty else { return nil }
        return value
    }
}
