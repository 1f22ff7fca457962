import Foundation
import TransitCore
import TransitModel

/// The sort key of a departure on a board: time, then a stable tiebreak (trip, stop index in the trip,
/// frequency instance start; -1 for scheduled trips). Unique per departure. The static service's own order
/// (scheduled time, database row keys); the gateway orders its merged board by its own `BoardKey`.
struct BoardKey: Comparable, Hashable {
    var unix: Int64
    var tripPk: Int
    var stopIndex: Int
    var start: Int

    static func < (a: BoardKey, b: BoardKey) -> Bool {
        if a.unix != b.unix { return a.unix < b.unix }
        if a.tripPk != b.tripPk { return a.tripPk < b.tripPk }
        if a.stopIndex != b.stopIndex { return a.stopIndex < b.stopIndex }
        return a.start < b.start
    }

    /// A key before every departure at `unix`.
    static func timeOnly(_ unix: Int64) -> BoardKey {
        BoardKey(unix: unix, tripPk: Int.min, stopIndex: Int.min, start: Int.min)
    }
}

/// A place between departures in `BoardKey` order (see `OrderedPosition`).
typealias BoardPosition = OrderedPosition<BoardKey>

/// The opaque continuation string of a board: direction, position and the database it was made on.
/// Text form (base64url, no padding) of "1|L|unix|trip|index|start|a|tag"; a cursor from another database
/// (a new import) keeps only its time, since trip keys are not stable across imports.
struct BoardCursor: Equatable {
    var direction: BoardDirection
    var position: BoardPosition

    func encode(databaseTag: String) -> String {
        let k = position.key
        let text = [
            "1", direction == .future ? "L" : "E", String(k.unix), String(k.tripPk), String(k.stopIndex),
            String(k.start), position.afterKey ? "a" : "b", databaseTag,
        ].joined(separator: "|")
        return Base64URL.encode(text)
    }

    static func decode(_ cursor: String, databaseTag: String) throws(StoreError) -> BoardCursor {
        let invalid = StoreError.invalidArgument("cursor is not one this service made")
        guard cursor.utf8.count <= 256 else { throw invalid }
        var b64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while b64.utf8.count % 4 != 0 { b64 += "=" }
        guard let data = Data(base64Encoded: b64), let text = String(data: data, encoding: .utf8) else { throw invalid }
        let parts = text.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 8, parts[0] == "1", parts[1] == "L" || parts[1] == "E",
            let unix = Int64(parts[2]), StaticStore.timeRange.contains(unix), let trip = Int(parts[3]),
            let index = Int(parts[4]), let start = Int(parts[5]),
            parts[6] == "a" || parts[6] == "b"
        else { throw invalid }
        let direction: BoardDirection = parts[1] == "L" ? .future : .past
        if parts[7] != databaseTag {
            return BoardCursor(direction: direction, position: .before(.timeOnly(unix)))
        }
        let key = BoardKey(unix: unix, tripPk: trip, stopIndex: index, start: start)
        return BoardCursor(direction: direction, position: BoardPosition(key: key, afterKey: parts[6] == "a"))
    }
}
