// The fuzz targets: each takes arbitrary bytes through one parser of untrusted input and must neither crash nor
// hang, whatever the bytes. Shared by the libFuzzer executable (transit-fuzz) and the unit test that replays
// the committed regression inputs (Tests/FuzzRegressions/<target>/).
import GTFSCSV
import GTFSRealtime
import GatewayProtocol
import RealtimeCore
import StrictJSON
import TransitModel
import TransitProto

/// One fuzz target: a parser of untrusted bytes.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// GTFS-Realtime decoding, then every trip update resolved against a small fixed schedule.
    case gtfsRealtime = "gtfs-rt"
    /// The GTFS CSV reader, every field of every record read as text and as numbers.
    case csv
    /// One gateway request line: the strict JSON parser and the request validation.
    case gatewayRequest = "gateway-request"
    /// transit.proto: the static service's request and response, decoded and encoded again.
    case transitProto = "transit-proto"
    /// realtime.proto: the realtime service's framed PUB message, request and response, decoded and encoded again.
    case realtimeProto = "realtime-proto"

    /// Runs the target on one input. Errors are the expected outcome for most inputs; only a crash is a finding.
    public func run(_ data: UnsafeRawBufferPointer) {
        switch self {
        case .gtfsRealtime: FuzzGTFSRealtime.run(data)
        case .csv: FuzzCSV.run(data)
        case .gatewayRequest: FuzzGatewayRequest.run(data)
        case .transitProto: FuzzTransitProto.run(data)
        case .realtimeProto: FuzzRealtimeProto.run(data)
        }
    }

    /// Runs the target on one input held in an array.
    public func run(_ data: [UInt8]) {
        data.withUnsafeBytes { run($0) }
    }
}

enum FuzzGTFSRealtime {
    /// 2025-03-14T08:20:00Z, inside the fixed schedule's trips.
    static let now: Int64 = 1_741_910_400 + 28_800 + 1_200
    static let day: ServiceDate = 20250314

    /// Trip T1 (08:00 on `day`) over stops S1…S6 and the frequency-based T2 (07:00–10:00 every 10 min, two
    /// days) over S1…S3: small enough to build once, rich enough for the resolver's matching, inference and
    /// propagation paths when the fuzzer finds these ids (the seed corpus has feeds naming them).
    static let schedules: TripScheduleIndex = {
        var index = TripScheduleIndex()
        index.add(pattern(1, count: 6))
        index.add(pattern(2, count: 3))
        index.add(
            TripSchedule(
                tripId: "T1", routeId: "R1", routeType: 3, directionId: 0, patternId: 1, startSecs: 28_800,
                frequencies: [], serviceDates: [day], timezone: "UTC"))
        index.add(
            TripSchedule(
                tripId: "T2", routeId: "R2", routeType: 2, directionId: 1, patternId: 2, startSecs: 25_200,
                frequencies: [FrequencyWindow(startSecs: 25_200, endSecs: 36_000, headwaySecs: 600, exactTimes: true)],
                serviceDates: [day, day + 1], timezone: "UTC"))
        return index
    }()

    static func pattern(_ id: UInt32, count: Int) -> Pattern {
        var stops: [PatternStop] = []
        for k in 0..<count {
            let arrival = Int32(k) * 300
            let departure: Int32 = k == 0 ? arrival : arrival + 30
            stops.append(
                PatternStop(
                    stopId: "S\(k + 1)", stopSequence: UInt32((k + 1) * 10), arrivalOffset: arrival,
                    departureOffset: departure))
        }
        return Pattern(patternId: id, stops: stops)
    }

    static func run(_ data: UnsafeRawBufferPointer) {
        _ = resolvedTrips(data)
    }

    /// Decodes the feed, applies its trip modifications and resolves its trip updates (those naming a modified
    /// trip against it); returns how many resolved to a trip of the schedule.
    static func resolvedTrips(_ data: UnsafeRawBufferPointer) -> Int {
        guard let feed = try? GTFSRealtimeCodec.decode(data, workers: 1) else { return 0 }
        // The encoder must take whatever the decoder made.
        _ = GTFSRealtimeCodec.encode(feed)
        var resolver = TripUpdateResolver(options: .init(timeZone: "UTC", idPrefix: ""))
        // The feed's detours applied to the schedule's trips, and the updates naming a modified trip matched
        // against them.
        let detours = TripModificationSet(entities: feed.entities, schedules: schedules)
        var resolved = 0
        for entity in feed.entities {
            guard let update = entity.tripUpdate else { continue }
            let resolution =
                update.trip.modifiedTrip != nil
                ? resolver.resolveModified(update, modifications: detours, schedules: schedules, now: now).resolution
                : resolver.resolve(update, schedules: schedules, now: now)
            if case .resolved = resolution { resolved += 1 }
        }
        return resolved
    }

    static func resolvedTrips(_ data: [UInt8]) -> Int { data.withUnsafeBytes { resolvedTrips($0) } }
}

enum FuzzCSV {
    static func run(_ data: UnsafeRawBufferPointer) {
        // The first byte picks the read size, so that records straddle the reader's buffer refills.
        guard let first = data.first else { return }
        let body = Array(data.dropFirst())
        let chunkSize = Int(first % 64) + 1
        let limits = CSVLimits(maxFileBytes: 1 << 20, maxLineBytes: 4096, maxFieldBytes: 512)
        do {
            let reader = try CSVReader(
                source: MemoryByteSource(body, maxRead: chunkSize), fileName: "fuzz.txt", chunkSize: chunkSize,
                limits: limits, onIssue: { _ in })
            let columns = reader.header.map { reader.column($0) } + [reader.column("stop_id")]
            var records = 0
            while try reader.next(), records < 10_000 {
                records += 1
                for column in columns {
                    _ = try? reader.optionalString(column)
                    _ = try? reader.int(column)
                    _ = try? reader.double(column)
                    _ = try? reader.time(column)
                    _ = try? reader.date(column)
                }
            }
        } catch {
            // A refused file is a correct outcome.
        }
    }
}

enum FuzzGatewayRequest {
    static func run(_ data: UnsafeRawBufferPointer) {
        _ = GatewayRequest.isBlank(data)
        _ = try? JSONParser.parse(data)
        _ = GatewayRequest.parse(data)
    }
}

enum FuzzTransitProto {
    static func run(_ data: UnsafeRawBufferPointer) {
        if let request = try? StaticCodec.decodeRequest(data) {
            _ = try? StaticCodec.decodeRequest(StaticCodec.encode(request))
        }
        if let response = try? StaticCodec.decodeResponse(data) {
            _ = try? StaticCodec.decodeResponse(StaticCodec.encode(response))
        }
    }
}

enum FuzzRealtimeProto {
    static func run(_ data: UnsafeRawBufferPointer) {
        if let message = try? RealtimeCodec.decodeFramed(data) {
            _ = try? RealtimeCodec.decodeFramed(RealtimeCodec.encodeFramed(message))
        }
        if let request = try? RealtimeCodec.decodeRequest(data) {
            _ = try? RealtimeCodec.decodeRequest(RealtimeCodec.encode(request))
        }
        if let response = try? RealtimeCodec.decodeResponse(data) {
            _ = try? RealtimeCodec.decodeResponse(RealtimeCodec.encode(response))
        }
    }
}
