// LiveStop keeps its rarely set fields (platform change, occupancy, stop headsign, carriages) in one shared box
// that is nil for the common stop: they must read, write, compare, hash and cross the wire as stored fields do.
import Testing
import TransitModel
import TransitProto

@Suite struct LiveStopTests {
    static let carriages = [LiveCarriage(position: 1, departureOccupancy: "FULL"), LiveCarriage(position: 2)]

    /// A stop with one rare field set by `set`, and what reading that field must give.
    struct RareCase: Sendable, CustomTestStringConvertible {
        var name: String
        var set: @Sendable (inout LiveStop) -> Void
        var read: @Sendable (LiveStop) -> String

        var testDescription: String { name }
    }

    static let rareCases: [RareCase] = [
        RareCase(name: "assignedStopId", set: { $0.assignedStopId = "S1b" }, read: { "\($0.assignedStopId as Any)" }),
        RareCase(
            name: "assignedPlatform", set: { $0.assignedPlatform = "2" }, read: { "\($0.assignedPlatform as Any)" }),
        RareCase(
            name: "departureOccupancy", set: { $0.departureOccupancy = "FULL" },
            read: { "\($0.departureOccupancy as Any)" }),
        RareCase(name: "stopHeadsign", set: { $0.stopHeadsign = "Via X" }, read: { "\($0.stopHeadsign as Any)" }),
        RareCase(name: "carriages", set: { $0.carriages = LiveStopTests.carriages }, read: { "\($0.carriages)" }),
    ]

    static func plain() -> LiveStop {
        LiveStop(
            stopId: "S1", stopSequence: 3, scheduledArrival: 1000, scheduledDeparture: 1060, predictedArrival: 1090,
            predictedDeparture: 1150, arrivalDelay: 90, departureDelay: 90, status: .predicted)
    }

    @Test func aStopWithoutRareFieldsReadsThemAsUnset() {
        let stop = Self.plain()
        #expect(stop.assignedStopId == nil && stop.assignedPlatform == nil)
        #expect(stop.departureOccupancy == nil && stop.stopHeadsign == nil && stop.carriages.isEmpty)
    }

    @Test(arguments: rareCases)
    func eachRareFieldReadsBackAndLeavesTheOthersUnset(_ c: RareCase) {
        var stop = Self.plain()
        let unset = c.read(stop)
        c.set(&stop)
        #expect(c.read(stop) != unset)
        // Only that field changed.
        var others = 0
        for other in Self.rareCases where other.name != c.name && other.read(stop) != other.read(Self.plain()) {
            others += 1
        }
        #expect(others == 0)
        #expect(stop.stopId == "S1" && stop.predictedDeparture == 1150 && stop.status == .predicted)
        #expect(stop != Self.plain())
    }

    @Test(arguments: rareCases)
    func aCopyIsNotChangedThroughTheOriginal(_ c: RareCase) {
        var original = Self.plain()
        original.stopHeadsign = "Shared"
        let copy = original
        c.set(&original)
        original.stopHeadsign = "Changed"
        #expect(copy.stopHeadsign == "Shared")
        #expect(
            c.read(copy)
                == c.read(
                    {
                        var s = Self.plain(); s.stopHeadsign = "Shared"; return s
                    }()))
    }

    @Test func equalFieldsInTwoBoxesAreEqualAndHashAlike() {
        var a = Self.plain()
        var b = Self.plain()
        for c in Self.rareCases {
            c.set(&a)
            c.set(&b)
        }
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        b.carriages[1].departureOccupancy = "EMPTY"
        #expect(a != b)
        #expect(Set([a, b]).count == 2)
    }

    @Test func clearingEveryRareFieldGivesBackThePlainStop() {
        var stop = Self.plain()
        for c in Self.rareCases { c.set(&stop) }
        stop.assignedStopId = nil
        stop.assignedPlatform = nil
        stop.departureOccupancy = nil
        stop.stopHeadsign = nil
        #expect(stop != Self.plain())  // carriages still set
        stop.carriages = []
        #expect(stop == Self.plain())
        #expect(stop.hashValue == Self.plain().hashValue)
    }

    @Test func theInitializerSetsTheSameFieldsAsTheSetters() {
        var set = Self.plain()
        set.assignedStopId = "S1b"
        set.departureOccupancy = "FULL"
        set.stopHeadsign = "Via X"
        set.carriages = Self.carriages
        let initialized = LiveStop(
            stopId: "S1", stopSequence: 3, assignedStopId: "S1b", scheduledArrival: 1000, scheduledDeparture: 1060,
            predictedArrival: 1090, predictedDeparture: 1150, arrivalDelay: 90, departureDelay: 90,
            status: .predicted, departureOccupancy: "FULL", stopHeadsign: "Via X", carriages: Self.carriages)
        #expect(initialized == set)
        // Given as nil or empty, the initializer makes the plain stop.
        let empty = LiveStop(
            stopId: "S1", stopSequence: 3, assignedStopId: nil, scheduledArrival: 1000, scheduledDeparture: 1060,
            predictedArrival: 1090, predictedDeparture: 1150, arrivalDelay: 90, departureDelay: 90,
            status: .predicted, departureOccupancy: nil, stopHeadsign: nil, carriages: [])
        #expect(empty == Self.plain())
    }

    /// Each rare field alone, and none, crosses the `tu` wire and comes back equal.
    @Test(arguments: [nil] + rareCases.map(Optional.some))
    func roundTripsOnTheWire(_ c: RareCase?) throws {
        var stop = Self.plain()
        c?.set(&stop)
        let trip = LiveTrip(
            instance: TripInstanceKey(tripId: "T", serviceDate: 20_250_101), relationship: .scheduled,
            stops: [stop, Self.plain()], source: "s")
        let message = PubMessage(
            epoch: 1, seq: 1, sentUnixMs: 0, payload: .tripUpdates(LiveTripBatch(trips: [trip], removed: [])))
        // Both writers: the two-thread wire writer of big batches and protobuf-c.
        #expect(try RealtimeCodec.decodeFramed(RealtimeCodec.encodeFramed(message)) == message)
        #expect(try RealtimeCodec.decodeFramed(RealtimeCodec.encodeFramedWithProtobufC(message)) == message)
    }
}
