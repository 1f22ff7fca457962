import TransitCore
import TransitModel

extension StaticStore {
    /// Every route (or those of one mode) in natural order of its short name (else long name), with its
    /// mode, `#RRGGBB` colours and A–Z section key.
    public func routes(mode: String? = nil) throws(StoreError) -> [Route] {
        guard let mode = try Self.parseMode(mode) else { return catalog.routeList }
        return catalog.routeListByMode[mode.rawValue] ?? []
    }
}
