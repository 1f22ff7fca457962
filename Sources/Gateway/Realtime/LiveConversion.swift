import GatewayProtocol
import TransitCore
import TransitModel

// The realtime service's values (TransitModel `Live*`, protocol/realtime.proto) as the gateway holds them.

extension TripInstanceKey {
    /// The instance a static row or trip detail names: the static service writes a frequency instance's start
    /// as "HH:MM:SS" (parsed only then: scheduled trips have none).
    init(tripId: String, serviceDate: ServiceDate, staticStartTime: String?) {
        self.init(tripId: tripId, serviceDate: serviceDate, startSecs: staticStartTime.flatMap(Self.seconds))
    }

    /// "HH:MM:SS" of the start, the static service's and the JSON answers' form.
    var startTime: String? { startSecs.map { GTFSTime.format(Int($0)) } }

    /// Seconds of a static "HH:MM:SS" start (no allocation: the bytes are read in place).
    static func seconds(_ startTime: String) -> Int32? {
        var text = startTime
        return text.withUTF8 { bytes in (try? GTFSTime.parse(utf8: bytes)).flatMap { $0 }.map { Int32($0) } }
    }
}

extension TripPrediction {
    init(_ live: LiveTrip) {
        let relationship = live.relationship
        self.init(
            key: live.instance, routeId: live.routeId, directionId: live.directionId,
            cancelled: relationship == .canceled,
            // A REPLACEMENT of no scheduled trip has only its own stops: to boards and `trip` it is added.
            added: relationship == .added || relationship == .new || relationship == .duplicated
                || (relationship == .replacement && live.staticTripId == nil),
            deleted: relationship == .deleted, staticTripId: live.staticTripId, stops: live.stops,
            source: live.source, timestamp: live.timestamp.map { Int64(clamping: $0) }, headsign: live.tripHeadsign)
        modificationsId = live.modificationsId
    }
}

extension VehicleEntry {
    init(_ live: LiveVehicle) {
        let instance = live.trip
        var vehicle = VehicleSnapshot(
            vehicleId: live.vehicleId, label: live.label, tripId: live.trip?.tripId ?? live.tripId,
            routeId: live.routeId,
            serviceDate: live.trip?.serviceDate ?? live.startDate.flatMap { ServiceDate($0) },
            startTime: instance?.startTime ?? live.startTime,
            lat: live.position.map { Self.shortest($0.lat) }, lon: live.position.map { Self.shortest($0.lon) },
            bearing: live.position?.bearing.map { Self.shortest(Double($0)) },
            speedMetresPerSecond: live.position?.speed.map { Self.shortest(Double($0)) },
            currentStopSequence: live.currentStopSequence,
            stopId: live.stopId, currentStatus: live.currentStatus, occupancyStatus: live.occupancyStatus,
            occupancyPercentage: live.occupancyPercentage.map(Int.init), congestionLevel: live.congestionLevel,
            timestamp: live.timestamp.map { Int64(clamping: $0) }, carriages: live.carriages,
            airConditioned: live.features?.airConditioned,
            wheelchairAccessible: live.features?.wheelchairAccessible ?? Self.accessible(live.wheelchairAccessible),
            model: live.features?.model)
        vehicle.licensePlate = live.licensePlate
        vehicle.odometerMetres = live.position?.odometer
        self.init(vehicle: vehicle, instance: instance)
    }

    /// The official VehicleDescriptor.wheelchair_accessible as a flag (NO_VALUE and UNKNOWN: nil).
    static func accessible(_ name: String?) -> Bool? {
        switch name {
        case "WHEELCHAIR_ACCESSIBLE": true
        case "WHEELCHAIR_INACCESSIBLE": false
        default: nil
        }
    }

    /// GTFS-RT positions are 32-bit floats: print what the feed said (53.70077), not the float widened to
    /// a double (53.70077133178711).
    static func shortest(_ value: Double) -> Double {
        guard let float = Float(exactly: value) else { return value }
        return Double(float.description) ?? value
    }
}

extension RealtimeSourceStatus {
    init(_ live: LiveSourceStatus) {
        let kind: Kind
        switch live.kind {
        case .auto: kind = .auto
        case .tripUpdates: kind = .tripUpdates
        case .vehiclePositions: kind = .vehiclePositions
        case .alerts: kind = .alerts
        }
        self.init(
            name: live.name, kind: kind, feedTimestamp: live.feedTimestamp.map { Int64(clamping: $0) },
            stale: live.stale,
            lastSuccessUnix: live.lastSuccessUnix, errors: Int(clamping: live.errors), lastError: live.lastError,
            entities: Int(clamping: live.entities), drops: live.drops, skippedFields: live.skippedFields)
        stopMismatches = Int(clamping: live.stopMismatches)
        firstStopMismatch = live.firstStopMismatch
        lastErrorUnix = live.lastErrorUnix
        consecutiveErrors = Int(clamping: live.consecutiveErrors)
        recoveredUnix = live.recoveredUnix
        match = live.match
        feedVersion = live.feedVersion
        idPrefix = live.idPrefix
    }
}
