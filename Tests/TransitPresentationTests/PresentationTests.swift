import Testing

@testable import TransitPresentation

@Suite struct ModePresentationTests {
    @Test(arguments: [
        ("train", "train.side.front.car", "Train stop"),
        ("metro", "lightrail.fill", "Metro stop"),
        ("tram", "tram.fill", "Tram stop"),
        ("ferry", "ferry.fill", "Ferry stop"),
        ("bus", "bus.fill", "Bus stop"),
        ("coach", "bus.fill", "Coach stop"),
        ("cable", "mappin.circle.fill", "Cable car stop"),
        ("other", "mappin.circle.fill", "Stop"),
        ("hovercraft", "mappin.circle.fill", "Stop"),
    ])
    func iconAndLabel(mode: String, icon: String, label: String) {
        let p = ModePresentation(mode: mode)
        #expect(p.icon == icon)
        #expect(p.stopAccessibilityLabel == label)
    }

    @Test func unknownModeIsAPin() {
        let p = ModePresentation(mode: nil)
        #expect(p.icon == "mappin.circle.fill")
        #expect(p.stopAccessibilityLabel == "Stop")
    }
}

@Suite struct DepartureStatusTests {
    @Test(arguments: [
        (-3600, DepartureStatus.early), (-61, .early), (-60, .onTime), (0, .onTime), (60, .onTime),
        (61, .late), (300, .late), (301, .veryLate), (86_400, .veryLate),
    ])
    func byDelay(delay: Int, expected: DepartureStatus) {
        #expect(DepartureStatus(delay: delay) == expected)
    }

    @Test func noPredictionIsScheduled() {
        #expect(DepartureStatus(delay: nil) == .scheduled)
    }

    @Test func flagsWinOverDelay() {
        #expect(DepartureStatus(delay: 400, cancelled: true) == .cancelled)
        #expect(DepartureStatus(delay: nil, cancelled: true, skipped: true, added: true) == .cancelled)
        #expect(DepartureStatus(delay: 0, skipped: true) == .skipped)
        #expect(DepartureStatus(delay: nil, skipped: true, added: true) == .skipped)
        #expect(DepartureStatus(delay: 120, added: true) == .added)
    }

    @Test func jsonNames() {
        #expect(
            DepartureStatus.allCases.map(\.rawValue)
                == ["scheduled", "early", "on_time", "late", "very_late", "cancelled", "skipped", "added", "detoured"])
    }

    @Test func delayStatuses() {
        let withBadge = DepartureStatus.allCases.filter(\.isDelayStatus)
        #expect(withBadge == [.early, .onTime, .late, .veryLate])
    }
}

@Suite struct DelayBadgeTests {
    func badge(_ delay: Int) throws -> DelayBadge {
        try #require(DelayBadge(delay: delay))
    }

    @Test func noPredictionNoBadge() {
        #expect(DelayBadge(delay: nil) == nil)
    }

    @Test func earlyBeyondAMinute() throws {
        let b = try badge(-61)
        #expect(b.text == "1 min early")
        #expect(b.color == .green)
        #expect(b.accessibilityLabel == "1 minute early")
        let c = try badge(-120)
        #expect(c.text == "2 min early")
        #expect(c.accessibilityLabel == "2 minutes early")
    }

    @Test(arguments: [-60, -1, 0, 1, 59, 60])
    func onTimeWithinAMinute(delay: Int) throws {
        let b = try badge(delay)
        #expect(b.text == "On time")
        #expect(b.color == .gray)
        #expect(b.accessibilityLabel == "On time")
    }

    @Test func lateUpToFiveMinutesIsOrange() throws {
        let b61 = try badge(61)
        #expect(b61.text == "+1 min")
        #expect(b61.color == .orange)
        #expect(b61.accessibilityLabel == "1 minute late")
        let b300 = try badge(300)
        #expect(b300.text == "+5 min")
        #expect(b300.color == .orange)
        #expect(b300.accessibilityLabel == "5 minutes late")
    }

    @Test func lateBeyondFiveMinutesIsRed() throws {
        let b301 = try badge(301)
        #expect(b301.text == "+5 min")
        #expect(b301.color == .red)
        #expect(b301.accessibilityLabel == "5 minutes late")
        let b600 = try badge(600)
        #expect(b600.text == "+10 min")
        #expect(b600.color == .red)
    }

    @Test(arguments: [(89, 1), (90, 2), (91, 2), (149, 2), (150, 3), (-89, 1), (-90, 2), (0, 0), (29, 0), (30, 1)])
    func roundsToNearestMinuteHalvesUp(delay: Int, minutes: Int) {
        #expect(DelayBadge.roundedMinutes(delay) == minutes)
    }

