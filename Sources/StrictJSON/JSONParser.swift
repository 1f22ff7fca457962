// Strict RFC 8259 parser for the gateway's request lines and the realtime sources config.
//
// Why not JSONSerialization: on Linux it cannot tell `true` from `1` reliably (both come back as NSNumber),
// it reads big integers lossily, and its errors carry no position. This parser is small, exact (numbers keep
// their text, object members their byte range) and says where a line is broken: "column 17: expected ',' or
// '}' after an object member".

public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based byte offset in the input (the column, for a one-line request).
    public var column: Int
    public var reason: String
    public var description: String { "column \(column): \(reason)" }
}

public struct JSONParser {
    /// Deeper nesting is refused: a request needs 2 levels, and recursion must stay bounded on hostile input.
    public static let maxDepth = 32

    private let input: UnsafeRawBufferPointer
    private var position = 0

    private init(_ input: UnsafeRawBufferPointer) {
        self.input = input
    }

    /// Parses one complete JSON value; only whitespace may surround it.
    public static func parse(_ input: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(input)
        parser.skipWhitespace()
        guard parser.position < input.count else { throw parser.error("empty input: expected a JSON object") }
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.position < input.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the JSON value")
        }
        return value
    }

    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(buffer) }
        }
        return try result.get()
    }

    // MARK: values

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard position < input.count else { throw error("unexpected end of line: expected a value") }
        switch input[position] {
        case UInt8(ascii: "{"): return .object(try parseObject(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try parseArray(depth: depth + 1))
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeCurrent()): expected a value")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONObject {
        if depth > JSONParser.maxDepth { throw error("nesting deeper than \(JSONParser.maxDepth) levels") }
        position += 1  // {
        var members: [JSONObject.Member] = []
        var seen: Set<String>? = nil
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            position += 1
            return JSONObject(members: members)
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else {
                throw error("unexpected \(describeCurrent()): expected a key in double quotes")
            }
            let keyColumn = position
            let key = try parseString()
            // Linear check for the usual handful of keys; a set once an object grows.
            if members.count >= 16 {
                if seen == nil { seen = Set(members.map(\.key)) }
                if seen!.contains(key) {
                    throw JSONParseError(column: keyColumn + 1, reason: "duplicate key \"\(key)\"")
                }
                seen!.insert(key)
            } else if members.contains(where: { $0.key == key }) {
                throw JSONParseError(column: keyColumn + 1, reason: "duplicate key \"\(key)\"")
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else {
                throw error("unexpected \(describeCurrent()): expected ':' after the key \"\(key)\"")
            }
            position += 1
            skipWhitespace()
            let start = position
            let value = try parseValue(depth: depth)
            members.append(JSONObject.Member(key: key, value: value, range: start..<position))
            skipWhitespace()
            guard position < input.count else { throw error("unexpected end of line: expected ',' or '}'") }
            if input[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if input[position] == UInt8(ascii: "}") {
                position += 1
                return JSONObject(members: members)
            }
            throw error("unexpected \(describeCurrent()): expected ',' or '}' after an object member")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> [JSONValue] {
        if depth > JSONParser.maxDepth { throw error("nesting deeper than \(JSONParser.maxDepth) levels") }
        position += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            position += 1
            return elements
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard position < input.count else { throw error("unexpected end of line: expected ',' or ']'") }
            if input[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if input[position] == UInt8(ascii: "]") {
                position += 1
                return elements
            }
            throw error("unexpected \(describeCurrent()): expected ',' or ']' in an array")
        }
    }

    // MARK: strings

    private mutating func parseString() throws(JSONParseError) -> String {
        let open = position
        position += 1  // "
        let start = position
        // Fast path: no escapes, the bytes are the string.
        while position < input.count {
            let byte = input[position]
            if byte == UInt8(ascii: "\"") {
                let text = try makeString(UnsafeRawBufferPointer(rebasing: input[start..<position]), at: start)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character \(hex(byte)) in a string: escape it") }
            position += 1
        }
        guard position < input.count else {
            throw JSONParseError(column: open + 1, reason: "unterminated string")
        }
        // Slow path with escapes.
        var bytes = Array(input[start..<position])
        while position < input.count {
            let byte = input[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    throw JSONParseError(column: start + 1, reason: "invalid UTF-8 in a string")
                }
                return text
            case UInt8(ascii: "\\"):
                try parseEscape(into: &bytes)
            default:
                if byte < 0x20 { throw error("control character \(hex(byte)) in a string: escape it") }
                bytes.append(byte)
                position += 1
            }
        }
        throw JSONParseError(column: open + 1, reason: "unterminated string")
    }

    private mutating func parseEscape(into bytes: inout [UInt8]) throws(JSONParseError) {
        let escapeStart = position
        position += 1  // backslash
        guard position < input.count else { throw error("unterminated escape sequence") }
        let byte = input[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""): bytes.append(0x22)
        case UInt8(ascii: "\\"): bytes.append(0x5C)
        case UInt8(ascii: "/"): bytes.append(0x2F)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4(escapeStart: escapeStart)
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by \u and a low surrogate.
                guard position + 1 < input.count, input[position] == UInt8(ascii: "\\"),
                    input[position + 1] == UInt8(ascii: "u")
                else {
                    throw JSONParseError(column: escapeStart + 1, reason: "unpaired surrogate in \\u escape")
                }
                position += 2
                let low = try parseHex4(escapeStart: escapeStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONParseError(column: escapeStart + 1, reason: "unpaired surrogate in \\u escape")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw JSONParseError(column: escapeStart + 1, reason: "unpaired surrogate in \\u escape")
            }
            // Valid: surrogates were handled above.
            bytes.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
        default:
            let shown =
                byte >= 0x21 && byte < 0x7F
                ? "\\\(Character(Unicode.Scalar(byte)))" : "\\ followed by byte \(hex(byte))"
            throw JSONParseError(column: escapeStart + 1, reason: "invalid escape \(shown)")
        }
    }

    private mutating func parseHex4(escapeStart: Int) throws(JSONParseError) -> UInt32 {
        guard position + 4 <= input.count else {
            throw JSONParseError(column: escapeStart + 1, reason: "\\u escape needs 4 hex digits")
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = input[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONParseError(column: escapeStart + 1, reason: "\\u escape needs 4 hex digits")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private func makeString(_ utf8: UnsafeRawBufferPointer, at start: Int) throws(JSONParseError) -> String {
        guard let text = String(validating: utf8.bindMemory(to: UInt8.self), as: UTF8.self) else {
            throw JSONParseError(column: start + 1, reason: "invalid UTF-8 in a string")
        }
        return text
    }

    // MARK: numbers and literals

    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = position
        var isInteger = true
        if peek(UInt8(ascii: "-")) { position += 1 }
        guard position < input.count, isDigit(input[position]) else {
            throw error("invalid number: expected a digit after '-'")
        }
        if input[position] == UInt8(ascii: "0") {
            position += 1
            if position < input.count, isDigit(input[position]) {
                throw error("invalid number: no leading zeros")
            }
        } else {
            skipDigits()
        }
        if peek(UInt8(ascii: ".")) {
            isInteger = false
            position += 1
            guard position < input.count, isDigit(input[position]) else {
                throw error("invalid number: expected a digit after '.'")
            }
            skipDigits()
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            isInteger = false
            position += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { position += 1 }
            guard position < input.count, isDigit(input[position]) else {
                throw error("invalid number: expected a digit in the exponent")
            }
            skipDigits()
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: input[start..<position]), as: UTF8.self)
        // Double(String) parses in the C locale; an overflowing exponent reads as infinity.
        let double = Double(text) ?? .nan
        return JSONNumber(text: text, double: double, isInteger: isInteger)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let length = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected -> Bool in
            guard position + length <= input.count else { return false }
            for i in 0..<length where input[position + i] != expected[i] { return false }
            return true
        }
        guard matches else { throw error("unexpected \(describeCurrent()): expected a value") }
        position += length
    }

    // MARK: helpers

    private mutating func skipWhitespace() {
        while position < input.count {
            switch input[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func skipDigits() {
        while position < input.count, isDigit(input[position]) { position += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func peek(_ byte: UInt8) -> Bool {
        position < input.count && input[position] == byte
    }

    private func error(_ reason: String) -> JSONParseError {
        JSONParseError(column: position + 1, reason: reason)
    }

    private func describeCurrent() -> String {
        position < input.count ? describe(input[position]) : "end of line"
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte \(hex(byte))"
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x\(digits[Int(byte >> 4)])\(digits[Int(byte & 0x0F)])"
    }
}
