/// The shared `mode` vocabulary (protocol/GATEWAY.md §4, `mode`): one string per GTFS route_type, basic or
/// extended.
public enum Mode: String, CaseIterable, Sendable, Codable {
    case train, metro, tram, ferry, bus, coach, cable, other

    /// Maps a GTFS route_type (base 0–12 or the extended 100–1700 range) to its mode.
    public init(routeType: Int) {
        switch routeType {
        case 2, 100...117: self = .train
        case 1, 12, 400...405: self = .metro
        case 3, 11, 700...716, 800: self = .bus
        case 200...209: self = .coach
        case 4, 1000...1099, 1200: self = .ferry
        case 0, 900...906: self = .tram
        case 5, 6, 7, 1300...1400: self = .cable
        default: self = .other
        }
    }

    /// Tie-break order when two modes are equally frequent: train 0, metro 1, tram 2, ferry 3, bus 4,
    /// coach 5, cable 6, other 7 (lower wins).
    public var rank: Int {
        switch self {
        case .train: 0
        case .metro: 1
        case .tram: 2
        case .ferry: 3
        case .bus: 4
        case .coach: 5
        case .cable: 6
        case .other: 7
        }
    }

    /// `1 << rank`: the bit of this mode in a set of modes stored as an integer (e.g. `stops.mode_mask`).
    public var bit: Int { 1 << rank }

    /// The modes whose bits are set in `mask`, in rank order.
    public static func modes(inMask mask: Int) -> [Mode] {
        allCases.filter { mask & $0.bit != 0 }
    }
}
