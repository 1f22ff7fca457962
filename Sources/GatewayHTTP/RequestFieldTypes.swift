import Foundation

/// The JSON type of each request field, per op, as the OpenAPI document's `GET /v1/<op>` query parameters
/// declare it: how a query parameter's text becomes a field's value (GATEWAY.md §8).
struct RequestFieldTypes: Sendable {
    enum FieldType: Sendable, Equatable {
        case string, integer, number, boolean
        /// An object or array: by POST only.
        case structured
    }

    private let types: [String: [String: FieldType]]

    init(types: [String: [String: FieldType]]) {
        self.types = types
    }

    /// The types of `openapi.json`'s `paths["/v1/<op>"].get.parameters` (a parameter's `schema.type`, the
    /// first one other than "null" when it is a list).
    init(openAPI: [UInt8]) throws {
        guard let document = try JSONSerialization.jsonObject(with: Data(openAPI)) as? [String: Any],
            let paths = document["paths"] as? [String: Any]
        else { throw Malformed(reason: "no \"paths\" object") }
        var types: [String: [String: FieldType]] = [:]
        for (path, item) in paths {
            guard path.hasPrefix("/v1/"), let item = item as? [String: Any],
                let get = item["get"] as? [String: Any]
            else { continue }
            let op = String(path.dropFirst(4))
            var fields: [String: FieldType] = [:]
            for parameter in get["parameters"] as? [[String: Any]] ?? [] {
                guard let name = parameter["name"] as? String, parameter["in"] as? String == "query" else { continue }
                let schema = parameter["schema"] as? [String: Any] ?? [:]
                let declared = (schema["type"] as? String).map { [$0] } ?? (schema["type"] as? [String] ?? [])
                switch declared.first(where: { $0 != "null" }) {
                case "integer": fields[name] = .integer
                case "number": fields[name] = .number
                case "boolean": fields[name] = .boolean
                case "object", "array": fields[name] = .structured
                default: fields[name] = .string
                }
            }
            types[op] = fields
        }
        self.types = types
    }

    /// nil: the op has no such field (the value goes on as a string; the op's parser names the unknown field).
    func type(of field: String, op: String) -> FieldType? {
        types[op]?[field]
    }

    struct Malformed: Error, CustomStringConvertible {
        let reason: String
        var description: String { "openapi.json: \(reason)" }
    }
}
