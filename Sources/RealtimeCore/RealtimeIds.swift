/// Ids in a realtime feed are the agency's; the static database stores trip and route ids (and agency,
/// service, shape and block ids) with the feed's prefix ("B:" + "2147_1"), but never stop ids (the static
/// import's rule: stops with the same id are one stop across feeds). So trip and route ids go through
/// `staticId`; stop ids (stop_id, assigned_stop_id) are compared and stored as the feed gives them.
struct RealtimeIds: Sendable {
    let prefix: String

    init(prefix: String) { self.prefix = prefix }

    /// The static id of a realtime trip or route id.
    @inline(__always)
    func staticId(_ realtimeId: String) -> String {
        prefix.isEmpty ? realtimeId : prefix + realtimeId
    }
}

extension Optional where Wrapped == String {
    /// nil for an absent or empty string (proto2 producers sometimes send "" for "not set").
    var nonEmpty: String? {
        guard let value = self, !value.isEmpty else { return nil }
        return value
    }
}
