// TripModifications and what it holds: detours of a set of static trips (experimental in the spec,
// https://gtfs.org/realtime/feed-entities/trip-modifications/). Applying them to a trip's stops is
// RealtimeCore's business (TripModificationApplier); this is the feed's content as sent.

import TransitModel

/// Detours of a set of static trips on some service dates: spans of their stop times replaced by other stops.
public struct TripModifications: Sendable, Hashable {
    /// Required: at least one; each with at least one trip id.
    public var selectedTrips: [SelectedTrips]
    /// "HH:MM:SS": which runs of frequency-based trips are modified; empty means every run.
    public var startTimes: [String]
    /// "YYYYMMDD": the service dates the modifications are in effect. Required: at least one.
    public var serviceDates: [String]
    /// Required: at least one. Their spans must not overlap.
    public var modifications: [Modification]

    public init(
        selectedTrips: [SelectedTrips], startTimes: [String] = [], serviceDates: [String],
        modifications: [Modification]
    ) {
        self.selectedTrips = selectedTrips
        self.startTimes = startTimes
        self.serviceDates = serviceDates
        self.modifications = modifications
    }

    /// TripModifications.SelectedTrips: static trips sharing one stop pattern, and the shape they follow
    /// while modified.
    public struct SelectedTrips: Sendable, Hashable {
        /// Required: at least one.
        public var tripIds: [String]
        /// A Shape entity of the feed (or a static shape) the modified trips follow.
        public var shapeId: String?

        public init(tripIds: [String], shapeId: String? = nil) {
            self.tripIds = tripIds
            self.shapeId = shapeId
        }
    }

    /// TripModifications.Modification: a span of stop times (start to end, inclusive) replaced by
    /// `replacementStops`.
    public struct Modification: Sendable, Hashable {
        /// The first stop time replaced; the stop before it is the reference stop of `travelTimeToStop`.
        public var startStopSelector: StopSelector
        /// The last stop time replaced; nil when none is (the replacement stops go before the start stop).
        public var endStopSelector: StopSelector?
        /// Seconds added to every time after the span; nil means 0. Several modifications add up.
        public var propagatedModificationDelay: Int32?
        public var replacementStops: [ReplacementStop]
        /// The FeedEntity id of an Alert describing the modification.
        public var serviceAlertId: String?
        /// When the modification last changed, POSIX seconds.
        public var lastModifiedTime: UInt64?

        public init(
            startStopSelector: StopSelector, endStopSelector: StopSelector? = nil,
            propagatedModificationDelay: Int32? = nil, replacementStops: [ReplacementStop] = [],
            serviceAlertId: String? = nil, lastModifiedTime: UInt64? = nil
        ) {
            self.startStopSelector = startStopSelector
            self.endStopSelector = endStopSelector
            self.propagatedModificationDelay = propagatedModificationDelay
            self.replacementStops = replacementStops
            self.serviceAlertId = serviceAlertId
            self.lastModifiedTime = lastModifiedTime
        }
    }
}

/// StopSelector: a stop time of the original trip, by stop_sequence or stop_id (at least one is required).
public struct StopSelector: Sendable, Hashable {
    public var stopSequence: UInt32?
    public var stopId: String?

    public init(stopSequence: UInt32? = nil, stopId: String? = nil) {
        self.stopSequence = stopSequence
        self.stopId = stopId
    }
}

/// ReplacementStop: a stop the modified trip serves instead of the replaced ones.
public struct ReplacementStop: Sendable, Hashable {
    /// Seconds from the reference stop's arrival to this stop's arrival; increasing along the replacement
    /// stops, negative only when the reference stop is the trip's first. nil: interpolated.
    public var travelTimeToStop: Int32?
    /// A Stop entity's stop_id, or a static stop's.
    public var stopId: String

    public init(travelTimeToStop: Int32? = nil, stopId: String) {
        self.travelTimeToStop = travelTimeToStop
        self.stopId = stopId
    }
}

/// Shape (experimental): the path of a detoured trip, named `RealtimeShape` apart from the static model's
/// `Shape`.
public struct RealtimeShape: Sendable, Hashable {
    /// Not one of the static shapes.txt's ids.
    public var shapeId: String
    /// Google's encoded polyline of the points (TransitCore's `Polyline.decode`).
    public var encodedPolyline: String

    public init(shapeId: String, encodedPolyline: String) {
        self.shapeId = shapeId
        self.encodedPolyline = encodedPolyline
    }
}

/// Stop (experimental): a stop added in realtime, e.g. a detour's temporary stop; fields as in stops.txt.
/// Named `RealtimeStop` apart from the static model's `Stop`.
public struct RealtimeStop: Sendable, Hashable {
    public var stopId: String
    public var stopCode: TranslatedText?
    public var stopName: TranslatedText?
    public var ttsStopName: TranslatedText?
    public var stopDesc: TranslatedText?
    /// Degrees (WGS-84).
    public var stopLat: Float?
    public var stopLon: Float?
    public var zoneId: String?
    public var stopUrl: TranslatedText?
    public var parentStation: String?
    public var stopTimezone: String?
    /// nil means UNKNOWN.
    public var wheelchairBoarding: WheelchairBoarding?
    public var levelId: String?
    public var platformCode: TranslatedText?

    public init(
        stopId: String, stopCode: TranslatedText? = nil, stopName: TranslatedText? = nil,
        ttsStopName: TranslatedText? = nil, stopDesc: TranslatedText? = nil, stopLat: Float? = nil,
        stopLon: Float? = nil, zoneId: String? = nil, stopUrl: TranslatedText? = nil, parentStation: String? = nil,
        stopTimezone: String? = nil, wheelchairBoarding: WheelchairBoarding? = nil, levelId: String? = nil,
        platformCode: TranslatedText? = nil
    ) {
        self.stopId = stopId
        self.stopCode = stopCode
        self.stopName = stopName
        self.ttsStopName = ttsStopName
        self.stopDesc = stopDesc
        self.stopLat = stopLat
        self.stopLon = stopLon
        self.zoneId = zoneId
        self.stopUrl = stopUrl
        self.parentStation = parentStation
        self.stopTimezone = stopTimezone
        self.wheelchairBoarding = wheelchairBoarding
        self.levelId = levelId
        self.platformCode = platformCode
    }
}
