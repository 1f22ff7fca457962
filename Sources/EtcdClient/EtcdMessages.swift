import Foundation

// The JSON of etcd's v3 gRPC gateway (`/v3/...`): proto3's JSON mapping, so 64-bit integers come as strings,
// fields at their default value (0, false, empty) are left out, and keys and values are base64.

/// A 64-bit integer as etcd's gateway writes it: a string (or, when we send it, a number it also reads).
struct EtcdInt: Codable, Sendable, Equatable {
    var value: Int64

    init(_ value: Int64) { self.value = value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self), let value = Int64(text) {
            self.value = value
        } else {
            value = try container.decode(Int64.self)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String(value))
    }
}

/// Bytes as base64 (keys and values).
struct EtcdBytes: Codable, Sendable, Equatable {
    var bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }
    init(_ text: String) { self.bytes = Array(text.utf8) }

    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let data = Data(base64Encoded: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not base64: \(text.prefix(40))"))
        }
        bytes = Array(data)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Data(bytes).base64EncodedString())
    }
}

struct ResponseHeader: Codable, Sendable {
    var revision: EtcdInt?
}

/// `mvccpb.KeyValue`.
struct KeyValueJSON: Codable, Sendable {
    var key: EtcdBytes
    var value: EtcdBytes?
    var createRevision: EtcdInt?
    var modRevision: EtcdInt?
    var lease: EtcdInt?

    enum CodingKeys: String, CodingKey {
        case key, value, lease
        case createRevision = "create_revision"
        case modRevision = "mod_revision"
    }
}

/// The lease fields are named in capitals (`ID`, `TTL`) in etcd's protos.
enum LeaseKeys: String, CodingKey {
    case header, error
    case id = "ID"
    case ttl = "TTL"
}

struct LeaseGrantRequest: Encodable {
    var ttl: EtcdInt
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LeaseKeys.self)
        try container.encode(ttl, forKey: .ttl)
    }
}

struct LeaseIDRequest: Encodable {
    var id: EtcdInt
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LeaseKeys.self)
        try container.encode(id, forKey: .id)
    }
}

/// A lease grant's, revoke's or keep-alive's answer.
struct LeaseResponse: Decodable {
    var id: EtcdInt?
    var ttl: EtcdInt?
    var error: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LeaseKeys.self)
        id = try container.decodeIfPresent(EtcdInt.self, forKey: .id)
        ttl = try container.decodeIfPresent(EtcdInt.self, forKey: .ttl)
        error = try container.decodeIfPresent(String.self, forKey: .error)
    }
}

/// `/v3/lease/keepalive` is a stream: each answer is wrapped in `result`.
struct LeaseKeepAliveStreamed: Decodable {
    var result: LeaseResponse?
}

struct RangeRequest: Codable { var key: EtcdBytes }
struct RangeResponse: Codable {
    var header: ResponseHeader?
    var kvs: [KeyValueJSON]?
}

struct TxnRequest: Codable {
    struct Compare: Codable {
        var key: EtcdBytes
        var target: String
        var result: String
        var createRevision: EtcdInt?

        enum CodingKeys: String, CodingKey {
            case key, target, result
            case createRevision = "create_revision"
        }
    }
    struct Operation: Codable {
        struct Put: Codable {
            var key: EtcdBytes
            var value: EtcdBytes
            var lease: EtcdInt?
        }
        var requestPut: Put?
        var requestRange: RangeRequest?

        enum CodingKeys: String, CodingKey {
            case requestPut = "request_put"
            case requestRange = "request_range"
        }
    }
    var compare: [Compare]
    var success: [Operation]
    var failure: [Operation]
}

struct TxnResponse: Codable {
    struct Operation: Codable {
        var responseRange: RangeResponse?

        enum CodingKeys: String, CodingKey {
            case responseRange = "response_range"
        }
    }
    var header: ResponseHeader?
    var succeeded: Bool?
    var responses: [Operation]?
}

struct AuthenticateRequest: Codable {
    var name: String
    var password: String
}
struct AuthenticateResponse: Codable { var token: String? }

/// A gateway error: `{"error": "...", "code": 5, "message": "..."}`.
struct GatewayError: Codable {
    var error: String?
    var message: String?
    var code: Int?
}
