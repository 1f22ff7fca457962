import TransitClient
import TransitPresentation

/// Draws a departure board as lines of text: pure, so the same board, time and mode give the same text
/// (golden-tested); the live screen and `--plain` both print it.
///
///     Central Station · 200060                                            20:00:00
///     ▲ Reduced service: Reduced service on every route of type 2 because of the weather
///     ROUTE  DESTINATION             DEPARTS IN       STATUS       PLAT  SEATS
///      M1    Sydenham                20:03   3 min                 26      ♿
///      T1    Penrith                 20:16   16 min   +2 min       17    ▃ Few seats  ♿
public struct BoardRenderer: Sendable {
    public var mode: ColorMode
    /// Terminal columns; the destination column takes what the others leave.
    public var width: Int

    public init(mode: ColorMode, width: Int = 80) {
        self.mode = mode
        self.width = max(width, 60)
    }

    /// What the board shows besides the rows.
    public struct Context: Sendable {
        /// The stop's name for the title (else its id).
        public var stopName: String?
        /// Now on the services' clock (unix seconds): countdowns count from it, the title shows it.
        public var now: Int64
        /// The stop's active alerts, shown as banners above the rows.
        public var alerts: [Alert]
        /// `meta` of the board's answer: a line under the rows says when it is schedule only or stale.
        public var meta: AnswerMeta?
        /// A line at the bottom (live mode: keys, connection state); nil for none.
        public var footer: String?

        public init(
            stopName: String? = nil, now: Int64, alerts: [Alert] = [], meta: AnswerMeta? = nil, footer: String? = nil
        ) {
            self.stopName = stopName
            self.now = now
            self.alerts = alerts
            self.meta = meta
            self.footer = footer
        }
    }

    static let routeWidth = 6, timeWidth = 8, countdownWidth = 9, statusWidth = 13, platformWidth = 6
    /// "▅ Standing room only" and "  ♿" (a wide character: two columns).
    static let seatsWidth = 25
    /// The occupancy glyph and "  ♿" alone, on a narrow terminal.
    static let compactSeatsWidth = 5
    /// The destination gets at least this much (the renderer is never narrower than 60 columns).
    static let destinationMinimum = 12

    /// Whether the occupancy shows its words: only where the destination keeps 20 columns beside them (at 100
    /// columns it does; at 80 and 60 the occupancy is its glyph alone, so no row runs past the width).
    var fullSeats: Bool {
        width
            - (Self.routeWidth + 1 + Self.timeWidth + Self.countdownWidth + Self.statusWidth + Self.platformWidth
                + Self.seatsWidth) >= 20
    }

    public func render(_ board: Board, _ context: Context) -> [String] {
        let clock = DepartureClock(timeZone: board.timezone)
        var lines: [String] = []
        let title = "\(context.stopName ?? board.stopId) · \(board.stopId)"
        let time = clock.timeWithSeconds(context.now)
        let titleWidth = width - time.count - 1
        lines.append(
            TextStyle(bold: true).apply(Columns.pad(title, titleWidth), mode: mode) + " " + time)
        for alert in context.alerts {
            lines.append(banner(alert))
        }
        let destinationWidth = destinationColumn
        let header =
            Columns.pad("ROUTE", Self.routeWidth + 1) + Columns.pad("DESTINATION", destinationWidth)
            + Columns.pad("DEPARTS", Self.timeWidth) + Columns.pad("IN", Self.countdownWidth)
            + Columns.pad("STATUS", Self.statusWidth) + Columns.pad("PLAT", Self.platformWidth)
            + (fullSeats ? "SEATS" : "")
        lines.append(TextStyle(dim: true).apply(header, mode: mode))
        if board.departures.isEmpty {
            lines.append("No departures.")
        }
        for row in board.departures {
            lines.append(render(row, clock: clock, now: context.now, destinationWidth: destinationWidth))
        }
        if let note = sourceNote(context.meta) {
            lines.append(TextStyle(foreground: RGB(.gray)).apply(note, mode: mode))
        }
        if let footer = context.footer {
            lines.append(TextStyle(dim: true).apply(footer, mode: mode))
        }
        return lines
    }

    var destinationColumn: Int {
        let seats = fullSeats ? Self.seatsWidth : Self.compactSeatsWidth
        return max(
            Self.destinationMinimum,
            width
                - (Self.routeWidth + 1 + Self.timeWidth + Self.countdownWidth + Self.statusWidth + Self.platformWidth
                    + seats))
    }

