import Synchronization
import Testing
import TransitModel

@testable import Gateway

/// The gateway asks for the slices the realtime service recorded into: a holiday Monday's board rows ask
/// Sunday's histograms (protocol/README.md flow 6, "Day types from the calendar").
@Suite struct TypicalDelayDayTypeTests {
    static let visit = TypicalDelayCache.Visit(
        routeId: "R1", stopId: "S1", serviceDate: 20_260_126, scheduledSecs: 8 * 3600 + 5 * 60)

    @Test func slicesFollowTheCalendarsDayTypes() throws {
        let plain = try #require(TypicalDelayCache.slices(Self.visit, dayTypes: DayTypeCalendar()))
        #expect(plain.stop.dayType == .weekday && plain.stop.hour == 8)
        let holiday = try #require(
            TypicalDelayCache.slices(Self.visit, dayTypes: DayTypeCalendar(runsAs: [20_260_126: 7])))
        #expect(holiday.stop.dayType == .sunday && holiday.route.dayType == .sunday)
        #expect(holiday.route.stopId == nil && holiday.stop.stopId == "S1")
    }

    @Test func theDayTypesAreAskedOnceAndKept() async {
        let asks = Mutex(0)
        let cache = TypicalDelayCache(client: nil) {
            asks.withLock { $0 += 1 }
            return DayTypeCalendar(runsAs: [20_260_126: 7])
        }
        #expect(await cache.dayTypes().runsAs == [20_260_126: 7])
        #expect(await cache.dayTypes().runsAs == [20_260_126: 7])
        #expect(asks.withLock { $0 } == 1)
        // No answer: what was held stays (nothing held yet: every date its weekday).
        let failing = TypicalDelayCache(client: nil) { nil }
        #expect(await failing.dayTypes().runsAs.isEmpty)
    }
}
