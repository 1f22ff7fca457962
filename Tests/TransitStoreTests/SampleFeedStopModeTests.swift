import Testing
import TransitCore
import TransitModel
import TransitPresentation
import TransitStore
import TransitTesting

/// The seeds' own check on the bundled sample feed: search "Central" → train icon; search "Circular Quay" →
/// ferry icon. The primary route type is the route type of the most routes at a stop and its children: the
/// M1 metro's many frequency instances at Central do not outweigh its four train lines.
@Suite struct SampleFeedStopModeTests {
    func store() throws -> StaticStore { try StaticStore(path: try SampleDatabase.path(), connections: 1) }

    @Test func centralIsATrainStation() throws {
        let found = try store().search("Central", limit: 3)
        let central = try #require(found.first)
        #expect(central.stopId == "200060")
        #expect(central.primaryRouteType == 2 && central.mode == "train")
        #expect(ModePresentation(mode: central.mode).icon == "train.side.front.car")
        #expect(ModePresentation(mode: central.mode).stopAccessibilityLabel == "Train stop")
    }

    @Test func circularQuayListsTheWharvesFirstWithTheFerryIcon() throws {
        let found = try store().search("Circular Quay", limit: 5)
        let first = try #require(found.first)
        #expect(first.stopId == "10101100" && first.name == "Circular Quay Wharves")
        #expect(first.primaryRouteType == 4 && first.mode == "ferry")
        #expect(ModePresentation(mode: first.mode).icon == "ferry.fill")
        // The station of the same name stays a train station.
        #expect(found.first { $0.stopId == "200020" }?.mode == "train")
    }

    @Test func aPlatformKeepsItsOwnRoutes() throws {
        // Central's metro platform is served by M1 alone.
        let platform = try store().stop(id: "20006026").stop
        #expect(platform.primaryRouteType == 401 && platform.mode == "metro")
    }
}

/// Search as a rider types: inside words and with typos, on the bundled sample feed.
@Suite struct SampleFeedForgivingSearchTests {
    func first(_ text: String) throws -> String? {
        try StaticStore(path: try SampleDatabase.path(), connections: 1).search(text, limit: 5).first?.stopId
    }

    @Test func insideAWordAndWithTypos() throws {
        #expect(try first("entral") == "200060")  // inside "Central"
        #expect(try first("centrl") == "200060")  // one letter left out
        #expect(try first("cnetral") == "200060")  // two neighbours swapped: one edit
        #expect(try first("circlar quay") == "10101100")  // one typo, then a whole word
        #expect(try first("circlar qu") == "10101100")  // still typing the last word
        #expect(try first("ciruclar quay") == "10101100")
    }
}

/// A frequency-based trip from a board row, on the sample feed's M1 metro (weekdays every 4 minutes from 07:00,
/// an hour from Tallawong to Central and on): the clock pinned at Monday 08:00.
@Suite struct SampleFeedFrequencyTripTests {
    func store() throws -> StaticStore { try StaticStore(path: try SampleDatabase.path(), connections: 1) }

    @Test func aBoardRowsFieldsNameItsInstance() throws {
        let store = try store()
        let at = SampleTimes.mondayMorning
        // At Central the first M1 row at 08:00 is the run that left Tallawong at 07:08.
        let row = try #require(
            store.departures(stopId: "200060", at: at, limit: 40).departures.first { $0.tripId == "M1.WKD.0.FREQ" })
        #expect(row.startTime == "07:08:00")
        let trip = try store.trip(id: row.tripId, serviceDate: row.serviceDate, startTime: row.startTime, at: at)
        #expect(trip.startTime == "07:08:00" && trip.serviceDate == row.serviceDate)
        #expect(trip.stops.contains { $0.departureUnix == row.scheduledUnix && $0.stopId == row.stopId })
    }

    @Test func theTripIdAloneIsTheRunRunningNowOrTheNext() throws {
        let store = try store()
        // 08:00: fifteen runs are on the line; the one leaving Tallawong now is the latest started.
        #expect(try store.trip(id: "M1.WKD.0.FREQ", at: SampleTimes.mondayMorning).startTime == "08:00:00")
        #expect(try store.trip(id: "M1.WKD.0.FREQ", at: SampleTimes.mondayMorning + 59).startTime == "08:00:00")
        // 04:30, before the first run: the next, 05:00 the same day (not the last run of the night before).
        let early = SampleTimes.mondayMorning - 3 * 3600 - 1800
        let first = try store.trip(id: "M1.WKD.0.FREQ", at: early)
        #expect(first.startTime == "05:00:00" && first.serviceDate == 20_251_222)
    }
}
