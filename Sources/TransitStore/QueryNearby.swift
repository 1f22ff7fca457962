import Foundation
import SQLiteKit
import TransitCore
import TransitModel

extension StaticStore {
    /// Largest accepted radius (metres).
    public static let maxNearbyRadius = 50_000.0

    /// Stations and stops without a parent within `radiusMetres` of a point, nearest first, each with
    /// `distanceMetres` (great-circle, haversine). A platform in range brings its station (at the platform's
    /// distance when nearer than the station's own point). `mode` keeps stops served by that mode.
    public func nearby(lat: Double, lon: Double, radiusMetres: Double, limit: Int, mode: String? = nil)
        throws(StoreError) -> [Stop]
    {
        try Self.checkLimit(limit)
        let mode = try Self.parseMode(mode)
        guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else {
            throw .invalidArgument("lat/lon \(lat), \(lon) is not a position")
        }
        guard radiusMetres.isFinite, radiusMetres > 0, radiusMetres <= Self.maxNearbyRadius else {
            throw .invalidArgument("radius_m must be in (0, \(Int(Self.maxNearbyRadius))], got \(radiusMetres)")
        }
        let boxes = Geo.boundingBoxes(lat: lat, lon: lon, radiusMetres: radiusMetres)

        return try run { c in
            let inBox = try c.statement(
                """
                SELECT s.stop_pk, s.lat, s.lon, s.location_type, s.parent_pk
                FROM stop_rtree r JOIN stops s ON s.stop_pk = r.stop_pk
                WHERE r.max_lat >= ?1 AND r.min_lat <= ?2 AND r.max_lon >= ?3 AND r.min_lon <= ?4
                """)
            // Nearest distance per resulting stop (a platform counts for its station).
            var distance: [Int: Double] = [:]
            for box in boxes {
                inBox.reset()
                inBox.bind(1, box.minLat)
                inBox.bind(2, box.maxLat)
                inBox.bind(3, box.minLon)
                inBox.bind(4, box.maxLon)
                while try inBox.step() {
                    guard let stopLat = inBox.optionalDouble(1), let stopLon = inBox.optionalDouble(2) else { continue }
                    let d = Geo.haversineMetres(lat, lon, stopLat, stopLon)
                    guard d <= radiusMetres else { continue }
                    var pk = inBox.int(0)
                    if inBox.int(3) == 0, let parent = inBox.optionalInt(4) { pk = parent }
                    if d < distance[pk] ?? .infinity { distance[pk] = d }
                }
            }
            var result: [Stop] = []
            for (pk, d) in distance.sorted(by: { $0.value != $1.value ? $0.value < $1.value : $0.key < $1.key }) {
                guard let row = try loadStop(c, pk: pk), row.stop.locationType <= 1 else { continue }
                if let mode, row.modeMask & mode.bit == 0 { continue }
                var stop = row.stop
                stop.distanceMetres = (d * 10).rounded() / 10
                result.append(stop)
                if result.count == limit { break }
            }
            return result
        }
    }
}

enum Geo {
    static let earthRadius = 6_371_008.8

    static func haversineMetres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad, dLon = (lon2 - lon1) * rad
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, sqrt(a)))
    }

    struct Box { var minLat, maxLat, minLon, maxLon: Double }

    /// Boxes covering the circle (two when it crosses the antimeridian), slightly enlarged: the R*Tree
    /// stores 32-bit floats.
    static func boundingBoxes(lat: Double, lon: Double, radiusMetres: Double) -> [Box] {
        let degLat = radiusMetres / (earthRadius * Double.pi / 180) * 1.001 + 1e-5
        let minLat = max(-90, lat - degLat), maxLat = min(90, lat + degLat)
        let cosLat = cos(max(abs(minLat), abs(maxLat)) * Double.pi / 180)
        guard cosLat > 1e-6, degLat / cosLat < 180 else {
            return [Box(minLat: minLat, maxLat: maxLat, minLon: -180, maxLon: 180)]
        }
        let degLon = degLat / cosLat
        let minLon = lon - degLon, maxLon = lon + degLon
        if minLon < -180 {
            return [
                Box(minLat: minLat, maxLat: maxLat, minLon: -180, maxLon: maxLon),
                Box(minLat: minLat, maxLat: maxLat, minLon: minLon + 360, maxLon: 180),
            ]
        }
        if maxLon > 180 {
            return [
                Box(minLat: minLat, maxLat: maxLat, minLon: minLon, maxLon: 180),
                Box(minLat: minLat, maxLat: maxLat, minLon: -180, maxLon: maxLon - 360),
            ]
        }
        return [Box(minLat: minLat, maxLat: maxLat, minLon: minLon, maxLon: maxLon)]
    }
}
