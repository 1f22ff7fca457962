import Foundation
import NIOCore

/// Splits the gateway's byte stream into answer lines (`\n`-terminated; a `\r` before it is dropped).
struct LineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    /// Far above any answer (a 100-row board is ~70 KB); a longer line means the peer is not a gateway.
    static let maxLineBytes = 16 << 20

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > Self.maxLineBytes { throw LineTooLong() }
            return .needMoreData
        }
        let length = newline - buffer.readerIndex
        var line = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        if line.readableBytesView.last == UInt8(ascii: "\r") {
            line = line.getSlice(at: line.readerIndex, length: length - 1)!
        }
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }

    struct LineTooLong: Error, CustomStringConvertible {
        var description: String { "an answer line longer than 16 MiB" }
    }
}

/// A JSON scalar of a request line.
public enum RequestValue: Encodable, Sendable, Hashable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    /// A JSON object (`plan`'s `from` and `to`).
    case object([String: RequestValue])
    /// A JSON array (`plan`'s `modes`).
    case array([RequestValue])

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .object(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        }
    }
}

/// The first look at an answer line: enough to route it to the request or subscription it belongs to.
struct LineHead: Decodable {
    struct ErrorBody: Decodable {
        var code: String
        var message: String?
    }
    var id: Int?
    var ok: Bool?
    var event: String?
    var sub: Int?
    var error: ErrorBody?

    enum CodingKeys: String, CodingKey { case id, ok, event, sub, error }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // Our ids are integers; a null or other id (BAD_JSON, LINE_TOO_LONG, OVERLOADED) matches no request.
        id = try? c.decodeIfPresent(Int.self, forKey: .id)
        ok = try c.decodeIfPresent(Bool.self, forKey: .ok)
        event = try c.decodeIfPresent(String.self, forKey: .event)
        sub = try? c.decodeIfPresent(Int.self, forKey: .sub)
        error = try c.decodeIfPresent(ErrorBody.self, forKey: .error)
    }
}

enum LineCoding {
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    /// `{"id":7,"op":"departures",…}` and a newline; keys sorted so a line is the same every time.
    static func requestLine(id: Int, op: String, fields: [String: RequestValue]) throws -> ByteBuffer {
        var all = fields
        all["id"] = .int(Int64(id))
        all["op"] = .string(op)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(all)
        data.append(UInt8(ascii: "\n"))
        return ByteBuffer(bytes: data)
    }
}
