import Foundation

/// The JSON type of each request field, per op, as the OpenAPI document's `GET /v1/<op>` query parameters
/// declare it: how a query parameter's text becomes a field's value (GATEWAY.md §8).
struct RequestFieldTypes: Sendable {
    indirect enum FieldType: Sendable, Equatable {
        case string, integer, number, boolean
        /// An object given member by member (`from[stop_id]=…`, the parameter's `deepObject` style): its members'
        /// types (of every shape a `oneOf` allows).
        case object([String: FieldType])
        /// An array given as one comma-separated parameter (`modes=train,bus`, `form` style, not exploded).
        case array(FieldType)
        /// Any other object or array: by POST only.
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
        let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any] ?? [:]
        var types: [String: [String: FieldType]] = [:]
        for (path, item) in paths {
            guard path.hasPrefix("/v1/"), let item = item as? [String: Any],
                let get = item["get"] as? [String: Any]
            else { continue }
            let op = String(path.dropFirst(4))
            var fields: [String: FieldType] = [:]
            for parameter in get["parameters"] as? [[String: Any]] ?? [] {
                guard let name = parameter["name"] as? String, parameter["in"] as? String == "query" else { continue }
                let type = Self.type(of: parameter["schema"] as? [String: Any] ?? [:], schemas: schemas)
                switch (type, parameter["style"] as? String, parameter["explode"] as? Bool) {
                case (.object, "deepObject", _), (.array, "form", false): fields[name] = type
                case (.object, _, _), (.array, _, _): fields[name] = .structured
                default: fields[name] = type
                }
            }
            types[op] = fields
        }
        self.types = types
    }

    /// A schema's type: `$ref`s followed into `schemas`, a `oneOf` of objects as one object with every branch's
    /// members, the first type other than "null" of a list.
    private static func type(of schema: [String: Any], schemas: [String: Any], depth: Int = 0) -> FieldType {
        guard depth < 8 else { return .structured }
        if let ref = schema["$ref"] as? String {
            let name = String(ref.split(separator: "/").last ?? "")
            return type(of: schemas[name] as? [String: Any] ?? [:], schemas: schemas, depth: depth + 1)
        }
        if let branches = schema["oneOf"] as? [[String: Any]] {
            // A null branch only says the field may be absent (trip's `date`: a string or an integer, or null).
            let types = branches.filter { $0["type"] as? String != "null" }.map {
                type(of: $0, schemas: schemas, depth: depth + 1)
            }
            var members: [String: FieldType] = [:]
            for branch in types {
                guard case .object(let more) = branch else {
                    // Scalars of one type are that type; of several, the text goes on for the op's parser to judge.
                    return Set(types.map { "\($0)" }).count == 1 ? types[0] : .string
                }
                members.merge(more) { first, _ in first }
            }
            return types.isEmpty ? .string : .object(members)
        }
        let declared = (schema["type"] as? String).map { [$0] } ?? (schema["type"] as? [String] ?? [])
        switch declared.first(where: { $0 != "null" }) {
        case "integer": return .integer
        case "number": return .number
        case "boolean": return .boolean
        case "object":
            var members: [String: FieldType] = [:]
            for (name, member) in schema["properties"] as? [String: [String: Any]] ?? [:] {
                let memberType = type(of: member, schemas: schemas, depth: depth + 1)
                // Members are scalars in a query string.
                guard [.string, .integer, .number, .boolean].contains(memberType) else { return .structured }
                members[name] = memberType
            }
            return .object(members)
        case "array":
            let items = type(of: schema["items"] as? [String: Any] ?? [:], schemas: schemas, depth: depth + 1)
            return [.string, .integer, .number, .boolean].contains(items) ? .array(items) : .structured
        default: return .string
        }
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
