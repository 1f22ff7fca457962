import Foundation
import TransitClient
import TransitPresentation

/// The one-shot commands' output: stops, routes in A–Z sections, a trip, alerts, vehicles, health.
public struct ListRenderer: Sendable {
    public var mode: ColorMode

    public init(mode: ColorMode) { self.mode = mode }

    private func bold(_ text: String) -> String { TextStyle(bold: true).apply(text, mode: mode) }
    private func dim(_ text: String) -> String { TextStyle(dim: true).apply(text, mode: mode) }

    /// Name, id, mode (and distance for `nearby`), one stop a line.
    public func stops(_ stops: [Stop]) -> [String] {
        guard !stops.isEmpty else { return ["No stops."] }
        let nameWidth = min(44, max(stops.map(\.name.count).max() ?? 0, 4) + 2)
        let idWidth = max(stops.map(\.stopId.count).max() ?? 0, 2) + 2
        return stops.map { stop in
            var line = Columns.pad(stop.name, nameWidth) + Columns.pad(stop.stopId, idWidth) + (stop.mode ?? "-")
            if let distance = stop.distanceM { line = Columns.pad(line, nameWidth + idWidth + 8) + "\(distance) m" }
            return line.trimmingTrailingSpaces()
        }
    }

    /// A route's coloured badge and its long name.
    func routeLine(_ route: Route) -> String {
        let badge = " \(route.displayName) "
        let styled = TextStyle(
            foreground: RGB(hex: route.textColor) ?? RGB(0xFF, 0xFF, 0xFF),
            background: RGB(hex: route.color) ?? RGB(.gray),
            bold: true
        ).apply(badge, mode: mode)
        let padding = String(repeating: " ", count: max(1, 8 - badge.count))
        let long = route.longName.map { $0 == route.displayName ? "" : $0 } ?? ""
        return ("  " + styled + padding + Columns.pad(long, 48) + " " + (route.mode ?? "")).trimmingTrailingSpaces()
    }

    /// Routes grouped A–Z (`#` first), after the mode filter.
    public func routes(_ routes: [Route], filter: RouteModeFilter = .all) -> [String] {
        let sections = RouteSections.group(
            routes, filter: filter, mode: \.mode, section: { $0.section ?? RouteSections.key(for: $0.displayName) })
        guard !sections.isEmpty else { return ["No routes."] }
        var lines: [String] = []
        for section in sections {
            lines.append(bold(section.key))
            lines.append(contentsOf: section.routes.map(routeLine))
        }
        return lines
    }

    /// A stop with its station, platforms and routes.
    public func stop(_ details: StopDetails) -> [String] {
        let stop = details.stop
        let label = ModePresentation(mode: stop.mode).stopAccessibilityLabel
        var lines = [bold(stop.name) + "  " + stop.stopId, "\(stop.accessibilityLabel ?? label)"]
        if let parent = details.parent { lines.append("Station: \(parent.name) (\(parent.stopId))") }
        if stop.wheelchairBoarding == 1 { lines.append("Wheelchair accessible") }
        if !details.platforms.isEmpty {
            lines.append(bold("Platforms"))
            for platform in details.platforms {
                lines.append(
                    "  " + Columns.pad(platform.platformCode ?? "-", 6) + Columns.pad(platform.stopId, 12)
                        + platform.name)
            }
        }
        if !details.routes.isEmpty {
            lines.append(bold("Routes"))
            lines.append(contentsOf: details.routes.map(routeLine))
        }
        return lines
    }

    /// A trip: its route and headsign, then every stop with time, badge and platform.
    public func trip(_ trip: Trip, now: Int64) -> [String] {
        let clock = DepartureClock(timeZone: trip.timezone)
        var lines: [String] = []
        if let route = trip.route { lines.append(routeLine(route).trimmingCharacters(in: .whitespaces)) }
        let status = trip.status.flatMap(DepartureStatus.init(rawValue:))
        var title = "\(trip.headsign ?? trip.tripId)  \(trip.serviceDate ?? "") \(trip.startTime ?? "")"
        if status == .cancelled { title += "  CANCELLED" }
        lines.append(bold(title.trimmingTrailingSpaces()))
        if let vehicle = trip.vehicle {
            lines.append(
                dim(
                    "Vehicle \(vehicle.label ?? vehicle.vehicleId ?? "?") \(vehicle.currentStatus ?? "")"
                        .trimmingTrailingSpaces()))
        }
        for stop in trip.stops {
            let stopStatus = stop.status.flatMap(DepartureStatus.init(rawValue:))
            let struck = stopStatus == .cancelled || stopStatus == .skipped
            let time = stop.time.map(clock.time) ?? "--:--"
            var badgeText = ""
            var color = PresentationColor.gray
            if let badge = stop.delayBadge, let semantic = PresentationColor(rawValue: badge.color) {
                (badgeText, color) = (badge.text ?? "", semantic)
            } else if let stopStatus, let badge = DelayBadge(status: stopStatus, delay: stop.delayS) {
                (badgeText, color) = (badge.text, badge.color)
            } else if stopStatus == .skipped {
                (badgeText, color) = ("Skipped", .red)
            } else if stopStatus == .cancelled {
                (badgeText, color) = ("Cancelled", .red)
            }
            let name = TextStyle(dim: struck, strikethrough: struck).apply(
                Columns.pad(stop.stopName ?? stop.stopId, 40), mode: mode)
            let badge = TextStyle(foreground: RGB(color)).apply(Columns.pad(badgeText, 12), mode: mode)
            let platform = stop.platform.map { "Plat \($0)" } ?? ""
            lines.append(("  " + time + "  " + name + " " + badge + platform).trimmingTrailingSpaces())
        }
        return lines
    }

