import GatewayProtocol
import StrictJSON
import TransitCore
import TransitModel

/// One debug-client request line (protocol/README.md "Realtime debug queries") parsed into a query.
struct QueryLine {
    var id: RawJSON?
    var query: RealtimeQuery

    struct Failure: Error {
        var id: RawJSON?
        var code: String
        var message: String
    }

    static let ops = ["snapshot", "trip", "stop", "vehicles", "alerts", "sources", "delays"]

    static func parse(_ line: [UInt8]) -> Result<QueryLine, Failure> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            return .failure(Failure(code: "INVALID_REQUEST", message: "not JSON: \(error)"))
        }
        guard case .object(let object) = value else {
            return .failure(
                Failure(
                    code: "INVALID_REQUEST", message: "the request must be a JSON object, got \(value.kindDescription)")
            )
        }
        let id = object.member("id").map { RawJSON(bytes: Array(line[$0.range])) }
        do {
            let fields = Fields(object: object)
            guard let op = try fields.string("op") else {
                throw Failure(code: "INVALID_REQUEST", message: "missing \"op\"")
            }
            let query: RealtimeQuery
            switch op {
            case "snapshot":
                try fields.only(["topic"])
                guard let name = try fields.string("topic") else {
                    throw invalid("snapshot needs \"topic\": tu, vp, al or st")
                }
                guard let topic = RealtimeTopic(rawValue: name), topic != .heartbeat else {
                    throw invalid("unknown topic \"\(name)\" (tu, vp, al or st)")
                }
                query = .snapshot(topic)
            case "trip":
                try fields.only(["trip_id", "service_date", "start_time"])
                guard let tripId = try fields.string("trip_id") else { throw invalid("trip needs \"trip_id\"") }
                var start: Int32?
                if let text = try fields.string("start_time") {
                    guard let secs = try? GTFSTime.parse(text) else {
                        throw invalid("start_time \"\(text)\" is not HH:MM:SS")
                    }
                    start = Int32(secs)
                }
                query = .trip(
                    LiveTripQuery(tripId: tripId, serviceDate: try fields.date("service_date"), startSecs: start))
            case "stop":
                try fields.only(["stop_id", "from", "to", "limit"])
                guard let stopId = try fields.string("stop_id") else { throw invalid("stop needs \"stop_id\"") }
                let limit = try fields.int("limit").map { Int(clamping: $0) } ?? LiveStopQuery.defaultLimit
                query = .stop(
                    LiveStopQuery(
                        stopId: stopId, fromUnix: try fields.int("from"), toUnix: try fields.int("to"), limit: limit))
            case "vehicles":
                try fields.only(["trip_id", "route_id", "vehicle_id"])
                let given = [
                    ("trip_id", try fields.string("trip_id")), ("route_id", try fields.string("route_id")),
                    ("vehicle_id", try fields.string("vehicle_id")),
                ].filter { $0.1 != nil }
                guard given.count <= 1 else {
                    throw invalid("vehicles takes at most one of trip_id, route_id, vehicle_id")
                }
                switch given.first?.0 {
                case "trip_id": query = .vehicles(.trip(given[0].1!))
                case "route_id": query = .vehicles(.route(given[0].1!))
                case "vehicle_id": query = .vehicles(.vehicle(given[0].1!))
                default: query = .vehicles(.all)
                }
            case "alerts":
                try fields.only(["stop_id", "route_id", "route_type", "trip_id", "agency_id", "at"])
                query = .alerts(
                    LiveAlertQuery(
                        stopId: try fields.string("stop_id"), routeId: try fields.string("route_id"),
                        routeType: try fields.int("route_type").map { Int32(clamping: $0) },
                        tripId: try fields.string("trip_id"),
                        agencyId: try fields.string("agency_id"), activeAt: try fields.int("at")))
            case "sources":
                try fields.only([])
                query = .sources
            case "delays":
                try fields.only(["route_id", "stop_id", "hour", "day_type"])
                var dayType: DayType?
                if let name = try fields.string("day_type") {
                    guard let type = DayType(name: name) else {
                        throw invalid("day_type \"\(name)\" is not weekday, saturday or sunday")
                    }
                    dayType = type
                }
                query = .delayHistograms([
                    DelaySlice(
                        routeId: try fields.string("route_id"), stopId: try fields.string("stop_id"),
                        hour: try fields.int("hour").map { Int(clamping: $0) }, dayType: dayType)
                ])
            default:
                throw Failure(code: "UNKNOWN_OP", message: "unknown op \"\(op)\" (ops: \(ops.joined(separator: ", ")))")
            }
            return .success(QueryLine(id: id, query: query))
        } catch let failure as Failure {
            return .failure(Failure(id: id, code: failure.code, message: failure.message))
        } catch {
            return .failure(Failure(id: id, code: "INVALID_ARGUMENT", message: "\(error)"))
        }
    }

    private static func invalid(_ message: String) -> Failure { Failure(code: "INVALID_ARGUMENT", message: message) }

    /// Typed access to the request's members, with messages naming the field.
    private struct Fields {
        let object: JSONObject

        func only(_ allowed: [String]) throws {
            for member in object.members where member.key != "id" && member.key != "op" && !allowed.contains(member.key)
            {
                throw invalid(
                    "unknown field \"\(member.key)\""
                        + (allowed.isEmpty ? "" : " (fields: \(allowed.joined(separator: ", ")))"))
            }
        }

        func string(_ key: String) throws -> String? {
            guard let value = object[key], value != .null else { return nil }
            guard case .string(let text) = value else {
                throw invalid("\"\(key)\" must be a string, got \(value.kindDescription)")
            }
            return text
        }

        func int(_ key: String) throws -> Int64? {
            guard let value = object[key], value != .null else { return nil }
            guard case .number(let number) = value, let int = number.int64 else {
                throw invalid("\"\(key)\" must be an integer, got \(value.kindDescription)")
            }
            return int
        }

        /// "YYYYMMDD" or the same digits as a number.
        func date(_ key: String) throws -> ServiceDate? {
            guard let value = object[key], value != .null else { return nil }
            let text: String
            switch value {
            case .string(let s): text = s
            case .number(let n): text = n.text
            default: throw invalid("\"\(key)\" must be \"YYYYMMDD\", got \(value.kindDescription)")
            }
            guard let date = GTFSDate(text) else { throw invalid("\"\(key)\" \"\(text)\" is not a YYYYMMDD date") }
            return ServiceDate(date.yyyymmdd)
        }
    }
}