    @Test func ninetySecondsLateReadsTwoMinutes() throws {
        let b = try badge(90)
        #expect(b.text == "+2 min")
        #expect(b.accessibilityLabel == "2 minutes late")
        let e = try badge(-90)
        #expect(e.text == "2 min early")
    }

    @Test func accessibilityLabelsNeverNameAColour() throws {
        for delay in [-600, -61, 0, 61, 301] {
            let label = try badge(delay).accessibilityLabel.lowercased()
            for color in PresentationColor.allCases {
                #expect(!label.contains(color.rawValue))
            }
        }
    }

    @Test func rowBadgeOnlyForDelayStatuses() {
        #expect(DelayBadge(status: .late, delay: 90)?.text == "+2 min")
        #expect(DelayBadge(status: .cancelled, delay: 90) == nil)
        #expect(DelayBadge(status: .skipped, delay: 90) == nil)
        #expect(DelayBadge(status: .added, delay: 0) == nil)
        #expect(DelayBadge(status: .scheduled, delay: nil) == nil)
    }

    @Test func extremeDelaysDoNotTrap() {
        #expect(DelayBadge.roundedMinutes(Int.min) > 0)
        #expect(DelayBadge(delay: Int.max)?.color == .red)
    }
}

@Suite struct CountdownTests {
    let at: Int64 = 1_766_394_000

    @Test(arguments: [
        (0, 0), (1, 0), (59, 0), (60, 1), (119, 1), (120, 2), (330, 5),
        (-1, 0), (-59, 0), (-60, -1), (-61, -1), (-119, -1), (-120, -2),
    ])
    func minutesTruncateTowardZero(delta: Int64, minutes: Int) {
        #expect(Countdown.minutesUntil(at + delta, from: at) == minutes)
    }

    @Test func text() {
        #expect(Countdown.text(minutesUntil: 0) == "Now")
        #expect(Countdown.text(minutesUntil: 1) == "1 min")
        #expect(Countdown.text(minutesUntil: 25) == "25 min")
        #expect(Countdown.text(minutesUntil: -1) == "1 min ago")
        #expect(Countdown.text(minutesUntil: -12) == "12 min ago")
    }

    @Test func pastBoard() {
        // A departure 5 min 30 s before `at` on a past board.
        let m = Countdown.minutesUntil(at - 330, from: at)
        #expect(m == -5)
        #expect(Countdown.text(minutesUntil: m) == "5 min ago")
    }

    @Test func withinTheComingMinuteIsNow() {
        #expect(Countdown.text(minutesUntil: Countdown.minutesUntil(at + 59, from: at)) == "Now")
        #expect(Countdown.text(minutesUntil: Countdown.minutesUntil(at + 60, from: at)) == "1 min")
    }
}

@Suite struct AlertBannerTests {
    @Test(arguments: [
        ("NO_SERVICE", "exclamationmark.triangle.fill", PresentationColor.red, "Service disruption"),
        ("REDUCED_SERVICE", "exclamationmark.triangle.fill", .orange, "Reduced service"),
        ("SIGNIFICANT_DELAYS", "clock.fill", .yellow, "Significant delays"),
        ("DETOUR", "arrow.triangle.turn.up.right.diamond.fill", .yellow, "Detour"),
        ("STOP_MOVED", "arrow.triangle.turn.up.right.diamond.fill", .yellow, "Stop moved"),
        ("MODIFIED_SERVICE", "arrow.triangle.turn.up.right.diamond.fill", .yellow, "Modified service"),
        ("ADDITIONAL_SERVICE", "plus.circle.fill", .green, "Additional service"),
        ("ACCESSIBILITY_ISSUE", "figure.roll", .orange, "Accessibility issue"),
        ("OTHER_EFFECT", "info.circle.fill", .gray, "Service information"),
        ("UNKNOWN_EFFECT", "info.circle.fill", .gray, "Service information"),
        ("NO_EFFECT", "info.circle.fill", .gray, "Service information"),
    ])
    func byEffect(effect: String, icon: String, color: PresentationColor, prefix: String) {
        let b = AlertBanner(effect: effect, header: "Buses not stopping at Central")
        #expect(b.icon == icon)
        #expect(b.color == color)
        #expect(b.accessibilityLabel == "\(prefix): Buses not stopping at Central")
    }

    @Test func withoutHeaderTheLabelIsThePrefix() {
        #expect(AlertBanner(effect: "NO_SERVICE", header: nil).accessibilityLabel == "Service disruption")
        #expect(AlertBanner(effect: "DETOUR", header: "").accessibilityLabel == "Detour")
    }
}
