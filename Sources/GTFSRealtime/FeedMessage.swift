// The top of a GTFS-Realtime feed: header and entities. Every type in this module mirrors a message of
// protocol/gtfs-realtime.proto; an optional property is nil exactly when the field is absent on the wire
// (proto2 presence), so "not sent" and "sent as the default" stay distinguishable. Where the spec defines a
// default for an absent field, the property's comment says which.

/// One GTFS-Realtime feed message.
public struct FeedMessage: Sendable, Hashable {
    public var header: FeedHeader
    public var entities: [FeedEntity]
    /// Entities (or parts of them) the decoder left out because they break the spec, e.g. a trip update
    /// without a trip descriptor. Empty for a clean feed; never encoded.
    public var problems: [EntityProblem]
    /// Known fields the decoder skipped because they arrived with another wire type than the schema's
    /// (e.g. Transport for NSW's varint in StopTimeUpdate field 6), one per field path in order of first
    /// occurrence; the rest of their messages was kept. Empty for a clean feed; never encoded.
    public var skippedFields: [SkippedField]

    public init(
        header: FeedHeader, entities: [FeedEntity] = [], problems: [EntityProblem] = [],
        skippedFields: [SkippedField] = []
    ) {
        self.header = header
        self.entities = entities
        self.problems = problems
        self.skippedFields = skippedFields
    }
}

/// Metadata of a feed message.
public struct FeedHeader: Sendable, Hashable {
    /// The spec version, e.g. "2.0".
    public var gtfsRealtimeVersion: String
    /// nil means FULL_DATASET.
    public var incrementality: Incrementality?
    /// When the feed content was created, POSIX seconds.
    public var timestamp: UInt64?
    /// The version of the static GTFS feed this one was made against.
    public var feedVersion: String?

    public init(
        gtfsRealtimeVersion: String = "2.0", incrementality: Incrementality? = nil, timestamp: UInt64? = nil,
        feedVersion: String? = nil
    ) {
        self.gtfsRealtimeVersion = gtfsRealtimeVersion
        self.incrementality = incrementality
        self.timestamp = timestamp
        self.feedVersion = feedVersion
    }
}

/// One entity of a feed: a trip update, a vehicle position, an alert and/or the experimental shape, stop
/// and trip modifications (detours) under one id.
public struct FeedEntity: Sendable, Hashable {
    /// Unique within the feed (not across feeds).
    public var id: String
    /// Only meaningful in DIFFERENTIAL feeds: the entity with this id is gone. nil means false.
    public var isDeleted: Bool?
    public var tripUpdate: TripUpdate?
    public var vehicle: VehiclePosition?
    public var alert: Alert?
    /// Experimental: the path of detoured trips (TripModifications.SelectedTrips.shape_id).
    public var shape: RealtimeShape?
    /// Experimental: a stop not in the static GTFS (a detour's replacement stop).
    public var stop: RealtimeStop?
    /// Experimental: detours of static trips; TripDescriptor.modified_trip names this entity's id.
    public var tripModifications: TripModifications?

    public init(
        id: String, isDeleted: Bool? = nil, tripUpdate: TripUpdate? = nil, vehicle: VehiclePosition? = nil,
        alert: Alert? = nil, shape: RealtimeShape? = nil, stop: RealtimeStop? = nil,
        tripModifications: TripModifications? = nil
    ) {
        self.id = id
        self.isDeleted = isDeleted
        self.tripUpdate = tripUpdate
        self.vehicle = vehicle
        self.alert = alert
        self.shape = shape
        self.stop = stop
        self.tripModifications = tripModifications
    }
}

/// Why (part of) an entity was left out of a decoded feed.
public struct EntityProblem: Sendable, Hashable, CustomStringConvertible {
    /// Position of the entity in the feed (0-based).
    public var index: Int
    /// The entity's id, when it has one.
    public var entityId: String?
    /// Proto field path inside the entity, e.g. "trip_update.trip" or "vehicle.position.latitude".
    public var field: String
    /// What is wrong, e.g. "missing required field".
    public var reason: String
    /// What was dropped: the whole entity, or only the named part (its trip update, vehicle, alert, shape,
    /// stop or trip modifications).
    public var dropped: String

    public init(index: Int, entityId: String?, field: String, reason: String, dropped: String) {
        self.index = index
        self.entityId = entityId
        self.field = field
        self.reason = reason
        self.dropped = dropped
    }

    public var description: String {
        let who = entityId.map { "entity[\(index)] id '\($0)'" } ?? "entity[\(index)]"
        return "\(who): \(field): \(reason) (dropped \(dropped))"
    }
}

/// A known field skipped wherever it arrived with a wire type other than the schema's, as an unknown field
/// would be: how often, and where first.
public struct SkippedField: Sendable, Hashable, CustomStringConvertible {
    /// Field names from the FeedMessage down, then the skipped field's number, e.g.
    /// "entity.trip_update.stop_time_update.6".
    public var path: String
    /// Occurrences in the feed.
    public var count: Int
    /// Byte offset of the first occurrence's tag in the body.
    public var firstOffset: Int
    /// The wire type it arrived with (0 varint, 1 64-bit, 2 length-delimited, 5 32-bit).
    public var wireType: Int
    /// The wire type of the field in the schema.
    public var expectedWireType: Int

    public init(path: String, count: Int, firstOffset: Int, wireType: Int, expectedWireType: Int) {
        self.path = path
        self.count = count
        self.firstOffset = firstOffset
        self.wireType = wireType
        self.expectedWireType = expectedWireType
    }

    public var description: String {
        "\(path): \(count) skipped, first at byte \(firstOffset) (\(Self.wireTypeName(wireType)) where the schema has "
            + "\(Self.wireTypeName(expectedWireType)))"
    }

    /// "varint", "64-bit", "length-delimited", "32-bit" (or the number).
    public static func wireTypeName(_ wireType: Int) -> String {
        switch wireType {
        case 0: "varint"
        case 1: "64-bit"
        case 2: "length-delimited"
        case 5: "32-bit"
        default: "wire type \(wireType)"
        }
    }
}
