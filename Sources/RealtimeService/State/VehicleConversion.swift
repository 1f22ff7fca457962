import GTFSRealtime
import TransitModel

enum VehicleConversion {
    /// The Live value of a vehicle position (`trip` is its resolved instance, when known). Trip and route ids
    /// get the source's prefix; stop ids do not.
    static func liveVehicle(
        _ v: VehiclePosition, entityId: String, settings: SourceSettings, trip: TripInstanceKey?
    ) -> LiveVehicle {
        let prefix = settings.idPrefix
        return LiveVehicle(
            key: settings.name + "/" + entityId, source: settings.name, entityId: entityId, trip: trip,
            tripId: v.trip?.tripId.map { prefix + $0 }, routeId: v.trip?.routeId.map { prefix + $0 },
            directionId: v.trip?.directionId.map { Int($0) }, startTime: v.trip?.startTime,
            startDate: v.trip?.startDate, tripRelationship: v.trip?.scheduleRelationship?.name,
            vehicleId: v.vehicle?.id, label: v.vehicle?.label, licensePlate: v.vehicle?.licensePlate,
            position: v.position.map {
                LivePosition(
                    lat: Double($0.latitude), lon: Double($0.longitude), bearing: $0.bearing, speed: $0.speed,
                    odometer: $0.odometer)
            },
            currentStopSequence: v.currentStopSequence, stopId: v.stopId, currentStatus: v.currentStatus?.name,
            timestamp: v.timestamp, congestionLevel: v.congestionLevel?.name, occupancyStatus: v.occupancyStatus?.name,
            occupancyPercentage: v.occupancyPercentage, wheelchairAccessible: v.vehicle?.wheelchairAccessible?.name,
            carriages: v.tfnswCarriages.isEmpty
                ? v.multiCarriageDetails.map(LiveCarriage.init) : v.tfnswCarriages.map(LiveCarriage.init),
            features: v.vehicle?.tfnsw.map(LiveVehicleFeatures.init))
    }
}

extension LiveVehicleFeatures {
    /// Transport for NSW's vehicle descriptor; its wheelchair_accessible number read as a flag (non-zero: true).
    init(_ d: TfnswVehicleDescriptor) {
        self.init(
            airConditioned: d.airConditioned, wheelchairAccessible: d.wheelchairAccessible.map { $0 != 0 },
            model: d.vehicleModel, performingPriorTrip: d.performingPriorTrip,
            specialAttributes: d.specialVehicleAttributes)
    }
}
