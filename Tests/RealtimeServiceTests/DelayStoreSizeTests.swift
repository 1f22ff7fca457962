// The delay store's size at NSW scale (RELIABILITY.md "Delay store size"): a synthetic fill of 28 days.
// A measurement, not part of CI: it runs when TYPICAL_DELAY_FILL names a CSV of the feed's cells, one line
// per (route, stop, hour) with the departures per Monday, Saturday and Sunday:
//   sqlite3 -csv bench-data/nsw.db "SELECT t.route_pk, d.stop_pk, (d.departure_secs/3600)%24,
//     sum(c.monday), sum(c.saturday), sum(c.sunday) FROM departures d JOIN trips t USING (trip_pk)
//     JOIN calendar c ON c.service_pk = d.service_pk GROUP BY 1, 2, 3" > /tmp/cells.csv
//   TYPICAL_DELAY_FILL=/tmp/cells.csv swift test --filter DelayStoreSizeTests
import Foundation
import Testing
import TransitCore
import TransitModel
import TransitTesting

@testable import DelayStore

@Suite struct DelayStoreSizeTests {
    static let cells = ProcessInfo.processInfo.environment["TYPICAL_DELAY_FILL"]

    /// A deterministic delay: 5 % early (−4 … −1 min), 70 % around a minute late (sd ≈ 1.5 min), 22 % late
    /// (2 min + exponential, mean 5 min), 3 % very late (15 … 40 min).
    struct Delays {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func unit() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        mutating func next() -> Int {
            let u = unit()
            if u < 0.05 { return -240 + Int(unit() * 180) }
            if u < 0.75 { return 60 + Int((unit() + unit() + unit() - 1.5) * 180) }
            if u < 0.97 { return 120 - Int(300 * log(1 - unit())) }
            return 900 + Int(unit() * 1500)
        }
    }

    @Test(.enabled(if: cells != nil)) func aFullWindowAtNSWScaleStaysUnder200MB() throws {
        let text = try String(contentsOfFile: Self.cells!, encoding: .utf8)
        // (route, stop, day type) → hour → departures per day of that type
        var rows: [String: [Int: Int]] = [:]
        var departures = 0
        for line in text.split(separator: "\n") {
            let f = line.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) ?? 0 }
            guard f.count == 6 else { continue }
            for (type, perDay) in [(0, f[3]), (1, f[4]), (2, f[5])] where perDay > 0 {
                rows["\(f[0]),\(f[1]),\(type)", default: [:]][f[2]] = perDay
                departures += perDay * (type == 0 ? 20 : 4)
            }
        }
        let folder = try TemporaryFolder("delay-size")
        let path = folder.path("delays.db")
        let store = try DelayStore(path: path)
        // Today is a block's last day: the window holds 28 days, 14 in each block (10 weekdays, 2 Saturdays,
        // 2 Sundays each).
        let block = 1460
        var delays = Delays()
        var cellsFilled = 0
        var routes = Set<Int64>()
        try store.transaction {
            for (key, hours) in rows {
                let parts = key.split(separator: ",")
                let route = try store.intern(route: "R\(parts[0])"), stop = try store.intern(stop: "S\(parts[1])")
                routes.insert(route)
                let type = DayType(rawValue: Int(parts[2])!)!
                let days = type == .weekday ? 10 : 2
                var row = DelayRow(block: block)
                for (hour, perDay) in hours {
                    var entry = DelayRow.Hour()
                    for _ in 0..<(perDay * days) { entry.current.add(delay: delays.next()) }
                    for _ in 0..<(perDay * days) { entry.previous.add(delay: delays.next()) }
                    row.hours[hour] = entry
                    cellsFilled += 1
                }
                try store.write(DelayStore.key(stop: stop, route: route, dayType: type), row)
            }
            // The routes' own rows, over all their stops: every hour, every bucket, large counts (an upper bound).
            var dense = DelayHistogram()
            for bucket in 0..<DelayHistogram.bucketCount { dense.add(bucket: bucket, count: 20_000) }
            for route in routes {
                for type in DayType.allCases {
                    var row = DelayRow(block: block)
                    for hour in 0..<24 { row.hours[hour] = DelayRow.Hour(current: dense, previous: dense) }
                    try store.write(DelayStore.key(stop: 0, route: route, dayType: type), row)
                }
            }
        }
        try store.checkpoint()
        let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        print(
            "delay store fill: \(rows.count) rows (route, stop, day type), \(cellsFilled) hour cells, "
                + "\(routes.count) routes, \(departures) departures in 28 days: \(bytes) bytes")
        #expect(bytes <= 200_000_000)
    }
}
