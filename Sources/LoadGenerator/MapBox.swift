import Foundation

/// The bounding box of one map view for `stops_in_bbox`, with the mode filter a rider may have set.
public struct MapBox: Sendable, Equatable {
    public var minLat: Double
    public var minLon: Double
    public var maxLat: Double
    public var maxLon: Double
    public var mode: String?

    public init(minLat: Double, minLon: Double, maxLat: Double, maxLon: Double, mode: String? = nil) {
        self.minLat = minLat
        self.minLon = minLon
        self.maxLat = maxLat
        self.maxLon = maxLon
        self.mode = mode
    }

    /// What a phone shows at web-map zoom 15 in portrait (390 × 750 points of map, 256-point tiles): 0.0167° of
    /// longitude by 750/390 of that times cos(latitude) of latitude (≈ 1.5 km × 3 km in Sydney), centred on the
    /// point. Rounded to 1e-5° (a metre) to keep request lines short.
    public static func phoneView(centredOn lat: Double, _ lon: Double, mode: String? = nil) -> MapBox {
        let degreesPerPoint = 360.0 / (256.0 * 32768.0)
        let halfLon = 390.0 * degreesPerPoint / 2
        let halfLat = 750.0 * degreesPerPoint * cos(lat * .pi / 180) / 2
        func r(_ v: Double) -> Double { (v * 1e5).rounded() / 1e5 }
        return MapBox(
            minLat: r(lat - halfLat), minLon: r(lon - halfLon), maxLat: r(lat + halfLat), maxLon: r(lon + halfLon),
            mode: mode)
    }

    /// Whether the point lies in the box grown by `margin` degrees on every side.
    public func contains(lat: Double, lon: Double, margin: Double = 0) -> Bool {
        lat >= minLat - margin && lat <= maxLat + margin && lon >= minLon - margin && lon <= maxLon + margin
    }

    /// The request's fields after `"op":"stops_in_bbox"` (without `limit`).
    var requestFields: String {
        var s = ",\"min_lat\":\(minLat),\"min_lon\":\(minLon),\"max_lat\":\(maxLat),\"max_lon\":\(maxLon)"
        if let mode { s += ",\"mode\":\(LineWorkload.quoted(mode))" }
        return s
    }

    /// An ids file line's fields: `MIN_LAT MIN_LON MAX_LAT MAX_LON [MODE]`.
    public init(idsFields text: String) throws(WorkloadError) {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard (4...5).contains(parts.count) else {
            throw WorkloadError("expected bbox MIN_LAT MIN_LON MAX_LAT MAX_LON [MODE]")
        }
        let numbers = parts.prefix(4).compactMap { Double($0) }.filter(\.isFinite)
        guard numbers.count == 4 else {
            throw WorkloadError("bbox corners must be numbers, got \"\(parts.prefix(4).joined(separator: " "))\"")
        }
        guard numbers[0] <= numbers[2], numbers[1] <= numbers[3] else {
            throw WorkloadError("bbox: MIN_LAT MIN_LON come before MAX_LAT MAX_LON, got \"\(text)\"")
        }
        self.init(
            minLat: numbers[0], minLon: numbers[1], maxLat: numbers[2], maxLon: numbers[3],
            mode: parts.count == 5 ? parts[4] : nil)
    }

    /// The ids file line's fields (what `init(idsFields:)` reads back).
    public var idsFields: String {
        "\(minLat) \(minLon) \(maxLat) \(maxLon)" + (mode.map { " \($0)" } ?? "")
    }
}