    /// A `plan` answer: each journey's summary line, then one line per leg, within 80 columns (a long reason or
    /// `live_dropped` wraps onto indented lines):
    ///
    ///     1. 08:00 → 08:25  25 min, 1 change
    ///        08:00  101   Bee           Alpha, now Plat 3                     2 min late
    ///        08:12                      → Bravo
    ///               walk 320 m, 5 min to Bravo B2
    ///        08:15  202   Sea           Bravo B2
    ///        08:25                      → Charlie
    public func plan(_ plan: Plan) -> [String] {
        let clock = DepartureClock(timeZone: plan.timezone)
        var lines: [String] = []
        if plan.journeys.isEmpty { lines += "No journey: \(plan.reason ?? "nothing connects")".wrapped(80) }
        let statuses = BoardRenderer(mode: mode, width: 80)  // a ride's status as a board says it
        for (n, journey) in plan.journeys.enumerated() {
            let minutes = Int((journey.arrivalUnix - journey.departureUnix + 59) / 60)
            let changes = journey.transfers == 1 ? "1 change" : "\(journey.transfers) changes"
            lines.append(
                bold(
                    "\(n + 1). \(clock.time(journey.departureUnix)) → \(clock.time(journey.arrivalUnix))  "
                        + "\(minutes) min, \(journey.transfers == 0 ? "direct" : changes)"))
            for leg in journey.legs {
                if leg.isWalk {
                    let metres = Int((leg.distanceM ?? 0).rounded())
                    let walkMinutes = ((leg.durationS ?? 0) + 59) / 60
                    let target = (leg.toStopName ?? leg.toStopId).map { " to \($0)" } ?? " to the destination"
                    lines.append(dim(("          walk \(metres) m, \(walkMinutes) min" + target).truncated(80)))
                    continue
                }
                let board = leg.board
                let departure = leg.departureUnix.map(clock.time) ?? "--:--"
                let arrival = leg.arrivalUnix.map(clock.time) ?? "--:--"
                let line = Columns.pad((board?.routeShortName ?? leg.addedTripId ?? "?").truncated(5), 5)
                let headsign = Columns.pad((board?.headsign ?? "").truncated(13), 13)
                // A live platform change is said after the (scheduled) stop's name, which is cut short for it.
                var moved = ""
                if board?.platformChanged == true, let platform = board?.platform { moved = ", now Plat \(platform)" }
                let from = (leg.boardStopName ?? board?.stopId ?? "?").truncated(36 - moved.count) + moved
                let to = (leg.alight?.stopName ?? leg.alight?.stopId ?? "?").truncated(34)
                // As a board says it: the delay badge, else the status in words ("Extra service" for an added trip).
                let styled =
                    board.map { statuses.statusCell($0, status: $0.status.flatMap(DepartureStatus.init)) } ?? ""
                lines.append(
                    ("   " + departure + "  " + line + " " + headsign + " " + Columns.pad(from, 36) + " " + styled)
                        .trimmingTrailingSpaces())
                lines.append(("   " + arrival + "  " + String(repeating: " ", count: 20) + "→ " + to))
            }
        }
        if !plan.liveDropped.isEmpty {
            lines += ("Not offered (live data): " + plan.liveDropped.joined(separator: "; ")).wrapped(80).map(dim)
        }
        if plan.cut == true { lines.append(dim("The search ran out of time; more journeys may exist.")) }
        if plan.realtimeStale == true { lines.append(dim("Planned on the schedule: no current live data.")) }
        return lines
    }

