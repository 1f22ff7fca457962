import GatewayProtocol
import StrictJSON

/// The request line an HTTP request stands for (GATEWAY.md §8): the fields of `GET /v1/<op>?…` typed by the
/// op's request schema, or the body of `POST /v1/<op>` with the path's op. The line then goes through the line
/// protocol's own parser, so both ports answer the same request the same way.
enum RequestLineFromHTTP {
    /// The line of `GET /v1/<op>?<query>`, or the INVALID_ARGUMENT of a parameter that is not of its field's
    /// type (or given twice).
    static func get(op: String, query: String?, fields: RequestFieldTypes) -> Result<[UInt8], GatewayError> {
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.key("op")
        w.string(op)
        var seen = Set<String>()
        for (name, value) in QueryString.parameters(query ?? "") {
            guard seen.insert(name).inserted else {
                return .failure(GatewayError(.invalidArgument, "query parameter \"\(name)\" given more than once"))
            }
            if name == "op" {
                return .failure(
                    GatewayError(.invalidArgument, "query parameter \"op\": the path names the op (/v1/\(op))"))
            }
            w.key(name)
            switch fields.type(of: name, op: op) {
            case .string, nil:
                w.string(value)
            case .integer, .number:
                guard let number = numberLiteral(value) else {
                    let expected = fields.type(of: name, op: op) == .integer ? "an integer" : "a number"
                    return .failure(invalidParameter(name, expected: expected, got: value))
                }
                w.raw(number)
            case .boolean:
                guard value == "true" || value == "false" else {
                    return .failure(invalidParameter(name, expected: "true or false", got: value))
                }
                w.bool(value == "true")
            case .structured:
                return .failure(
                    GatewayError(
                        .invalidArgument,
                        "query parameter \"\(name)\": its value is an object or array; send the request by POST /v1/\(op)"
                    ))
            }
        }
        w.endObject()
        return .success(w.finish())
    }

    /// The line of `POST /v1/<op>` with `body`: the body itself when it names the op (it must be the path's)
    /// or is not a JSON object (the parser answers that as on a line); else the body with `"op"` added first.
    static func post(op: String, body: [UInt8]) -> Result<[UInt8], GatewayError> {
        guard case .object(let object)? = try? JSONParser.parse(body) else { return .success(body) }
        if let named = object["op"] {
            guard case .string(op) = named else {
                return .failure(
                    GatewayError(
                        .invalidArgument, "field \"op\": the path names op \"\(op)\", the body another (leave it out)"))
            }
            return .success(body)
        }
        // A JSON object: its first non-blank byte is "{"; the op goes right after it.
        guard let open = body.firstIndex(of: UInt8(ascii: "{")) else { return .success(body) }
        var w = JSONWriter(capacity: body.count + 32)
        w.beginObject()
        w.key("op")
        w.string(op)
        var line = w.finish()
        let rest = body[(open + 1)...]
        if let next = rest.first(where: { !isBlank($0) }), next != UInt8(ascii: "}") {
            line.append(UInt8(ascii: ","))
        }
        line.append(contentsOf: rest)
        return .success(line)
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// `text` when it is one JSON number, as it is (the op's parser checks integer-ness and range as on a line).
    private static func numberLiteral(_ text: String) -> RawJSON? {
        let bytes = Array(text.utf8)
        guard case .number? = try? JSONParser.parse(bytes) else { return nil }
        return RawJSON(bytes: bytes)
    }

    private static func invalidParameter(_ name: String, expected: String, got: String) -> GatewayError {
        var shown = got
        if shown.count > 40 { shown = String(shown.prefix(40)) + "…" }
        return GatewayError(
            .invalidArgument, "query parameter \"\(name)\": expected \(expected), got \"\(shown)\"")
    }
}

/// `application/x-www-form-urlencoded` query strings: `a=1&b=x%20y` → [("a", "1"), ("b", "x y")], in order;
/// `+` is a space; a parameter without `=` has the empty value; bad percent escapes stay as they are.
enum QueryString {
    static func parameters(_ query: String) -> [(name: String, value: String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(0x20)
            } else if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let high = hexValue(utf8[utf8.startIndex]),
                let low = hexValue(utf8[utf8.index(after: utf8.startIndex)])
            {
                bytes.append(high << 4 | low)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
