import SQLiteKit
import TransitModel

/// Every pattern's stops, read once when a store opens: patterns never change within a database version,
/// and the bulk schedules name hundreds of them per request (≈ 45,000 pattern stops for 1,000 random trips
/// at NSW scale), which SQLite would otherwise read and Swift would rebuild each time. Answering then only
/// shares the prebuilt arrays.
///
/// Cost, for the 191,000 pattern_stops rows of the synthetic NSW feed: ≈ 10 MiB (one 48-byte `PatternStop`
/// per row; stop ids up to 15 UTF-8 bytes are stored inline) and ≈ 40 ms more to open a store (≈ 30 → 70 ms).
/// A reload holds two stores for as long as queries still run on the old one.
final class StorePatterns: Sendable {
    /// Stops by pattern_pk (empty for pks without a pattern).
    private let stopsByPk: [[PatternStop]]

    /// Reads `pattern_stops` whole; stop ids come from the catalog's `stopIds` (by stop_pk).
    init(db: Database, stopId: (Int) -> String) throws {
        let maxPk = Int(try db.scalarInt("SELECT MAX(pattern_pk) FROM patterns") ?? 0)
        guard maxPk < 50_000_000 else { throw StoreError.database("pattern_pk \(maxPk) is too large to index") }
        var counts = [Int](repeating: 0, count: maxPk + 1)
        let sizes = try db.prepare("SELECT pattern_pk, stop_count FROM patterns")
        while try sizes.step() {
            let pk = sizes.int(0)
            if pk >= 0, pk <= maxPk { counts[pk] = max(0, sizes.int(1)) }
        }
        var stopsByPk = counts.map { count -> [PatternStop] in
            var stops: [PatternStop] = []
            stops.reserveCapacity(count)
            return stops
        }
        // Clustered by (pattern_pk, stop_index): one sequential scan of the table.
        let rows = try db.prepare(
            """
            SELECT pattern_pk, stop_pk, stop_sequence, arrival_offset, departure_offset, pickup_type, drop_off_type,
                timepoint
            FROM pattern_stops ORDER BY pattern_pk, stop_index
            """)
        while try rows.step() {
            let pk = rows.int(0)
            guard pk >= 0, pk <= maxPk else { continue }
            stopsByPk[pk].append(
                PatternStop(
                    stopId: stopId(rows.int(1)), stopSequence: UInt32(truncatingIfNeeded: rows.int(2)),
                    arrivalOffset: Int32(truncatingIfNeeded: rows.int(3)),
                    departureOffset: Int32(truncatingIfNeeded: rows.int(4)),
                    pickupType: rows.int(5), dropOffType: rows.int(6), timepoint: rows.int(7) != 0))
        }
        self.stopsByPk = stopsByPk
    }

    /// The stops of pattern `pk` in order (empty for an unknown pk).
    func stops(_ pk: Int) -> [PatternStop] {
        pk >= 0 && pk < stopsByPk.count ? stopsByPk[pk] : []
    }
}
