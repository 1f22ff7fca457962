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
            tripDelay: nil, stops: [
                ResolvedStop(stopId: "a", stopSequence: 1, scheduledArrival: nil, scheduledDeparture: nil, predictedDeparture: 100, status: .scheduled),
                ResolvedStop(stopId: "b", stopSequence: 2, scheduledArrival: nil, scheduledDeparture: nil, predictedArrival: 200, status: .scheduled),
            ])
    }

    @Test func headsignsAndOccupancyComeFromTheUpdate() {
        let update = TripUpdate(
            trip: TripDescriptor(tripId: "NEW.1", scheduleRelationship: .new),
            stopTimeUpdates: [
                StopTimeUpdate(stopSequence: 1, stopId: "a", departureOccupancyStatus: .fewSeatsAvailable,
                               stopTimeProperties: StopTimeProperties(stopHeadsign: "Via the city")),
                StopTimeUpdate(stopSequence: 2, stopId: "b", stopTimeProperties: StopTimeProperties(stopHeadsign: "")),
            ],
            tripProperties: TripProperties(tripHeadsign: "Extra service"))
        let live = TripConversion.liveTrip(resolved(), update: update, source: "tu", entityId: "e")
        #expect(live.tripHeadsign == "Extra service")
        #expect(live.stops.map(\.stopHeadsign) == ["Via the city", nil])  // an empty one is none
        #expect(live.stops.map(\.departureOccupancy) == ["FEW_SEATS_AVAILABLE", nil])
    }

    @Test func withoutPropertiesThereIsNoHeadsign() {
        let update = TripUpdate(trip: TripDescriptor(tripId: "NEW.1", scheduleRelationship: .new), tripProperties: TripProperties(tripHeadsign: ""))
        let live = TripConversion.liveTrip(resolved(), update: update, source: "tu", entityId: "e")
        #expect(live.tripHeadsign == nil && live.stops.allSatisfy { $0.stopHeadsign == nil })
    }
}
