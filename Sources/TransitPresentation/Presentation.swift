// Presentation rules users see: mode icons and labels, departure status, delay badges, countdowns and alert
// banners (protocol/GATEWAY.md §7). One implementation, used by the gateway's JSON encoder and by the client
// library, so an app and `nc` never disagree about what "+2 min" means. Occupancy, departure times and the
// route list's A–Z sections are in the files beside this one.

/// Semantic colour names of badges and banners. Clients map them to their platform's adaptive colours.
public enum PresentationColor: String, Sendable, Hashable, CaseIterable {
    case green, gray, orange, red, yellow
}

/// Icon and accessibility label of a transport mode (`train`, `metro`, … or nil when unknown).
public struct ModePresentation: Sendable, Hashable {
    /// SF Symbol name.
    public var icon: String
    /// What VoiceOver says for a stop of this mode: "Train stop".
    public var stopAccessibilityLabel: String

    public init(mode: String?) {
        switch mode {
        case "train": self.init(icon: "train.side.front.car", label: "Train stop")
        case "metro": self.init(icon: "lightrail.fill", label: "Metro stop")
        case "tram": self.init(icon: "tram.fill", label: "Tram stop")
        case "ferry": self.init(icon: "ferry.fill", label: "Ferry stop")
        case "bus": self.init(icon: "bus.fill", label: "Bus stop")
        // SF Symbols has no coach; a coach is a bus to a rider.
        case "coach": self.init(icon: "bus.fill", label: "Coach stop")
        case "cable": self.init(icon: "mappin.circle.fill", label: "Cable car stop")
        default: self.init(icon: "mappin.circle.fill", label: "Stop")
        }
    }

    private init(icon: String, label: String) {
        self.icon = icon
        self.stopAccessibilityLabel = label
    }
}

/// Status of a departure or of a trip's stop. Raw values are the JSON strings.
public enum DepartureStatus: String, Sendable, Hashable, CaseIterable {
    case scheduled
    case early
    case onTime = "on_time"
    case late
    case veryLate = "very_late"
    case cancelled
    case skipped
    case added
    /// A stop a detour leaves out (GTFS-Realtime trip modifications): the trip does not call there.
    case detoured

    /// First match wins: cancelled, detoured, skipped, added, then by delay; no delay (no usable prediction)
    /// → scheduled.
    public init(
        delay: Int?, cancelled: Bool = false, skipped: Bool = false, added: Bool = false, detoured: Bool = false
    ) {
        if cancelled {
            self = .cancelled
        } else if detoured {
            self = .detoured
        } else if skipped {
            self = .skipped
        } else if added {
            self = .added
        } else if let delay {
            if delay < -60 {
                self = .early
            } else if delay <= 60 {
                self = .onTime
            } else if delay <= 300 {
                self = .late
            } else {
                self = .veryLate
            }
        } else {
            self = .scheduled
        }
    }

    /// The statuses that come from a delay and so carry a delay badge.
    public var isDelayStatus: Bool {
        switch self {
        case .early, .onTime, .late, .veryLate: return true
        case .scheduled, .cancelled, .skipped, .added, .detoured: return false
        }
    }
}

/// The coloured badge next to a departure: "+2 min" orange, "On time" gray, "2 min early" green.
public struct DelayBadge: Sendable, Hashable {
    public var text: String
    public var color: PresentationColor
    /// In words, never a colour: "2 minutes late".
    public var accessibilityLabel: String

    public init(text: String, color: PresentationColor, accessibilityLabel: String) {
        self.text = text
        self.color = color
        self.accessibilityLabel = accessibilityLabel
    }

    /// The badge of a delay in seconds; nil without a prediction.
    public init?(delay: Int?) {
        guard let delay else { return nil }
        let minutes = DelayBadge.roundedMinutes(delay)
        if delay < -60 {
            self.init(
                text: "\(minutes) min early", color: .green, accessibilityLabel: "\(DelayBadge.words(minutes)) early")
        } else if delay <= 60 {
            self.init(text: "On time", color: .gray, accessibilityLabel: "On time")
        } else {
            let color: PresentationColor = delay <= 300 ? .orange : .red
            self.init(text: "+\(minutes) min", color: color, accessibilityLabel: "\(DelayBadge.words(minutes)) late")
        }
    }

    /// The badge of a row: only rows whose status comes from a delay have one (not cancelled, skipped, added).
    public init?(status: DepartureStatus, delay: Int?) {
        guard status.isDelayStatus else { return nil }
        self.init(delay: delay)
    }

    /// |delay| in whole minutes, rounded to the nearest, halves up: 89 s → 1, 90 s → 2.
    public static func roundedMinutes(_ delay: Int) -> Int {
        // magnitude avoids overflow on Int.min; delays are far smaller in practice.
        Int((delay.magnitude + 30) / 60)
    }

    static func words(_ minutes: Int) -> String {
        minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }
}

/// Countdown from the request's `at` to a departure.
public enum Countdown {
    /// Whole minutes from `at` to `time` (unix seconds), truncated toward zero: 59 s → 0, −59 s → 0,
    /// −60 s → −1. Negative for departures in the past.
    public static func minutesUntil(_ time: Int64, from at: Int64) -> Int {
        Int((time - at) / 60)
    }

    /// "Now" for 0 (less than a minute either way), "N min" ahead, "N min ago" behind.
    public static func text(minutesUntil minutes: Int) -> String {
        if minutes == 0 { return "Now" }
        if minutes > 0 { return "\(minutes) min" }
        return "\(minutes.magnitude) min ago"
    }
}

/// Icon, colour and spoken label of an alert, by its GTFS-Realtime effect (enum name).
public struct AlertBanner: Sendable, Hashable {
    public var icon: String
    public var color: PresentationColor
    /// "Service disruption: Buses not stopping at Central".
    public var accessibilityLabel: String

    public init(effect: String, header: String?) {
        let style = AlertBanner.style(of: effect)
        icon = style.icon
        color = style.color
        if let header, !header.isEmpty {
            accessibilityLabel = "\(style.prefix): \(header)"
        } else {
            accessibilityLabel = style.prefix
        }
    }

    static func style(of effect: String) -> (icon: String, color: PresentationColor, prefix: String) {
        let warning = "exclamationmark.triangle.fill"
        let reroute = "arrow.triangle.turn.up.right.diamond.fill"
        switch effect {
        case "NO_SERVICE": return (warning, .red, "Service disruption")
        case "REDUCED_SERVICE": return (warning, .orange, "Reduced service")
        case "SIGNIFICANT_DELAYS": return ("clock.fill", .yellow, "Significant delays")
        case "DETOUR": return (reroute, .yellow, "Detour")
        case "STOP_MOVED": return (reroute, .yellow, "Stop moved")
        case "MODIFIED_SERVICE": return (reroute, .yellow, "Modified service")
        case "ADDITIONAL_SERVICE": return ("plus.circle.fill", .green, "Additional service")
        case "ACCESSIBILITY_ISSUE": return ("figure.roll", .orange, "Accessibility issue")
        default: return ("info.circle.fill", .gray, "Service information")
        }
    }
}
