import Foundation
import GatewayProtocol
import TransitCore
import TransitModel

/// The order of a merged board: the row's time (predicted, else scheduled), then a tiebreak that is unique
/// per departure and does not depend on the static database (trip id, service date, start, stop sequence).
/// Not TransitStore's `BoardKey` on purpose: that one orders scheduled rows by database row keys, valid for
/// one import only; the gateway's cursors must survive re-imports and changing predictions.
struct BoardKey: Comparable, Hashable {
    var time: Int64
    var tripId: String
    var serviceDate: UInt32
    var startTime: String
    var stopSequence: UInt32

    init(time: Int64, tripId: String, serviceDate: UInt32, startTime: String, stopSequence: UInt32) {
        self.time = time
        self.tripId = tripId
        self.serviceDate = serviceDate
        self.startTime = startTime
        self.stopSequence = stopSequence
    }

    init(_ row: DepartureRow) {
        let d = row.departure
        self.init(
            time: row.time, tripId: d.tripId, serviceDate: d.serviceDate, startTime: d.instanceStartTime ?? "",
            stopSequence: d.stopSequence)
    }

    /// Before every departure at `time` (trip ids are never empty).
    static func timeOnly(_ time: Int64) -> BoardKey {
        BoardKey(time: time, tripId: "", serviceDate: 0, startTime: "", stopSequence: 0)
    }

    static func < (a: BoardKey, b: BoardKey) -> Bool {
        if a.time != b.time { return a.time < b.time }
        if a.tripId != b.tripId { return a.tripId < b.tripId }
        if a.serviceDate != b.serviceDate { return a.serviceDate < b.serviceDate }
        if a.startTime != b.startTime { return a.startTime < b.startTime }
        return a.stopSequence < b.stopSequence
    }
}

/// A place between departures in `BoardKey` order (see `OrderedPosition`).
typealias BoardPosition = OrderedPosition<BoardKey>

/// The gateway's page cursor (GATEWAY.md "page"): a direction and a position in the merged board's order.
/// It names no static row, so it stays usable when predictions change (rows then fall on the side of it
/// their new time puts them) and across static re-imports. Text: base64url (no padding) of
/// "g1|L or E|a or b|time|service date|stop sequence|start time|trip id" (the trip id last: it may hold "|").
struct GatewayBoardCursor: Equatable {
    var direction: BoardDirection
    var position: BoardPosition

    static let maxLength = 1024

    func encode() -> String {
        let k = position.key
        let text =
            "g1|\(direction == .future ? "L" : "E")|\(position.afterKey ? "a" : "b")|\(k.time)|\(k.serviceDate)|\(k.stopSequence)|\(k.startTime)|\(k.tripId)"
        return Base64URL.encode(text)
    }

    static func decode(_ cursor: String) -> GatewayBoardCursor? {
        guard cursor.utf8.count <= maxLength else { return nil }
        var b64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while b64.utf8.count % 4 != 0 { b64 += "=" }
        guard let data = Data(base64Encoded: b64), let text = String(data: data, encoding: .utf8) else { return nil }
        let parts = text.split(separator: "|", maxSplits: 7, omittingEmptySubsequences: false)
        guard parts.count == 8, parts[0] == "g1", parts[1] == "L" || parts[1] == "E",
            parts[2] == "a" || parts[2] == "b",
            let time = Int64(parts[3]), abs(time) < 1 << 40, let date = UInt32(parts[4]),
            let sequence = UInt32(parts[5])
        else { return nil }
        let key = BoardKey(
            time: time, tripId: String(parts[7]), serviceDate: date, startTime: String(parts[6]), stopSequence: sequence
        )
        return GatewayBoardCursor(
            direction: parts[1] == "L" ? .future : .past, position: BoardPosition(key: key, afterKey: parts[2] == "a"))
    }
}
