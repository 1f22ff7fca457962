import Testing
import TransitCore

@Suite struct ModeTests {
    @Test(arguments: [
        (2, Mode.train), (100, .train), (109, .train), (117, .train),
        (1, .metro), (12, .metro), (400, .metro), (401, .metro), (405, .metro),
        (3, .bus), (11, .bus), (700, .bus), (712, .bus), (714, .bus), (716, .bus), (800, .bus),
        (200, .coach), (209, .coach),
        (4, .ferry), (1000, .ferry), (1099, .ferry), (1200, .ferry),
        (0, .tram), (900, .tram), (906, .tram),
        (5, .cable), (6, .cable), (7, .cable), (1300, .cable), (1400, .cable),
    ])
    func mapsRouteTypes(routeType: Int, mode: Mode) {
        #expect(Mode(routeType: routeType) == mode)
    }

    @Test(arguments: [8, 9, 10, 13, 99, 118, 199, 210, 406, 717, 801, 907, 1100, 1199, 1201, 1299, 1401, 1700, -1])
    func otherTypesAreOther(routeType: Int) {
        #expect(Mode(routeType: routeType) == .other)
    }

    @Test func rankOrdersTies() {
        let ordered: [Mode] = [.train, .metro, .tram, .ferry, .bus, .coach, .cable, .other]
        #expect(ordered.map(\.rank) == Array(0..<8))
        #expect(Mode.allCases.sorted { $0.rank < $1.rank } == ordered)
    }

    @Test func maskRoundTrips() {
        let mask = Mode.bus.bit | Mode.train.bit | Mode.ferry.bit
        #expect(Mode.modes(inMask: mask) == [.train, .ferry, .bus])
        #expect(Mode.modes(inMask: 0).isEmpty)
    }

    @Test func rawValuesAreTheSharedStrings() {
        #expect(Mode.allCases.map(\.rawValue) == ["train", "metro", "tram", "ferry", "bus", "coach", "cable", "other"])
    }
}
