// Envelopes of the realtime service (protocol/realtime.proto): the PUB stream and the REQ/REP queries.

/// A topic of the PUB stream; its raw value is the topic's bytes on the wire.
public enum RealtimeTopic: String, Sendable, Hashable, CaseIterable {
    /// Trip predictions (`LiveTripBatch`).
    case tripUpdates = "tu"
    /// Vehicle positions (`LiveVehicleBatch`).
    case vehicles = "vp"
    /// Service alerts (`LiveAlertBatch`).
    case alerts = "al"
    /// The sources' health (`LiveSourceStatus` list).
    case sources = "st"
    /// Periodic heartbeat (`LiveHeartbeat`); no state, no snapshot.
    case heartbeat = "hb"
    /// Trips a GTFS-Realtime TripModifications entity changes (`LiveDetourBatch`).
    case detours = "dt"

    /// The bytes a subscriber subscribes to: the topic and its 0x00 separator.
    public var prefix: [UInt8] { Array(rawValue.utf8) + [0] }

    /// The topics that have state (a snapshot) and a sequence a subscriber follows.
    public static let stateful: [RealtimeTopic] = [.tripUpdates, .vehicles, .alerts, .sources, .detours]
}

/// New or changed trip instances, and instances gone from the live state.
public struct LiveTripBatch: Sendable, Hashable {
    /// New or changed instances, each in full.
    public var trips: [LiveTrip]
    /// Instances no longer in the live state: back to the schedule.
    public var removed: [TripInstanceKey]
    /// A batch; empty unless told.
    public init(trips: [LiveTrip] = [], removed: [TripInstanceKey] = []) {
        self.trips = trips
        self.removed = removed
    }
}

/// New or changed vehicles, and the keys of vehicles gone from the live state.
public struct LiveVehicleBatch: Sendable, Hashable {
    /// New or changed vehicles, each in full.
    public var vehicles: [LiveVehicle]
    /// Keys.
    public var removed: [String]
    /// A batch; empty unless told.
    public init(vehicles: [LiveVehicle] = [], removed: [String] = []) {
        self.vehicles = vehicles
        self.removed = removed
    }
}

/// New or changed detours, and the keys of detours gone from the live state.
public struct LiveDetourBatch: Sendable, Hashable {
    /// New or changed detours, each in full.
    public var detours: [LiveDetour]
    /// Keys.
    public var removed: [String]
    /// A batch; empty unless told.
    public init(detours: [LiveDetour] = [], removed: [String] = []) {
        self.detours = detours
        self.removed = removed
    }
}

/// New or changed alerts, and the keys of alerts gone from the live state.
public struct LiveAlertBatch: Sendable, Hashable {
    /// New or changed alerts, each in full.
    public var alerts: [LiveAlert]
    /// Keys.
    public var removed: [String]
    /// A batch; empty unless told.
    public init(alerts: [LiveAlert] = [], removed: [String] = []) {
        self.alerts = alerts
        self.removed = removed
    }
}

/// The `hb` topic's payload: every source's status and every stateful topic's current sequence, so a
/// subscriber notices lost messages even when nothing changes.
public struct LiveHeartbeat: Sendable, Hashable {
    /// The status of every source.
    public var sources: [LiveSourceStatus]
    /// The current sequence of every stateful topic.
    public var sequences: [RealtimeTopic: UInt64]
    /// The static database version the trip updates were resolved against; nil while none is known yet.
    public var databaseVersion: String?
    /// The realtime service's resident set size in bytes; nil where unknown.
    public var residentBytes: UInt64?
    /// The publisher as the elected leader (`serve --election`); nil without election.
    public var leader: LiveLeadership?
    /// A heartbeat.
    public init(
        sources: [LiveSourceStatus], sequences: [RealtimeTopic: UInt64], databaseVersion: String? = nil,
        residentBytes: UInt64? = nil, leader: LiveLeadership? = nil
    ) {
        self.sources = sources
        self.sequences = sequences
        self.databaseVersion = databaseVersion
        self.residentBytes = residentBytes
        self.leader = leader
    }
}