    /// What a plan subscription's event changed, a line each, for `transit plan --watch` (the event's journeys are
    /// drawn by `plan` below them, so the numbers are theirs; a broken or replaced journey's is the last list's):
    ///
    ///     Journey 1, ride 2 (T4): now 09:05 → 09:17, was 09:03 → 09:15
    ///     Journey 1, ride 1 (M1): now 20:05:40 → 20:21:40, was 20:05:00 → 20:21:00
    ///     Journey 2 of the last list is no longer possible: ride 2: trip U1 is cancelled
    public func planChanges(_ changes: [PlanChange], in plan: Plan) -> [String] {
        let clock = DepartureClock(timeZone: plan.timezone)
        return changes.flatMap { change -> [String] in
            let text: String
            switch change {
            case .times(let j, let l, let trip, let departure, let arrival, let wasDeparture, let wasArrival):
                let legs = plan.journeys.indices.contains(j) ? plan.journeys[j].legs : []
                let ride = legs.prefix(l + 1).filter { !$0.isWalk }.count
                let route = legs.indices.contains(l) ? legs[l].board?.routeShortName ?? trip : trip
                // Seconds when the minutes alone would say nothing moved.
                let minutes = [departure, arrival, wasDeparture, wasArrival].map(clock.time)
                let shown =
                    minutes[0] == minutes[2] && minutes[1] == minutes[3]
                    ? [departure, arrival, wasDeparture, wasArrival].map(clock.timeWithSeconds) : minutes
                text =
                    "Journey \(j + 1), ride \(ride) (\(route)): now \(shown[0]) → \(shown[1]), was \(shown[2]) → \(shown[3])"
            case .broken(let previous, let reason):
                text = "Journey \(previous + 1) of the last list is no longer possible: \(reason)"
            case .replaced(let previous):
                text = "Journey \(previous + 1) of the last list is no longer among the best"
            case .new(let j):
                text = "Journey \(j + 1) is new"
            case .other(let type):
                text = "A change this client does not know (\(type))"
            }
            return text.wrapped(80).map(bold)
        }
    }

    /// Alert banners with their description.
    public func alerts(_ alerts: [Alert]) -> [String] {
        guard !alerts.isEmpty else { return ["No alerts."] }
        let board = BoardRenderer(mode: mode, width: 100)
        var lines: [String] = []
        for alert in alerts {
            lines.append(board.banner(alert))
            if let description = alert.description, !description.isEmpty { lines.append("  " + description) }
            if let url = alert.url { lines.append("  " + url) }
        }
        return lines
    }

    /// Vehicles of a route: id and label, trip, where, how full.
    public func vehicles(_ vehicles: [Vehicle]) -> [String] {
        guard !vehicles.isEmpty else { return ["No vehicles."] }
        return vehicles.map { vehicle in
            let occupancy = OccupancyPresentation(status: vehicle.occupancyStatus)
            let carriages = vehicle.carriages.map {
                BoardRenderer.glyph(OccupancyPresentation(status: $0.occupancyStatus))
            }
            .joined()
            let position = vehicle.lat.flatMap { lat in vehicle.lon.map { String(format: "%.5f,%.5f", lat, $0) } } ?? ""
            return [
                Columns.pad(vehicle.label ?? vehicle.vehicleId ?? "?", 14), Columns.pad(vehicle.tripId ?? "", 22),
                Columns.pad(position, 22), Columns.pad(vehicle.currentStatus ?? "", 14),
                occupancy?.label ?? "", carriages.isEmpty ? "" : " " + carriages,
            ].joined().trimmingTrailingSpaces()
        }
    }

    /// The gateway's health in a few lines.
    public func health(_ health: Health) -> [String] {
        let color: PresentationColor = health.status == "ok" ? .green : health.status == "degraded" ? .orange : .red
        var lines = [TextStyle(foreground: RGB(color), bold: true).apply("Gateway: \(health.status)", mode: mode)]
        if let s = health.static {
            var line = "Static: \(s.status)"
            if let version = s.databaseVersion { line += "  database \(version)" }
            if let error = s.error { line += "  (\(error))" }
            lines.append(line)
            for feed in s.feeds {
                lines.append("  \(feed.name) \(feed.version ?? "") \(feed.startDate ?? "")–\(feed.endDate ?? "")")
            }
        }
        if let r = health.realtime {
            var line = "Realtime: \(r.status)"
            if let age = r.lastHeartbeatAgeS { line += "  heard \(age) s ago" }
            lines.append(line)
            for source in r.sources {
                var text = "  \(source.name) (\(source.kind ?? "?"))"
                if let age = source.ageS { text += " \(age) s old" }
                if source.stale == true { text += " stale" }
                if let error = source.lastError, (source.consecutiveErrors ?? 0) > 0 { text += " failing: \(error)" }
                lines.append(text)
            }
        }
        if let g = health.gateway {
            lines.append("Gateway \(g.version ?? "?"), up \(g.uptimeS ?? 0) s, \(g.connections ?? 0) connections")
        }
        return lines
    }
}

extension String {
    /// At most `width` characters, the last one an ellipsis when cut.
    fileprivate func truncated(_ width: Int) -> String {
        count <= width ? self : String(prefix(max(0, width - 1))) + "…"
    }

    /// Lines of at most `width` characters broken at spaces, each after the first indented by two; a word longer
    /// than a line is cut, not dropped.
    fileprivate func wrapped(_ width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in split(separator: " ") {
            var rest = Substring(word)
            while !rest.isEmpty {
                let start = line.isEmpty ? (lines.isEmpty ? "" : "  ") : line + " "
                if start.count + rest.count <= width {
                    line = start + rest
                    rest = ""
                } else if !line.isEmpty {
                    lines.append(line)
                    line = ""
                } else {
                    let room = width - start.count
                    lines.append(start + rest.prefix(room))
                    rest = rest.dropFirst(room)
                }
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
