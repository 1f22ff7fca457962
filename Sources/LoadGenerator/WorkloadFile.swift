// `--workload FILE`: the workload's settings as a small JSON object, so a team keeps its load test in its
// repository. Flags given on the command line win over the file's values. Unknown keys are rejected (a typo is
// never silently ignored).
//
//   {"mix": {"departures": 60, "trip": 15, "alerts": 10, "search": 10, "stop": 5},
//    "window": "07:00-09:00", "date": "2025-12-22", "timezone": "Australia/Sydney",
//    "limit": 10, "seed": 1, "busiest": 200}
import StrictJSON

public struct WorkloadFile: Sendable, Equatable {
    public var mix: OpMix?
    public var window: String?
    public var date: String?
    public var timezone: String?
    public var limit: Int?
    public var seed: UInt64?
    public var busiest: Int?

    public static let keys = ["mix", "window", "date", "timezone", "limit", "seed", "busiest"]

    public init(parsing bytes: [UInt8], source: String) throws(WorkloadError) {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw WorkloadError("\(source): \(error)") }
        guard case .object(let root) = value else { throw WorkloadError("\(source): expected a JSON object") }
        for member in root.members where !Self.keys.contains(member.key) {
            throw WorkloadError(
                "\(source): unknown key \"\(member.key)\" (known: \(Self.keys.joined(separator: ", ")))")
        }
        func string(_ key: String) throws(WorkloadError) -> String? {
            switch root[key] {
            case nil, .null?: return nil
            case .string(let s)?: return s
            case let other?: throw WorkloadError("\(source): \"\(key)\" must be a string, got \(other.kindDescription)")
            }
        }
        func integer(_ key: String) throws(WorkloadError) -> Int64? {
            switch root[key] {
            case nil, .null?: return nil
            case .number(let n)?:
                guard let v = n.int64, v >= 0 else {
                    throw WorkloadError("\(source): \"\(key)\" must be an integer ≥ 0, got \(n.text)")
                }
                return v
            case let other?:
                throw WorkloadError("\(source): \"\(key)\" must be an integer, got \(other.kindDescription)")
            }
        }
        window = try string("window")
        date = try string("date")
        timezone = try string("timezone")
        limit = try integer("limit").map { Int($0) }
        seed = try integer("seed").map { UInt64($0) }
        busiest = try integer("busiest").map { Int($0) }
        switch root["mix"] {
        case nil, .null?: mix = nil
        case .string(let s)?: mix = try OpMix(parsing: s)
        case .object(let o)?:
            var pairs: [(LoadOp, Double)] = []
            for m in o.members {
                guard let op = LoadOp(name: m.key) else {
                    throw WorkloadError("\(source): \"mix\": unknown op \"\(m.key)\"")
                }
                guard case .number(let n) = m.value else {
                    throw WorkloadError("\(source): \"mix\".\(m.key) must be a number")
                }
                pairs.append((op, n.double))
            }
            do { mix = try OpMix(pairs) } catch { throw WorkloadError("\(source): \(error)") }
        case let other?:
            throw WorkloadError("\(source): \"mix\" must be an object of op weights, got \(other.kindDescription)")
        }
    }
}

public enum DurationText {
    /// `10s`, `500ms`, `2m`, or plain seconds (`10`, `2.5`).
    public static func parse(_ text: String, flag: String) throws(WorkloadError) -> Duration {
        var value = text
        var scale = 1.0
        for (unit, factor) in [("ms", 0.001), ("s", 1.0), ("m", 60.0)] where value.hasSuffix(unit) {
            value = String(value.dropLast(unit.count))
            scale = factor
            break
        }
        guard let v = Double(value), v >= 0, v.isFinite else {
            throw WorkloadError("\(flag) \(text): expected a duration such as 10s, 500ms or 2m")
        }
        return .nanoseconds(Int64(v * scale * 1e9))
    }
}
