// VehiclePosition and what it holds: where a vehicle is and how full.

/// Position and status of one vehicle, as the feed says it (the realtime service resolves its trip and
/// publishes a TransitModel `LiveVehicle`).
public struct VehiclePosition: Sendable, Hashable {
    public var trip: TripDescriptor?
    public var vehicle: VehicleDescriptor?
    public var position: Position?
    /// stop_sequence of the current stop (see currentStatus).
    public var currentStopSequence: UInt32?
    public var stopId: String?
    /// nil means IN_TRANSIT_TO.
    public var currentStatus: VehicleStopStatus?
    /// When the position was measured, POSIX seconds.
    public var timestamp: UInt64?
    public var congestionLevel: CongestionLevel?
    public var occupancyStatus: OccupancyStatus?
    /// Percent of the nominal capacity (may exceed 100).
    public var occupancyPercentage: UInt32?
    public var multiCarriageDetails: [CarriageDetails]
    /// Transport for NSW's extension 1007: the train's carriages (name, position, occupancy, quiet, toilet,
    /// luggage rack, where sent). Decoded only, never encoded.
    public var tfnswCarriages: [TfnswCarriage]

    public init(
        trip: TripDescriptor? = nil, vehicle: VehicleDescriptor? = nil, position: Position? = nil,
        currentStopSequence: UInt32? = nil, stopId: String? = nil, currentStatus: VehicleStopStatus? = nil,
        timestamp: UInt64? = nil, congestionLevel: CongestionLevel? = nil, occupancyStatus: OccupancyStatus? = nil,
        occupancyPercentage: UInt32? = nil, multiCarriageDetails: [CarriageDetails] = [],
        tfnswCarriages: [TfnswCarriage] = []
    ) {
        self.trip = trip
        self.vehicle = vehicle
        self.position = position
        self.currentStopSequence = currentStopSequence
        self.stopId = stopId
        self.currentStatus = currentStatus
        self.timestamp = timestamp
        self.congestionLevel = congestionLevel
        self.occupancyStatus = occupancyStatus
        self.occupancyPercentage = occupancyPercentage
        self.multiCarriageDetails = multiCarriageDetails
        self.tfnswCarriages = tfnswCarriages
    }
}

/// A geographic position (WGS-84).
public struct Position: Sendable, Hashable {
    /// Degrees; required by the spec.
    public var latitude: Float
    /// Degrees; required by the spec.
    public var longitude: Float
    /// Degrees clockwise from true north.
    public var bearing: Float?
    /// Meters.
    public var odometer: Double?
    /// Meters per second.
    public var speed: Float?

    public init(latitude: Float, longitude: Float, bearing: Float? = nil, odometer: Double? = nil, speed: Float? = nil)
    {
        self.latitude = latitude
        self.longitude = longitude
        self.bearing = bearing
        self.odometer = odometer
        self.speed = speed
    }
}

/// Identification of a vehicle.
public struct VehicleDescriptor: Sendable, Hashable {
    /// Internal system id, unique per vehicle.
    public var id: String?
    /// What riders see (e.g. a train number).
    public var label: String?
    public var licensePlate: String?
    /// nil means NO_VALUE.
    public var wheelchairAccessible: WheelchairAccessible?
    /// Transport for NSW's extension 1007 (air conditioning, accessibility, model). Decoded only, never encoded.
    public var tfnsw: TfnswVehicleDescriptor?

    public init(
        id: String? = nil, label: String? = nil, licensePlate: String? = nil,
        wheelchairAccessible: WheelchairAccessible? = nil,
        tfnsw: TfnswVehicleDescriptor? = nil
    ) {
        self.id = id
        self.label = label
        self.licensePlate = licensePlate
        self.wheelchairAccessible = wheelchairAccessible
        self.tfnsw = tfnsw
    }
}

/// VehiclePosition.CarriageDetails: one carriage of a multi-carriage vehicle.
public struct CarriageDetails: Sendable, Hashable {
    public var id: String?
    public var label: String?
    /// nil means NO_DATA_AVAILABLE.
    public var occupancyStatus: OccupancyStatus?
    /// nil means -1 (no data).
    public var occupancyPercentage: Int32?
    /// 1 for the first carriage in the direction of travel.
    public var carriageSequence: UInt32?

    public init(
        id: String? = nil, label: String? = nil, occupancyStatus: OccupancyStatus? = nil,
        occupancyPercentage: Int32? = nil, carriageSequence: UInt32? = nil
    ) {
        self.id = id
        self.label = label
        self.occupancyStatus = occupancyStatus
        self.occupancyPercentage = occupancyPercentage
        self.carriageSequence = carriageSequence
    }
}
