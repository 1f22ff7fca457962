import Testing

@testable import TransitPresentation

/// The examples a rider sees, as the app and the terminal client show them.
@Suite struct RiderExampleTests {
    @Test(arguments: [
        (-120, "2 min early", PresentationColor.green, "2 minutes early"),
        (0, "On time", .gray, "On time"),
        (180, "+3 min", .orange, "3 minutes late"),
        (600, "+10 min", .red, "10 minutes late"),
    ])
    func delayBadges(delay: Int, text: String, color: PresentationColor, label: String) throws {
        let badge = try #require(DelayBadge(delay: delay))
        #expect(badge.text == text)
        #expect(badge.color == color)
        #expect(badge.accessibilityLabel == label)
    }
}

@Suite struct OccupancyPresentationTests {
    @Test(arguments: [
        ("EMPTY", "person", "Many seats"),
        ("MANY_SEATS_AVAILABLE", "person", "Many seats"),
        ("FEW_SEATS_AVAILABLE", "person.2", "Few seats"),
        ("STANDING_ROOM_ONLY", "person.3", "Standing room only"),
        ("CRUSHED_STANDING_ROOM_ONLY", "person.3.fill", "Full"),
        ("FULL", "person.3.fill", "Full"),
        ("NOT_ACCEPTING_PASSENGERS", "xmark.circle", "Not boarding"),
        ("NOT_BOARDABLE", "xmark.circle", "Not boarding"),
    ])
    func iconAndLabel(status: String, icon: String, label: String) throws {
        let occupancy = try #require(OccupancyPresentation(status: status))
        #expect(occupancy.icon == icon)
        #expect(occupancy.label == label)
    }

    @Test func noDataShowsNothing() {
        #expect(OccupancyPresentation(status: "NO_DATA_AVAILABLE") == nil)
        #expect(OccupancyPresentation(status: nil) == nil)
        #expect(OccupancyPresentation(status: "SOMETHING_NEW") == nil)
    }

    @Test func levelsRiseWithHowFull() {
        let levels = ["EMPTY", "FEW_SEATS_AVAILABLE", "STANDING_ROOM_ONLY", "FULL", "NOT_BOARDABLE"].map {
            OccupancyPresentation(status: $0)!.level
        }
        #expect(levels == [1, 2, 3, 4, 5])
    }
}

@Suite struct DepartureClockTests {
    let at: Int64 = 1_766_394_000  // Monday 22 December 2025, 20:00:00 in Sydney (AEDT, +11:00)

    @Test func timesAreTheStopsWallClock() {
        #expect(DepartureClock(timeZone: "Australia/Sydney").time(at) == "20:00")
        #expect(DepartureClock(timeZone: "Australia/Sydney").timeWithSeconds(at + 65) == "20:01:05")
        #expect(DepartureClock(timeZone: "Europe/London").time(at) == "09:00")
        // A service day's 25:10 is ten past one the next morning.
        #expect(DepartureClock(timeZone: "Australia/Sydney").time(at + 5 * 3600 + 10 * 60) == "01:10")
    }

    /// `unix` is `time`'s inverse on a date: the instant the stop's clock shows a time of day.
    @Test func aWallClockTimeOnADateIsAnInstant() {
        let sydney = DepartureClock(timeZone: "Australia/Sydney")
        #expect(sydney.date(at) == (2025, 12, 22))
        #expect(sydney.date(at + 4 * 3600) == (2025, 12, 23))  // past midnight there
        #expect(sydney.unix((2025, 12, 22), secondOfDay: 20 * 3600) == at)
        #expect(sydney.unix((2025, 12, 23), secondOfDay: 0) == at + 4 * 3600)
        #expect(sydney.unix((2026, 7, 1), secondOfDay: 8 * 3600) == 1_782_856_800)  // +10:00 in winter
        #expect(sydney.unix((2026, 2, 30), secondOfDay: 0) == nil)
        // 2026-10-04 02:30 does not exist in Sydney (02:00 → 03:00): moved ahead by the gap, to 03:30 AEDT.
        #expect(sydney.unix((2026, 10, 4), secondOfDay: 2 * 3600 + 1800) == 1_791_045_000)
    }

    @Test func anUnknownOrMissingZoneIsUTC() {
        #expect(DepartureClock(timeZone: nil).time(at) == "09:00")
        #expect(DepartureClock(timeZone: "Not/AZone").time(at) == "09:00")
    }

    @Test func countdownsAreTheGatewaysRule() {
        let clock = DepartureClock(timeZone: "Australia/Sydney")
        #expect(clock.countdown(to: at + 180, now: at) == (3, "3 min"))
        #expect(clock.countdown(to: at + 59, now: at) == (0, "Now"))
        #expect(clock.countdown(to: at - 61, now: at) == (-1, "1 min ago"))
    }
}

@Suite struct RouteSectionsTests {
    struct R: Sendable {
        var name: String
        var mode: String
        var section: String?
    }

    @Test func sectionKeys() {
        #expect(RouteSections.key(for: "T1") == "T")
        #expect(RouteSections.key(for: "l90") == "L")
        #expect(RouteSections.key(for: "333") == "#")
        #expect(RouteSections.key(for: "!Night") == "#")
        #expect(RouteSections.key(for: "") == "#")
        #expect(RouteSections.key(for: "Éclair") == "E")
        #expect(RouteSections.key(for: " M20") == "M")
    }

    let routes = [
        R(name: "333", mode: "bus"), R(name: "F1", mode: "ferry"), R(name: "L2", mode: "tram"),
        R(name: "L90", mode: "bus"), R(name: "M1", mode: "metro"), R(name: "T1", mode: "train"),
        R(name: "T2", mode: "train", section: "T"),
    ]

    func group(_ filter: RouteModeFilter) -> [String] {
        RouteSections.group(
            routes, filter: filter, mode: \.mode, section: { $0.section ?? RouteSections.key(for: $0.name) }
        )
        .map { "\($0.key): " + $0.routes.map(\.name).joined(separator: " ") }
    }

    @Test func allRoutesInSectionsWithHashFirst() {
        #expect(group(.all) == ["#: 333", "F: F1", "L: L2 L90", "M: M1", "T: T1 T2"])
    }

    @Test func modeFilters() {
        #expect(group(.train) == ["T: T1 T2"])
        #expect(group(.bus) == ["#: 333", "L: L90"])
        #expect(group(.tram) == ["L: L2"])
        #expect(group(.metro) == ["M: M1"])
        #expect(group(.ferry) == ["F: F1"])
        #expect(RouteModeFilter.allCases.map(\.title) == ["All", "Train", "Bus", "Metro", "Ferry", "Tram"])
    }

    @Test func theGatewaysSectionWins() {
        let odd = [R(name: "x", mode: "bus", section: "#")]
        #expect(
            RouteSections.group(odd, mode: \.mode, section: { $0.section ?? RouteSections.key(for: $0.name) }).map(
                \.key) == ["#"])
    }
}
