import Foundation
import Testing
import TransitTesting

@testable import FeedGenerator

@Suite("FeedGenerator output")
struct GeneratorTests {
    @Test("the same seed gives byte-identical files; another seed gives another feed")
    func deterministic() throws {
        let a = try TemporaryFolder("feedgen"), b = try TemporaryFolder("feedgen"), c = try TemporaryFolder("feedgen")
        _ = try FeedGenerator(scale: .small, seed: 7).write(to: a.path)
        _ = try FeedGenerator(scale: .small, seed: 7).write(to: b.path)
        _ = try FeedGenerator(scale: .small, seed: 8).write(to: c.path)
        for file in FeedFixture.files {
            #expect(try a.contents(file) == b.contents(file), "\(file) differs between two runs with seed 7")
        }
        #expect(try a.contents("stop_times.txt") != c.contents("stop_times.txt"))
        #expect(try a.contents("stops.txt") != c.contents("stops.txt"))
    }

    @Test("small scale: every reference resolves, sequences increase, times never go backwards")
    func integrity() throws {
        let dir = try TemporaryFolder("feedgen")
        _ = try FeedGenerator(scale: .small, seed: 1).write(to: dir.path)
        let feed = try FeedFixture(directory: dir.path)
        #expect(feed.problems() == [])
        // a few thousand stop times, as the tests need
        #expect((3_000..<10_000).contains(feed.stopTimes.rows.count))
    }

    @Test("requested counts are met at a given factor, and the summary tells the truth", arguments: [0.004, 0.0105])
    func countsAtFactor(factor: Double) throws {
        let scale = FeedScale.factor(factor)
        let dir = try TemporaryFolder("feedgen")
        let summary = try FeedGenerator(scale: scale, seed: 3).write(to: dir.path)
        let feed = try FeedFixture(directory: dir.path)
        #expect(feed.stops.rows.count >= scale.stops)
        #expect(feed.routes.rows.count >= scale.routes)
        #expect(feed.trips.rows.count >= scale.trips)
        #expect(feed.stopTimes.rows.count >= scale.stopTimes)
        // not wildly over either: the solver stops near the targets
        #expect(feed.stopTimes.rows.count < scale.stopTimes * 3 / 2)
        #expect(summary.rows("stops.txt") == feed.stops.rows.count)
        #expect(summary.rows("trips.txt") == feed.trips.rows.count)
        #expect(summary.rows("stop_times.txt") == feed.stopTimes.rows.count)
        #expect(summary.rows("frequencies.txt") == feed.frequencies.rows.count)
        #expect(feed.problems() == [])
    }

    @Test("every mode, frequencies of both kinds, calendar exceptions, after-midnight trips and loops")
    func features() throws {
        let dir = try TemporaryFolder("feedgen")
        let summary = try FeedGenerator(scale: .small, seed: 1).write(to: dir.path)
        let feed = try FeedFixture(directory: dir.path)

        #expect(Set(feed.routes.column("route_type")) == ["2", "401", "900", "4", "700", "712", "714", "204"])
        #expect(Set(feed.frequencies.column("exact_times")) == ["0", "1"])
        #expect(Set(feed.calendarDates.column("exception_type")) == ["1", "2"])
        let calendarOnlyDates = Set(feed.calendarDates.column("service_id")).subtracting(
            feed.calendar.column("service_id"))
        #expect(calendarOnlyDates == ["TRACKWORK", "EVENT"])
        // a weekday holiday swaps the weekday timetable for Sunday's
        let christmas = feed.calendarDates.rows(where: "date", is: "20251225").map { $0.joined(separator: ",") }
        #expect(Set(christmas).isSuperset(of: ["WKD,20251225,2", "SUN,20251225,1"]))

        let late = feed.stopTimes.column("departure_time").compactMap(gtfsSeconds).filter { $0 >= 24 * 3600 }
        #expect(!late.isEmpty)
        #expect(feed.agency.column("agency_timezone").allSatisfy { $0 == "Australia/Sydney" })

        // a loop trip: starts and ends at the same stop and visits another stop twice
        var loops = 0
        var byTrip: [String: [String]] = [:]
        for row in feed.stopTimes.rows { byTrip[row[0], default: []].append(feed.stopTimes.value(row, "stop_id")) }
        for (_, stops) in byTrip where stops.first == stops.last {
            if Set(stops.dropLast()).count < stops.count - 1 { loops += 1 }
        }
        #expect(loops > 0)

        // Central is a parent with many children and the busiest station
        let central = feed.stops.rows(where: "stop_id", is: "200060")
        #expect(central.count == 1 && feed.stops.value(central[0], "location_type") == "1")
        #expect(feed.stops.rows(where: "parent_station", is: "200060").count >= 10)
        #expect(summary.busiestStations.first?.stopId == "200060")
        #expect(Set(feed.stops.column("location_type")).isSuperset(of: ["0", "1", "2", "3"]))
        #expect(Set(feed.stops.column("wheelchair_boarding")) == ["0", "1", "2"])
    }

    @Test("the summary counts distinct patterns per station")
    func busiestStations() throws {
        var builder = NetworkBuilder(scale: .small, seed: 1)
        let network = builder.build()
        let busiest = FeedGenerator.busiestStations(network, top: 2)
        #expect(busiest.count == 2)
        #expect(busiest[0].patterns >= busiest[1].patterns)
        // recount the top one by hand
        let parentIndex = network.stops.firstIndex { String($0.id) == busiest[0].stopId }!
        let serving = network.patterns.filter { pattern in
            pattern.stops.contains { network.stops[$0].parent == parentIndex || $0 == parentIndex }
        }
        #expect(serving.count == busiest[0].patterns)
    }
}
