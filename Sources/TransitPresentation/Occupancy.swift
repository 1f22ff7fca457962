/// Icon and label of a GTFS-Realtime occupancy status (enum name), for a trip or one carriage.
public struct OccupancyPresentation: Sendable, Hashable {
    /// SF Symbol name.
    public var icon: String
    /// What a rider reads and VoiceOver says: "Few seats".
    public var label: String
    /// How full, 1 (many seats) to 4 (full), 5 for not boarding: the height of a carriage's bar.
    public var level: Int

    /// nil for `NO_DATA_AVAILABLE`, null and names this protocol does not know: nothing is shown.
    public init?(status: String?) {
        switch status {
        case "EMPTY", "MANY_SEATS_AVAILABLE": self.init(icon: "person", label: "Many seats", level: 1)
        case "FEW_SEATS_AVAILABLE": self.init(icon: "person.2", label: "Few seats", level: 2)
        case "STANDING_ROOM_ONLY": self.init(icon: "person.3", label: "Standing room only", level: 3)
        case "CRUSHED_STANDING_ROOM_ONLY", "FULL": self.init(icon: "person.3.fill", label: "Full", level: 4)
        case "NOT_ACCEPTING_PASSENGERS", "NOT_BOARDABLE":
            self.init(icon: "xmark.circle", label: "Not boarding", level: 5)
        default: return nil
        }
    }

    private init(icon: String, label: String, level: Int) {
        self.icon = icon
        self.label = label
        self.level = level
    }
}