/// The elected realtime leader as it sees itself (the heartbeat's `leader`; the gateway's `health` and `stats`).
public struct LiveLeadership: Sendable, Hashable {
    /// Its `--election-name` (host:pid by default).
    public var name: String
    /// The least time its lease has left, in milliseconds.
    public var leaseRemainingMs: Int64?
    /// Each etcd endpoint as the leader last found it.
    public var etcd: [Endpoint]

    /// One etcd endpoint's state.
    public struct Endpoint: Sendable, Hashable {
        /// Its client URL.
        public var url: String
        /// nil: not asked yet.
        public var reachable: Bool?
        /// The last failure's message, kept after a recovery.
        public var lastError: String?

        /// An endpoint's state.
        public init(url: String, reachable: Bool?, lastError: String?) {
            self.url = url
            self.reachable = reachable
            self.lastError = lastError
        }
    }

    /// A leader's description of itself.
    public init(name: String, leaseRemainingMs: Int64?, etcd: [Endpoint]) {
        self.name = name
        self.leaseRemainingMs = leaseRemainingMs
        self.etcd = etcd
    }
}

/// What one PUB message or one snapshot carries.
public enum LivePayload: Sendable, Hashable {
    case tripUpdates(LiveTripBatch)
    case vehicles(LiveVehicleBatch)
    case alerts(LiveAlertBatch)
    case sources([LiveSourceStatus])
    case detours(LiveDetourBatch)
    /// PUB only.
    case heartbeat(LiveHeartbeat)