    func render(_ row: Departure, clock: DepartureClock, now: Int64, destinationWidth: Int) -> String {
        let status = row.status.flatMap(DepartureStatus.init(rawValue:))
        let cancelled = status == .cancelled || status == .skipped
        let name = row.routeShortName ?? row.routeLongName ?? row.routeId
        let routeColor = RGB(hex: row.routeColor) ?? RGB(.gray)
        let routeText = RGB(hex: row.routeTextColor) ?? RGB(0xFF, 0xFF, 0xFF)
        let badge = " \(name.prefix(Self.routeWidth - 2)) "
        var line = TextStyle(foreground: routeText, background: routeColor, bold: true).apply(badge, mode: mode)
        line += String(repeating: " ", count: Self.routeWidth + 1 - badge.count)

        let rowStyle = TextStyle(dim: cancelled, strikethrough: cancelled)
        // One column always stays blank before the time, so a long destination never runs into it.
        let headsign = Columns.pad(row.headsign ?? name, destinationWidth - 1) + " "
        line += rowStyle.apply(headsign, mode: mode)
        let departs = row.time.map(clock.time) ?? "--:--"
        line += rowStyle.apply(Columns.pad(departs, Self.timeWidth), mode: mode)
        let countdown: String
        if let time = row.time {
            countdown = clock.countdown(to: time, now: now).text
        } else {
            countdown = row.countdownText ?? ""
        }
        line += rowStyle.apply(Columns.pad(cancelled ? "" : countdown, Self.countdownWidth), mode: mode)
        line += statusCell(row, status: status)
        let platform = (row.platform ?? "") + (row.platformChanged == true ? "*" : "")
        line += Columns.pad(platform, Self.platformWidth)
        line += occupancyCell(row, compact: !fullSeats)
        if row.wheelchairAccessible == 1 { line += "  ♿" }
        return line.trimmingTrailingSpaces()
    }

    /// The delay badge (the gateway's, else computed from the delay), or the status in words.
    func statusCell(_ row: Departure, status: DepartureStatus?) -> String {
        let text: String
        let color: PresentationColor
        if let badge = row.delayBadge, let semantic = PresentationColor(rawValue: badge.color) {
            text = badge.text ?? ""
            color = semantic
        } else if let status, let badge = DelayBadge(status: status, delay: row.delayS) {
            text = badge.text
            color = badge.color
        } else {
            switch status {
            case .cancelled: (text, color) = ("Cancelled", .red)
            case .skipped: (text, color) = ("Skipped", .red)
            case .added: (text, color) = ("Extra service", .green)
            default: (text, color) = ("", .gray)
            }
        }
        guard !text.isEmpty else { return String(repeating: " ", count: Self.statusWidth) }
        let cell = Columns.pad(text, Self.statusWidth - 1)
        return TextStyle(foreground: RGB(color), bold: color != .gray).apply(cell, mode: mode) + " "
    }

    /// The carriages as a bar (one glyph per carriage, its height how full) where sent, else the trip's
    /// occupancy as a glyph and its label.
    func occupancyCell(_ row: Departure, compact: Bool = false) -> String {
        let carriages = row.carriages.sorted { ($0.position ?? 0) < ($1.position ?? 0) }
        if compact, !carriages.isEmpty {
            // One glyph: the fullest carriage's.
            let fullest = carriages.compactMap { OccupancyPresentation(status: $0.occupancyStatus) }
                .max { $0.level < $1.level }
            return TextStyle(foreground: occupancyColor(fullest)).apply(Self.glyph(fullest), mode: mode)
        }
        if !carriages.isEmpty {
            return carriages.map { carriage in
                let occupancy = OccupancyPresentation(status: carriage.occupancyStatus)
                return TextStyle(foreground: occupancyColor(occupancy)).apply(Self.glyph(occupancy), mode: mode)
            }.joined()
        }
        guard let occupancy = OccupancyPresentation(status: row.occupancyStatus) else { return "" }
        return TextStyle(foreground: occupancyColor(occupancy)).apply(
            Self.glyph(occupancy) + (compact ? "" : " " + occupancy.label), mode: mode)
    }

    static func glyph(_ occupancy: OccupancyPresentation?) -> String {
        switch occupancy?.level {
        case 1: "▁"
        case 2: "▃"
        case 3: "▅"
        case 4: "▇"
        case 5: "✕"
        default: "·"
        }
    }

    func occupancyColor(_ occupancy: OccupancyPresentation?) -> RGB {
        switch occupancy?.level {
        case 1, 2: RGB(.green)
        case 3: RGB(.orange)
        case 4, 5: RGB(.red)
        default: RGB(.gray)
        }
    }

    /// "▲ Reduced service: …" in the banner's colour (the gateway's, else by effect).
    func banner(_ alert: Alert) -> String {
        let computed = AlertBanner(effect: alert.effect ?? "UNKNOWN_EFFECT", header: alert.header)
        let color = alert.banner.flatMap { PresentationColor(rawValue: $0.color) } ?? computed.color
        let label = alert.banner?.accessibilityLabel ?? computed.accessibilityLabel
        let text = Columns.pad("▲ " + label, width)
        return TextStyle(foreground: RGB(color), bold: true).apply(text.trimmingTrailingSpaces(), mode: mode)
    }

    /// The live screen's footer word for a board that came by subscription or poll: `live` only while the
    /// answer is; a board of schedule times (static only, or live data left out as stale) says so, so a
    /// rider never reads timetable times under "live".
    public static func liveState(_ meta: AnswerMeta?) -> String {
        switch (meta?.source, meta?.stale) {
        case ("static_only", _): return "timetable only"
        case (_, true): return "live data out of date"
        default: return "live"
        }
    }

    func sourceNote(_ meta: AnswerMeta?) -> String? {
        guard let meta else { return nil }
        switch (meta.source, meta.stale) {
        case ("static_only", true): return "Timetable only: the live data is out of date."
        case ("static_only", _): return "Timetable only: no live data."
        case ("rt_only", _): return "Live data only: the timetable could not be reached."
        case (_, true): return "Some live data is out of date."
        default: return nil
        }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
