import GatewayProtocol
import StrictJSON

/// The request line an HTTP request stands for (GATEWAY.md §8): the fields of `GET /v1/<op>?…` typed by the
/// op's request schema, or the body of `POST /v1/<op>` with the path's op. The line then goes through the line
/// protocol's own parser, so both ports answer the same request the same way.
enum RequestLineFromHTTP {
    /// The line of `GET /v1/<op>?<query>`, or the INVALID_ARGUMENT of a parameter that is not of its field's
    /// type (or given twice). An object field comes member by member (`from[stop_id]=…`), gathered into one object
    /// where its first member stands; an array field as one comma-separated parameter.
    static func get(op: String, query: String?, fields: RequestFieldTypes) -> Result<[UInt8], GatewayError> {
        var order: [String] = []
        var values: [String: String] = [:]
        var members: [String: [(name: String, value: String)]] = [:]
        var seen = Set<String>()
        for (name, value) in QueryString.parameters(query ?? "") {
            guard seen.insert(name).inserted else {
                return .failure(GatewayError(.invalidArgument, "query parameter \"\(name)\" given more than once"))
            }
            if name == "op" {
                return .failure(
                    GatewayError(.invalidArgument, "query parameter \"op\": the path names the op (/v1/\(op))"))
            }
            if let (field, member) = objectMember(name), case .object? = fields.type(of: field, op: op) {
                if members[field] == nil { order.append(field) }
                members[field, default: []].append((member, value))
            } else {
                order.append(name)
                values[name] = value
            }
        }
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.key("op")
        w.string(op)
        for name in order {
            if members[name] != nil, values[name] != nil {
                return .failure(
                    GatewayError(
                        .invalidArgument,
                        "query parameter \"\(name)\": an object, given by its members (\(name)[…]=…), not as well whole"
                    ))
            }
            w.key(name)
            if let list = members[name], case .object(let types)? = fields.type(of: name, op: op) {
                w.beginObject()
                for (member, value) in list {
                    w.key(member)
                    // A member the object has not goes on as a string: the op's parser names it.
                    if let error = write(value, as: types[member], parameter: "\(name)[\(member)]", op: op, into: &w) {
                        return .failure(error)
                    }
                }
                w.endObject()
            } else if let error = write(
                values[name] ?? "", as: fields.type(of: name, op: op), parameter: name, op: op, into: &w)
            {
                return .failure(error)
            }
        }
        w.endObject()
        return .success(w.finish())
    }

    /// "from[stop_id]" → ("from", "stop_id").
    private static func objectMember(_ name: String) -> (field: String, member: String)? {
        guard name.hasSuffix("]"), let open = name.firstIndex(of: "["), open > name.startIndex else { return nil }
        let member = name[name.index(after: open)..<name.index(before: name.endIndex)]
        guard !member.isEmpty, !member.contains("["), !member.contains("]") else { return nil }
        return (String(name[..<open]), String(member))
    }

    /// Writes one parameter's value as its type says; the INVALID_ARGUMENT of one that is not of it.
    private static func write(
        _ value: String, as type: RequestFieldTypes.FieldType?, parameter name: String, op: String,
        into w: inout JSONWriter
    ) -> GatewayError? {
        switch type {
        case .string, nil:
            w.string(value)
        case .integer, .number:
            guard let number = numberLiteral(value) else {
                return invalidParameter(name, expected: type == .integer ? "an integer" : "a number", got: value)
            }
            w.raw(number)
        case .boolean:
            guard value == "true" || value == "false" else {
                return invalidParameter(name, expected: "true or false", got: value)
            }
            w.bool(value == "true")
        case .array(let items):
            w.beginArray()
            for item in value.isEmpty ? [] : value.split(separator: ",", omittingEmptySubsequences: false) {
                if let error = write(String(item), as: items, parameter: name, op: op, into: &w) { return error }
            }
            w.endArray()
        case .object:
            return GatewayError(
                .invalidArgument,
                "query parameter \"\(name)\": an object: give its members, as \(name)[member]=value, or send the "
                    + "request by POST /v1/\(op)")
        case .structured:
            return GatewayError(
                .invalidArgument,
                "query parameter \"\(name)\": its value is an object or array; send the request by POST /v1/\(op)")
        }
        return nil
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
