import GTFSRealtime
import RealtimeCore
import Testing
import TransitModel

@testable import RealtimeService

/// What a resolved trip takes from its update beyond the resolution: per-stop occupancy and headsigns.
@Suite struct TripConversionTests {
    private func resolved() -> ResolvedTrip {
        ResolvedTrip(
            key: TripInstanceKey(tripId: "NEW.1", serviceDate: 20_251_222, startSecs: 72_300), relationship: .new,
            staticTripId: nil, routeId: "R", directionId: 0, vehicleId: nil, vehicleLabel: nil, timestamp: nil,
            tripDelay: nil,
            stops: [
                ResolvedStop(
                    stopId: "a", stopSequence: 1, scheduledArrival: nil, scheduledDeparture: nil,
                    predictedDeparture: 100, status: .scheduled),
                ResolvedStop(
                    stopId: "b", stopSequence: 2, scheduledArrival: nil, scheduledDeparture: nil, predictedArrival: 200,
                    status: .scheduled),
            ])
    }

    @Test func headsignsAndOccupancyComeFromTheUpdate() {
        let update = TripUpdate(
            trip: TripDescriptor(tripId: "NEW.1", scheduleRelationship: .new),
            stopTimeUpdates: [
                StopTimeUpdate(
                    stopSequence: 1, stopId: "a", departureOccupancyStatus: .fewSeatsAvailable,
                    stopTimeProperties: StopTimeProperties(stopHeadsign: "Via the city")),
                StopTimeUpdate(stopSequence: 2, stopId: "b", stopTimeProperties: StopTimeProperties(stopHeadsign: "")),
            ],
            tripProperties: TripProperties(tripHeadsign: "Extra service"))
        let live = TripConversion.liveTrip(resolved(), update: update, source: "tu", entityId: "e")
        #expect(live.tripHeadsign == "Extra service")
        #expect(live.stops.map(\.stopHeadsign) == ["Via the city", nil])  // an empty one is none
        #expect(live.stops.map(\.departureOccupancy) == ["FEW_SEATS_AVAILABLE", nil])
    }

    /// Transport for NSW's per-carriage predicted occupancy lands on the stop its update names (by stop_id when
    /// the update has no stop_sequence, as Sydney Trains sends them); stops without any keep an empty list.
    @Test func carriagesComeFromTheUpdatesStop() {
        let update = TripUpdate(
            trip: TripDescriptor(tripId: "NEW.1", scheduleRelationship: .new),
            stopTimeUpdates: [
                StopTimeUpdate(
                    stopId: "b", departureOccupancyStatus: .manySeatsAvailable,
                    tfnswCarriages: [
                        TfnswCarriage(positionInConsist: 1, departureOccupancyStatus: .manySeatsAvailable),
                        TfnswCarriage(positionInConsist: 2, departureOccupancyStatus: .standingRoomOnly),
                    ])
            ])
        let live = TripConversion.liveTrip(resolved(), update: update, source: "tu", entityId: "e")
        #expect(live.stops[0].carriages.isEmpty)
        #expect(
            live.stops[1].carriages == [
                LiveCarriage(position: 1, departureOccupancy: "MANY_SEATS_AVAILABLE"),
                LiveCarriage(position: 2, departureOccupancy: "STANDING_ROOM_ONLY"),
            ])
        #expect(live.stops[1].departureOccupancy == "MANY_SEATS_AVAILABLE")
    }

    /// A vehicle's consist and descriptor (TfNSW), else the official multi_carriage_details.
    @Test func vehicleCarriagesAndFeatures() {
        let settings = SourceSettings(name: "vp", timeZone: "UTC")
        let tfnsw = VehiclePosition(
            vehicle: VehicleDescriptor(
                id: "A1",
                tfnsw: TfnswVehicleDescriptor(
                    airConditioned: true, wheelchairAccessible: 1, vehicleModel: "A", performingPriorTrip: false)),
            multiCarriageDetails: [CarriageDetails(label: "ignored", carriageSequence: 9)],
            tfnswCarriages: [
                TfnswCarriage(
                    name: "D6123", positionInConsist: 1, occupancyStatus: .fewSeatsAvailable, quietCarriage: false,
                    toilet: .accessible, luggageRack: true),
                TfnswCarriage(name: "N5123", positionInConsist: 2),
            ])
        let live = VehicleConversion.liveVehicle(tfnsw, entityId: "e", settings: settings, trip: nil)
        #expect(
            live.carriages == [
                LiveCarriage(
                    position: 1, name: "D6123", occupancy: "FEW_SEATS_AVAILABLE", quiet: false, toilet: "ACCESSIBLE",
                    luggageRack: true),
                LiveCarriage(position: 2, name: "N5123"),
            ])
        #expect(
            live.features
                == LiveVehicleFeatures(
                    airConditioned: true, wheelchairAccessible: true, model: "A",
                    performingPriorTrip: false))

        let official = VehiclePosition(
            vehicle: VehicleDescriptor(id: "B2"),
            multiCarriageDetails: [CarriageDetails(label: "car 1", occupancyStatus: .empty, carriageSequence: 1)])
        let other = VehicleConversion.liveVehicle(official, entityId: "f", settings: settings, trip: nil)
        #expect(other.carriages == [LiveCarriage(position: 1, name: "car 1", occupancy: "EMPTY")])
        #expect(other.features == nil)
        #expect(
            VehicleConversion.liveVehicle(VehiclePosition(), entityId: "g", settings: settings, trip: nil).carriages
                .isEmpty)
    }

    @Test func withoutPropertiesThereIsNoHeadsign() {
        let update = TripUpdate(
            trip: TripDescriptor(tripId: "NEW.1", scheduleRelationship: .new),
            tripProperties: TripProperties(tripHeadsign: ""))
        let live = TripConversion.liveTrip(resolved(), update: update, source: "tu", entityId: "e")
        #expect(live.tripHeadsign == nil && live.stops.allSatisfy { $0.stopHeadsign == nil })
    }
}