    /// The topic this payload travels under.
    public var topic: RealtimeTopic {
        switch self {
        case .tripUpdates: .tripUpdates
        case .vehicles: .vehicles
        case .alerts: .alerts
        case .sources: .sources
        case .detours: .detours
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
    /// When it was sent, in unix milliseconds.
    public var sentUnixMs: Int64
    /// What it carries; its case decides the topic.
    public var payload: LivePayload

    /// The topic it travels under.
    public var topic: RealtimeTopic { payload.topic }

    /// A message of `payload`'s topic.
    public init(epoch: UInt64, seq: UInt64, sentUnixMs: Int64, payload: LivePayload) {
        self.epoch = epoch
        self.seq = seq
        self.sentUnixMs = sentUnixMs
        self.payload = payload
    }
}

/// The state of one topic after its messages 1 ... seq. The payload's batch holds everything (no removals).
public struct RealtimeSnapshot: Sendable, Hashable {
    /// The epoch of the process that made it.
    public var epoch: UInt64
    /// The last message of the topic it includes: a subscriber applies messages from `seq + 1` on.
    public var seq: UInt64
    /// The whole state of the topic.
    public var payload: LivePayload

    /// The topic it is the state of.
    public var topic: RealtimeTopic { payload.topic }

    /// The state of `payload`'s topic after message `seq`.
    public init(epoch: UInt64, seq: UInt64, payload: LivePayload) {
        self.epoch = epoch
        self.seq = seq
        self.payload = payload
    }
}

// MARK: queries

/// The `trip` realtime query: the live instances of one trip (answered by `RealtimeResult.trips`).
public struct LiveTripQuery: Sendable, Hashable {
    /// A static trip id (with import prefix) or an added trip's id.
    public var tripId: String
    /// nil: every instance of the trip.
    public var serviceDate: ServiceDate?
    /// Only the instance starting then (GTFS seconds); nil: any start.
    public var startSecs: Int32?
    /// Every live instance of `tripId`, or those of one date and start.
    public init(tripId: String, serviceDate: ServiceDate? = nil, startSecs: Int32? = nil) {
        self.tripId = tripId
        self.serviceDate = serviceDate
        self.startSecs = startSecs
    }
}

/// The `stop` realtime query: live trip instances calling at a stop (answered by `RealtimeResult.visits`).
public struct LiveStopQuery: Sendable, Hashable {
    /// The stop; also matches a realtime platform change (`LiveStop.assignedStopId`).
    public var stopId: String
    /// Only visits at or after this time (predicted, else scheduled, departure; arrival at the last
    /// stop), in unix seconds; nil: no lower bound.
    public var fromUnix: Int64?
    /// Only visits up to this time, in unix seconds; nil: no upper bound.
    public var toUnix: Int64?
    /// At most this many visits (1...`maxLimit`).
    public var limit: Int
    /// `limit` when the request gives none.
    public static let defaultLimit = 100
    /// The realtime service's own limit for stop visits (unrelated to the static service's `StaticRequestLimits`).
    public static let maxLimit = 1000
    /// Visits of `stopId` in a time range, at most `defaultLimit` unless told.
    public init(stopId: String, fromUnix: Int64? = nil, toUnix: Int64? = nil, limit: Int = LiveStopQuery.defaultLimit) {
        self.stopId = stopId
        self.fromUnix = fromUnix
        self.toUnix = toUnix
        self.limit = limit
    }
}

/// The `vehicles` realtime query (answered by `RealtimeResult.vehicles`).
public enum LiveVehicleQuery: Sendable, Hashable {
    case all
    case trip(String)
    case route(String)
    case vehicle(String)
}

/// Every given field must be named by some informed entity of the alert.
public struct LiveAlertQuery: Sendable, Hashable {
    /// Alerts naming this stop.
    public var stopId: String?
    /// Alerts naming this route.
    public var routeId: String?
    /// Alerts naming this GTFS route_type.
    public var routeType: Int32?
    /// Alerts naming this trip.
    public var tripId: String?
    /// Alerts naming this agency.
    public var agencyId: String?
    /// Only alerts active at this time (unix seconds): with no period or a period containing it.
    public var activeAt: Int64?
    /// Alerts matching every given field; none given: every alert.
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

/// What a request to the realtime service asks; one case per query of protocol/realtime.proto.
public enum RealtimeQuery: Sendable, Hashable {
    /// tu, vp, al or st.
    case snapshot(RealtimeTopic)
    case trip(LiveTripQuery)
    case stop(LiveStopQuery)
    case vehicles(LiveVehicleQuery)
    case alerts(LiveAlertQuery)
    case sources
    /// The recorded departure delays of 1…`maxDelaySlices` slices (protocol/README.md flow 6).
    case delayHistograms([DelaySlice])

    /// Most slices in one `delayHistograms` query.
    public static let maxDelaySlices = 1000
}

/// A request to the realtime service (REQ/REP); answered by a `RealtimeResponse` with the same id.
public struct RealtimeRequest: Sendable, Hashable {
    /// Chosen by the client and echoed in the response.
    public var requestId: UInt64
    /// What is asked.
    public var query: RealtimeQuery
    /// A request `requestId` asking `query`.
    public init(requestId: UInt64, query: RealtimeQuery) {
        self.requestId = requestId
        self.query = query
    }
}

/// One trip instance at a stop: the instance and that stop's prediction.
public struct LiveStopVisit: Sendable, Hashable {
    /// The trip instance.
    public var trip: TripInstanceKey
    /// The instance's relationship to the schedule.
    public var relationship: LiveTripRelationship
    /// The instance's route (with import prefix), when known.
    public var routeId: String?
    /// Name of the source the prediction came from.
    public var source: String
    /// The stop's schedule and prediction.
    public var stop: LiveStop
    /// 0-based position of the stop in the instance's stops.
    public var stopIndex: Int
    /// Whether it is the instance's last stop (the visit's time is then its arrival).
    public var isLastStop: Bool
    /// A visit of `trip` at `stop`.
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

/// A successful answer of the realtime service; one case per kind of `RealtimeQuery`.
public enum RealtimeResult: Sendable, Hashable {
    case snapshot(RealtimeSnapshot)
    case trips([LiveTrip])
    case visits([LiveStopVisit])
    case vehicles([LiveVehicle])
    case alerts([LiveAlert])
    /// Every source's status, the PUB messages the socket refused since the service started, and the service's
    /// resident set size in bytes (nil where unknown).
    case sources([LiveSourceStatus], failedSends: UInt64, residentBytes: UInt64? = nil)
    /// One histogram per slice asked, in order.
    case delayHistograms([DelayWindowHistogram])
}

/// The realtime service's answer to a `RealtimeRequest`.
public struct RealtimeResponse: Sendable, Hashable {
    /// The request's id.
    public var requestId: UInt64
    /// The answer, or why there is none.
    public var result: Result<RealtimeResult, ServiceError>
    /// The answer to request `requestId`.
    public init(requestId: UInt64, result: Result<RealtimeResult, ServiceError>) {
        self.requestId = requestId
        self.result = result
    }
}
