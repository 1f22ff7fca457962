import Foundation

/// The route list's filter chips: All, Train, Bus, Metro, Ferry, Tram (tram includes light rail).
public enum RouteModeFilter: String, Sendable, CaseIterable {
    case all, train, bus, metro, ferry, tram

    /// "All", "Train", …: the chip's title.
    public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// Whether a route of `mode` (the gateway's mode string) passes the filter.
    public func includes(mode: String?) -> Bool {
        self == .all || mode == rawValue
    }
}

/// One A–Z section of the route list: its key (a letter or `#`) and the routes under it, in list order.
public struct RouteSection<Route>: Sendable where Route: Sendable {
    /// An upper-case letter, or `#` for names starting with a digit or another non-letter.
    public var key: String
    /// The section's routes, in the order they were given.
    public var routes: [Route]

    public init(key: String, routes: [Route]) {
        self.key = key
        self.routes = routes
    }
}

/// The route list grouped into A–Z sections with `#` first.
public enum RouteSections {
    /// The A–Z index section of a name: its first letter uppercased with accents removed ("é" → "E"),
    /// "#" when it starts with a digit or anything else that is not a letter, or is empty.
    public static func key(for name: String) -> String {
        guard let first = name.trimmingCharacters(in: .whitespaces).first, first.isLetter else { return "#" }
        let folded = String(first).folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        return folded.uppercased()
    }

    /// Sections of `routes` after `filter`: `#` first, then the letters A–Z; routes keep their given order
    /// within a section (the gateway's natural order). `section` is the route's key when its answer has one
    /// (`route.section`), else computed with `key(for:)` from the name it is listed by; `mode` its mode.
    public static func group<Route: Sendable>(
        _ routes: [Route], filter: RouteModeFilter = .all, mode: (Route) -> String?,
        section: (Route) -> String
    ) -> [RouteSection<Route>] {
        var byKey: [String: [Route]] = [:]
        for route in routes where filter.includes(mode: mode(route)) {
            byKey[section(route), default: []].append(route)
        }
        return byKey.keys.sorted(by: sectionOrder).map { RouteSection(key: $0, routes: byKey[$0]!) }
    }

    /// `#` before every letter, letters in alphabetical order.
    public static func sectionOrder(_ a: String, _ b: String) -> Bool {
        if a == "#" || b == "#" { return a == "#" && b != "#" }
        return a < b
    }
}
