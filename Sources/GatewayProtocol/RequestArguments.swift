import StrictJSON

// Typed access to a request's fields, with the INVALID_ARGUMENT messages of GATEWAY.md: every message names
// the field, what was expected and what came ("field \"limit\": expected an integer from 1 to 100, got 500").
// A field set to null counts as absent (its default applies).

struct RequestArguments {
    let object: JSONObject
    let op: GatewayOpKind

    /// Rejects fields the op does not know, so a typo is never silently ignored.
    func requireKnownFields(_ fields: [String]) throws(GatewayError) {
        for member in object.members where member.key != "id" && member.key != "op" && !fields.contains(member.key) {
            let known = fields.isEmpty ? "it takes no fields" : "its fields: \(fields.joined(separator: ", "))"
            throw invalid("unknown field \(quote(member.key)) for op \(quote(op.name)); \(known)")
        }
    }

    /// The value of a field, nil when absent or null.
    func value(_ name: String) -> JSONValue? {
        guard let value = object[name] else { return nil }
        if case .null = value { return nil }
        return value
    }

    func has(_ name: String) -> Bool { value(name) != nil }

    // MARK: strings

    func requiredString(_ name: String) throws(GatewayError) -> String {
        guard let text = try optionalString(name) else { throw missing(name, "a non-empty string") }
        return text
    }

    func optionalString(_ name: String, maxLength: Int = 1024) throws(GatewayError) -> String? {
        guard let value = value(name) else { return nil }
        guard case .string(let text) = value else { throw mistyped(name, "a string", value) }
        if text.isEmpty { throw invalid("field \(quote(name)): expected a non-empty string") }
        if text.utf8.count > maxLength {
            throw invalid("field \(quote(name)): expected at most \(maxLength) bytes, got \(text.utf8.count)")
        }
        try rejectControlCharacters(name, text)
        return text
    }

    /// No id or text holds a control character (U+0000–U+001F, U+007F). The static service's C strings end
    /// at a NUL, so "200060\u0000anything" answered as the stop 200060 while the gateway cached it under the
    /// whole string: any number of cache entries for one stop (GATEWAY.md "Error codes").
    func rejectControlCharacters(_ name: String, _ text: String) throws(GatewayError) {
        var offset = 0
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F {
                let hex = String(byte, radix: 16, uppercase: true)
                throw invalid(
                    "field \(quote(name)): control character U+\(String(repeating: "0", count: 4 - hex.count))\(hex) "
                        + "at byte \(offset); ids and texts take printable characters only")
            }
            offset += 1
        }
    }

    /// One of the given strings.
    func optionalChoice(_ name: String, _ choices: [String]) throws(GatewayError) -> String? {
        guard let value = value(name) else { return nil }
        let expected: String
        switch choices.count {
        case 1: expected = quote(choices[0])
        case 2: expected = "\(quote(choices[0])) or \(quote(choices[1]))"
        default: expected = "one of \(choices.joined(separator: ", "))"
        }
        guard case .string(let text) = value else { throw mistyped(name, expected, value) }
        guard choices.contains(text) else {
            throw invalid("field \(quote(name)): expected \(expected), got \(describe(value))")
        }
        return text
    }

    // MARK: numbers

    func optionalInt(_ name: String, in range: ClosedRange<Int64>) throws(GatewayError) -> Int64? {
        guard let value = value(name) else { return nil }
        let expected = "an integer from \(range.lowerBound) to \(range.upperBound)"
        guard case .number(let number) = value else { throw mistyped(name, expected, value) }
        guard let int = number.int64, range.contains(int) else {
            throw invalid("field \(quote(name)): expected \(expected), got \(number.text)")
        }
        return int
    }

    func requiredInt(_ name: String, in range: ClosedRange<Int64>) throws(GatewayError) -> Int64 {
        guard let int = try optionalInt(name, in: range) else {
            throw missing(name, "an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return int
    }

    /// A number within `range`; `excludingLower` makes the lower bound open (radius > 0).
    func optionalNumber(_ name: String, in range: ClosedRange<Double>, excludingLower: Bool = false)
        throws(GatewayError) -> Double?
    {
        guard let value = value(name) else { return nil }
        let expected =
            excludingLower
            ? "a number greater than \(format(range.lowerBound)) and at most \(format(range.upperBound))"
            : "a number from \(format(range.lowerBound)) to \(format(range.upperBound))"
        guard case .number(let number) = value else { throw mistyped(name, expected, value) }
        let x = number.double
        guard x.isFinite, range.contains(x), !(excludingLower && x == range.lowerBound) else {
            throw invalid("field \(quote(name)): expected \(expected), got \(number.text)")
        }
        return x
    }

    func requiredNumber(_ name: String, in range: ClosedRange<Double>) throws(GatewayError) -> Double {
        guard let x = try optionalNumber(name, in: range) else {
            throw missing(name, "a number from \(format(range.lowerBound)) to \(format(range.upperBound))")
        }
        return x
    }

    func optionalBool(_ name: String) throws(GatewayError) -> Bool? {
        guard let value = value(name) else { return nil }
        guard case .bool(let flag) = value else { throw mistyped(name, "true or false", value) }
        return flag
    }

    // MARK: messages

    func missing(_ name: String, _ expected: String) -> GatewayError {
        invalid("missing field \(quote(name)): expected \(expected)")
    }

    func mistyped(_ name: String, _ expected: String, _ value: JSONValue) -> GatewayError {
        invalid("field \(quote(name)): expected \(expected), got \(describe(value))")
    }

    func invalid(_ message: String) -> GatewayError {
        GatewayError(.invalidArgument, message)
    }
}

/// `"text"` for messages, with quotes and backslashes escaped and long texts shortened.
package func quote(_ text: String) -> String {
    var shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
    shown = shown.replacingOccurrencesOfQuoteAndBackslash()
    return "\"\(shown)\""
}

/// What came, for "got …": a short string is shown, numbers as written, other kinds by name.
func describe(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): return "the string \(quote(text))"
    case .number(let number): return number.text.count > 40 ? "a number" : number.text
    case .bool(let flag): return flag ? "true" : "false"
    default: return value.kindDescription
    }
}

private func format(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x)
}

extension String {
    fileprivate func replacingOccurrencesOfQuoteAndBackslash() -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
