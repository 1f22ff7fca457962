import GTFSRealtime
import RealtimeCore
import Testing
import TransitModel

@testable import RealtimeService

/// A resolved trip becomes the published `LiveTrip` as it is: the stops (with what their matched updates
/// carry besides times, set by the resolver) and the trip's headsign from trip_properties.
@Suite struct TripConversionTests {
    /// A NEW trip of two own stops, resolved as the service resolves it.
    private func live(_ update: TripUpdate) throws -> LiveTrip {
        var resolver = TripUpdateResolver(options: .init(timeZone: "UTC"))
        let resolution = resolver.resolve(update, schedules: TripScheduleIndex(), now: 1_766_394_000)
        guard case .resolved(let trip) = resolution else {
            Issue.record("not resolved: \(resolution)")
            throw CancellationError()
        }
        return TripConversion.liveTrip(trip, update: update, source: "tu", entityId: "e")
    }

    private func newTrip(_ stops: [StopTimeUpdate], headsign: String? = "Extra service") -> TripUpdate {
        TripUpdate(
            trip: TripDescriptor(
                tripId: "NEW.1", startTime: "20:05:00", startDate: "20251222", scheduleRelationship: .new),
            stopTimeUpdates: stops, tripProperties: TripProperties(tripHeadsign: headsign))
    }

    @Test func headsignsAndOccupancyComeFromTheUpdate() throws {
        let live = try live(
            newTrip([
                StopTimeUpdate(
                    stopSequence: 1, stopId: "a", departure: StopTimeEvent(time: 1_766_394_300),
                    departureOccupancyStatus: .fewSeatsAvailable,
                    stopTimeProperties: StopTimeProperties(stopHeadsign: "Via the city")),
                StopTimeUpdate(
                    stopSequence: 2, stopId: "b", arrival: StopTimeEvent(time: 1_766_394_900),
                    stopTimeProperties: StopTimeProperties(stopHeadsign: "")),
            ]))
        #expect(live.tripHeadsign == "Extra service")
        #expect(live.stops.map(\.stopHeadsign) == ["Via the city", nil])  // an empty one is none
        #expect(live.stops.map(\.departureOccupancy) == ["FEW_SEATS_AVAILABLE", nil])
    }

    /// Transport for NSW's per-carriage predicted occupancy lands on the stop of its own update (own stops: each
    /// update is its stop, even when two name the same stop_id); stops without any keep an empty list.
    @Test func carriagesComeFromTheUpdatesStop() throws {
        let live = try live(
            newTrip([
                StopTimeUpdate(stopSequence: 1, stopId: "b", departure: StopTimeEvent(time: 1_766_394_300)),
                StopTimeUpdate(
                    stopSequence: 2, stopId: "b", arrival: StopTimeEvent(time: 1_766_394_900),
                    departureOccupancyStatus: .manySeatsAvailable,
                    tfnswCarriages: [
                        TfnswCarriage(positionInConsist: 1, departureOccupancyStatus: .manySeatsAvailable),
                        TfnswCarriage(positionInConsist: 2, departureOccupancyStatus: .standingRoomOnly),
                    ]),
            ]))
        #expect(live.stops[0].carriages.isEmpty)
        #expect(
            live.stops[1].carriages == [
                LiveCarriage(position: 1, departureOccupancy: "MANY_SEATS_AVAILABLE"),
                LiveCarriage(position: 2, departureOccupancy: "STANDING_ROOM_ONLY"),
            ])
        #expect(live.stops[1].departureOccupancy == "MANY_SEATS_AVAILABLE")
        #expect(live.stops[0].departureOccupancy == nil)
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

    @Test func withoutPropertiesThereIsNoHeadsign() throws {
        let live = try live(
            newTrip(
                [StopTimeUpdate(stopSequence: 1, stopId: "a", departure: StopTimeEvent(time: 1_766_394_300))],
                headsign: ""))
        #expect(live.tripHeadsign == nil && live.stops.allSatisfy { $0.stopHeadsign == nil })
    }
}
