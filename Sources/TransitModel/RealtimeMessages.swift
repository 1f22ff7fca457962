// Envelopes of the realtime service (protocol/realtime.proto): the PUB stream and the REQ/REP queries.

/// A topic of the PUB stream; its raw value is the topic's bytes on the wire.
public enum RealtimeTopic: String, Sendable, Hashable, CaseIterable {
    case tripUpdates = "tu"
    case vehicles = "vp"
    case alerts = "al"
    case sources = "st"
    case heartbeat = "hb"

    /// The bytes a subscriber subscribes to: the topic and its 0x00 separator.
    public var prefix: [UInt8] { Array(rawValue.utf8) + [0] }

    /// The topics that have state (a snapshot) and a sequence a subscriber follows.
    public static let stateful: [RealtimeTopic] = [.tripUpdates, .vehicles, .alerts, .sources]
}

/// New or changed trip instances, and instances gone from the live state.
public struct LiveTripBatch: Sendable, Hashable {
    public var trips: [LiveTrip]
    public var removed: [TripInstanceKey]
    public init(trips: [LiveTrip] = [], removed: [TripInstanceKey] = []) {
        self.trips = trips
        self.removed = removed
    }
}

public struct LiveVehicleBatch: Sendable, Hashable {
    public var vehicles: [LiveVehicle]
    /// Keys.
    public var removed: [String]
    public init(vehicles: [LiveVehicle] = [], removed: [String] = []) {
        self.vehicles = vehicles
        self.removed = removed
    }
}

public struct LiveAlertBatch: Sendable, Hashable {
    public var alerts: [LiveAlert]
    /// Keys.
    public var removed: [String]
    public init(alerts: [LiveAlert] = [], removed: [String] = []) {
        self.alerts = alerts
        self.removed = removed
    }
}

public struct LiveHeartbeat: Sendable, Hashable {
    public var sources: [LiveSourceStatus]
    /// The current sequence of every stateful topic.
    public var sequences: [RealtimeTopic: UInt64]
    public var databaseVersion: String?
    public init(sources: [LiveSourceStatus], sequences: [RealtimeTopic: UInt64], databaseVersion: String? = nil) {
        self.sources = sources
        self.sequences = sequences
        self.databaseVersion = databaseVersion
    }
}

/// What one PUB message or one snapshot carries.
public enum LivePayload: Sendable, Hashable {
    case tripUpdates(LiveTripBatch)
    case vehicles(LiveVehicleBatch)
    case alerts(LiveAlertBatch)
    case sources([LiveSourceStatus])
    /// PUB only.
    case heartbeat(LiveHeartbeat)

    /// The topic this payload travels under.
    public var topic: RealtimeTopic {
        switch self {
        case .tripUpdates: .tripUpdates
        case .vehicles: .vehicles
        case .alerts: .alerts
        case .sources: .sources
        case .heartbeat: .heartbeat
        }
    }
}

/// One message of the PUB stream (framed as topic, 0x00, protobuf).
public struct PubMessage: Sendable, Hashable {
    /// Random per realtime process start.
    public var epoch: UInt64
    /// Per topic, +1 per message, 1 first. Heartbeats have their own sequence.
    public var seq: UInt64
    public var sentUnixMs: Int64
    public var payload: LivePayload

    public var topic: RealtimeTopic { payload.topic }

    public init(epoch: UInt64, seq: UInt64, sentUnixMs: Int64, payload: LivePayload) {
        self.epoch = epoch
        self.seq = seq
        self.sentUnixMs = sentUnixMs
        self.payload = payload
    }
}

/// The state of one topic after its messages 1 ... seq. The payload's batch holds everything (no removals).
public struct RealtimeSnapshot: Sendable, Hashable {
    public var epoch: UInt64
    public var seq: UInt64
    public var payload: LivePayload

    public var topic: RealtimeTopic { payload.topic }

