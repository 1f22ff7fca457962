// The parsed form of a JSON document: a gateway request line, a realtime sources config. Both are small
// (a request ≤ 64 KiB, usually < 200 bytes), so a plain tree is fine; what matters is exactness: numbers keep
// their spelling and every object member keeps the byte range of its value, so a request's `id` can be echoed
// exactly as sent.

public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// "a string", "an integer", … for error messages.
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number(let n): return n.isInteger ? "an integer" : "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

public struct JSONNumber: Sendable, Hashable {
    /// The number as written.
    public var text: String
    public var double: Double
    /// Written without fraction or exponent.
    public var isInteger: Bool

    /// The exact integer value when there is one in Int64 range: `10`, `10.0`, `1e1` (not `10.5`, not
    /// 1e300). Non-integer spellings are accepted only up to 2^53, where doubles are still exact.
    public var int64: Int64? {
        if isInteger { return Int64(text) }
        guard double.rounded(.towardZero) == double, abs(double) <= 9_007_199_254_740_992 else { return nil }
        return Int64(double)
    }
}

public struct JSONObject: Sendable, Hashable {
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue
        /// Byte offsets of the value's text in the parsed line.
        public var range: Range<Int>
    }

    /// In the order written; keys are unique (the parser rejects duplicates).
    public var members: [Member]

    public subscript(key: String) -> JSONValue? {
        member(key)?.value
    }

    public func member(_ key: String) -> Member? {
        for member in members where member.key == key { return member }
        return nil
    }
}
