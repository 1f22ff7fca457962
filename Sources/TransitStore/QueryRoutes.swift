import TransitCore
import TransitModel

extension StaticStore {
    /// Every route (or those of one mode) in natural order of its short name (else long name), with its
    /// mode, `#RRGGBB` colours and A–Z section key.
    public func routes(mode: String? = nil) throws(StoreError) -> [Route] {
        let mode = try Self.parseMode(mode)
        var result: [Route] = []
        for pk in catalog.routeOrder {
            guard let route = catalog.routes[pk] else { continue }
            if let mode, route.mode != mode.rawValue { continue }
            result.append(route)
        }
        return result
    }
}