    public init(epoch: UInt64, seq: UInt64, payload: LivePayload) {
        self.epoch = epoch
        self.seq = seq
        self.payload = payload
    }
}

// MARK: queries

public struct LiveTripQuery: Sendable, Hashable {
    public var tripId: String
    /// nil: every instance of the trip.
    public var serviceDate: ServiceDate?
    public var startSecs: Int32?
    public init(tripId: String, serviceDate: ServiceDate? = nil, startSecs: Int32? = nil) {
        self.tripId = tripId
        self.serviceDate = serviceDate
        self.startSecs = startSecs
    }
}

public struct LiveStopQuery: Sendable, Hashable {
    public var stopId: String
    public var fromUnix: Int64?
    public var toUnix: Int64?
    public var limit: Int
    public static let defaultLimit = 100
    /// The realtime service's own limit for stop visits (unrelated to the static service's `StaticRequestLimits`).
    public static let maxLimit = 1000
    public init(stopId: String, fromUnix: Int64? = nil, toUnix: Int64? = nil, limit: Int = LiveStopQuery.defaultLimit) {
        self.stopId = stopId
        self.fromUnix = fromUnix
        self.toUnix = toUnix
        self.limit = limit
    }
}

public enum LiveVehicleQuery: Sendable, Hashable {
    case all
    case trip(String)
    case route(String)
    case vehicle(String)
}

/// Every given field must be named by some informed entity of the alert.
public struct LiveAlertQuery: Sendable, Hashable {
    public var stopId: String?
    public var routeId: String?
    public var routeType: Int32?
    public var tripId: String?
    public var agencyId: String?
    public var activeAt: Int64?
    public init(
        stopId: String? = nil, routeId: String? = nil, routeType: Int32? = nil, tripId: String? = nil,
        agencyId: String? = nil, activeAt: Int64? = nil
    ) {
        self.stopId = stopId
        self.routeId = routeId
        self.routeType = routeType
        self.tripId = tripId
        self.agencyId = agencyId
        self.activeAt = activeAt
    }
}

public enum RealtimeQuery: Sendable, Hashable {
    /// tu, vp, al or st.
    case snapshot(RealtimeTopic)
    case trip(LiveTripQuery)
    case stop(LiveStopQuery)
    case vehicles(LiveVehicleQuery)
    case alerts(LiveAlertQuery)
    case sources
}

public struct RealtimeRequest: Sendable, Hashable {
    public var requestId: UInt64
    public var query: RealtimeQuery
    public init(requestId: UInt64, query: RealtimeQuery) {
        self.requestId = requestId
        self.query = query
    }
}

/// One trip instance at a stop: the instance and that stop's prediction.
public struct LiveStopVisit: Sendable, Hashable {
    public var trip: TripInstanceKey
    public var relationship: LiveTripRelationship
    public var routeId: String?
    public var source: String
    public var stop: LiveStop
    public var stopIndex: Int
    public var isLastStop: Bool
    public init(
        trip: TripInstanceKey, relationship: LiveTripRelationship, routeId: String?, source: String, stop: LiveStop,
        stopIndex: Int, isLastStop: Bool
    ) {
        self.trip = trip
        self.relationship = relationship
        self.routeId = routeId
        self.source = source
        self.stop = stop
        self.stopIndex = stopIndex
        self.isLastStop = isLastStop
    }
}

public enum RealtimeResult: Sendable, Hashable {
    case snapshot(RealtimeSnapshot)
    case trips([LiveTrip])
    case visits([LiveStopVisit])
    case vehicles([LiveVehicle])
    case alerts([LiveAlert])
    /// Every source's status, and the PUB messages the socket refused since the service started.
    case sources([LiveSourceStatus], failedSends: UInt64)
}

public struct RealtimeResponse: Sendable, Hashable {
    public var requestId: UInt64
    public var result: Result<RealtimeResult, ServiceError>
    public init(requestId: UInt64, result: Result<RealtimeResult, ServiceError>) {
        self.requestId = requestId
        self.result = result
    }
}
