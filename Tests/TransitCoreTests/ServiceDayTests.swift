import Foundation
import Testing

@testable import TransitCore

/// Expected instants are written as UTC wall times and converted with Foundation's own Gregorian
/// calendar, independently of the code under test.
private func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int = 0) -> Int64 {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let date = calendar.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi))!
    return Int64(date.timeIntervalSince1970)
}

/// Local wall clock (hour, minute, UTC offset in hours) of an instant in a zone, via Foundation.
private func wall(_ unix: Int64, _ zone: String) -> (hour: Int, minute: Int, offsetHours: Int) {
    var calendar = Calendar(identifier: .gregorian)
    let tz = TimeZone(identifier: zone)!
    calendar.timeZone = tz
    let date = Date(timeIntervalSince1970: TimeInterval(unix))
    let c = calendar.dateComponents([.hour, .minute], from: date)
    return (c.hour!, c.minute!, tz.secondsFromGMT(for: date) / 3600)
}

private func date(_ v: Int) -> GTFSDate { GTFSDate(yyyymmdd: v)! }

@Suite struct ServiceDayTests {
    let sydney = try! ServiceTimeZone(identifier: "Australia/Sydney")
    let newYork = try! ServiceTimeZone(identifier: "America/New_York")
    let utcZone = try! ServiceTimeZone(identifier: "UTC")

    @Test func ordinaryDayReferenceIsLocalMidnight() {
        #expect(sydney.referenceUnix(of: date(20251006)) == utc(2025, 10, 5, 13))  // AEDT +11
        #expect(sydney.referenceUnix(of: date(20250704)) == utc(2025, 7, 3, 14))  // AEST +10
        #expect(newYork.referenceUnix(of: date(20250704)) == utc(2025, 7, 4, 4))  // EDT -4
        #expect(utcZone.referenceUnix(of: date(20250704)) == utc(2025, 7, 4, 0))
    }

    @Test func sydneyDaylightSavingStart() {
        // 2025-10-05 02:00 AEST → 03:00 AEDT. Noon is 12:00 AEDT = 01:00 UTC; reference 13:00 UTC on the 4th,
        // which is 23:00 AEST on the 4th (an hour before local midnight).
        let d = date(20251005)
        #expect(sydney.referenceUnix(of: d) == utc(2025, 10, 4, 13))
        let eight = sydney.unix(of: d, secs: 8 * 3600)
        #expect(eight == utc(2025, 10, 4, 21))
        #expect(wall(eight, "Australia/Sydney") == (8, 0, 11))
        // "01:30:00" is measured from the reference: 14:30 UTC = 00:30 AEST on the wall clock.
        let early = sydney.unix(of: d, secs: 5400)
        #expect(early == utc(2025, 10, 4, 14, 30))
        #expect(wall(early, "Australia/Sydney") == (0, 30, 10))
        // Noon itself is noon.
        #expect(wall(sydney.unix(of: d, secs: 12 * 3600), "Australia/Sydney") == (12, 0, 11))
    }

    @Test func sydneyDaylightSavingEnd() {
        // 2026-04-05 03:00 AEDT → 02:00 AEST. Noon is 12:00 AEST = 02:00 UTC; reference 14:00 UTC on the 4th,
        // which is 01:00 AEDT on the 5th.
        let d = date(20260405)
        #expect(sydney.referenceUnix(of: d) == utc(2026, 4, 4, 14))
        let early = sydney.unix(of: d, secs: 1800)
        #expect(wall(early, "Australia/Sydney") == (1, 30, 11))
        let eight = sydney.unix(of: d, secs: 8 * 3600)
        #expect(eight == utc(2026, 4, 4, 22))
        #expect(wall(eight, "Australia/Sydney") == (8, 0, 10))
    }

    @Test func newYorkDaylightSavingStartAndEnd() {
        // 2026-03-08 02:00 EST → 03:00 EDT: noon EDT = 16:00 UTC, reference 04:00 UTC = 23:00 EST on the 7th.
        let spring = date(20260308)
        #expect(newYork.referenceUnix(of: spring) == utc(2026, 3, 8, 4))
        #expect(wall(newYork.unix(of: spring, secs: 3600), "America/New_York") == (0, 0, -5))
        #expect(wall(newYork.unix(of: spring, secs: 9 * 3600), "America/New_York") == (9, 0, -4))
        // 2025-11-02 02:00 EDT → 01:00 EST: noon EST = 17:00 UTC, reference 05:00 UTC = 01:00 EDT.
        let autumn = date(20251102)
        #expect(newYork.referenceUnix(of: autumn) == utc(2025, 11, 2, 5))
        #expect(wall(newYork.unix(of: autumn, secs: 0), "America/New_York") == (1, 0, -4))
        #expect(wall(newYork.unix(of: autumn, secs: 9 * 3600), "America/New_York") == (9, 0, -5))
    }

    @Test func afterMidnightTimesLandOnTheNextWallClockDay() {
        let d = date(20251006)
        let late = sydney.unix(of: d, secs: 25 * 3600 + 600)  // 25:10:00
        #expect(late == utc(2025, 10, 6, 14, 10))
        #expect(wall(late, "Australia/Sydney") == (1, 10, 11))
        #expect(sydney.localDate(atUnix: late) == date(20251007))
    }

    @Test func localDateAndSecondsOfDay() {
        #expect(sydney.localDate(atUnix: utc(2025, 10, 4, 13, 30)) == date(20251004))  // 23:30 AEST
        #expect(sydney.localDate(atUnix: utc(2025, 10, 4, 14)) == date(20251005))  // 00:00 AEST
        #expect(sydney.localSecondsOfDay(atUnix: utc(2025, 10, 4, 13, 30)) == 23 * 3600 + 1800)
        #expect(newYork.localDate(atUnix: utc(2025, 7, 4, 3, 59)) == date(20250703))
        // Before 1970 the floor division must still pick the right day.
        #expect(utcZone.localDate(atUnix: -1) == date(19691231))
    }

    @Test func serviceDatesRunningAtAnInstant() {
        // 01:00 AEDT on the 7th: the 6th's 25:00:00 and the 7th's 01:00:00.
        let t = utc(2025, 10, 6, 14)
        #expect(sydney.serviceDates(runningAtUnix: t, maxSecs: 26 * 3600) == [date(20251006), date(20251007)])
        #expect(sydney.serviceDates(runningAtUnix: t, maxSecs: 24 * 3600) == [date(20251007)])
        // A feed with times up to 49:00:00 reaches two days back.
        #expect(
            sydney.serviceDates(runningAtUnix: t, maxSecs: 49 * 3600)
                == [date(20251005), date(20251006), date(20251007)])
    }

    @Test func nextServiceDateCanRunBeforeLocalMidnight() {
        // 23:30 AEST on 2025-10-04: the 5th (DST start) begins at 23:00 AEST, so its 00:30:00 runs now.
        let t = utc(2025, 10, 4, 13, 30)
        #expect(sydney.serviceDates(runningAtUnix: t, maxSecs: 24 * 3600) == [date(20251004), date(20251005)])
        let windows = sydney.serviceDays(fromUnix: t, toUnix: t + 1, maxSecs: 24 * 3600)
        #expect(windows.map(\.secs) == [(23 * 3600 + 1800)..<(23 * 3600 + 1801), 1800..<1801])
    }

    @Test func windowsAreClampedToTheFeedsTimes() {
        // From 22:00 to 03:00 local (AEDT, an ordinary night), times up to 26:00:00.
        let from = utc(2025, 10, 6, 11), to = utc(2025, 10, 6, 16)
        let windows = sydney.serviceDays(fromUnix: from, toUnix: to, maxSecs: 26 * 3600)
        #expect(windows.map(\.date) == [date(20251006), date(20251007)])
        #expect(windows[0].secs == (22 * 3600)..<(26 * 3600 + 1))
        #expect(windows[1].secs == 0..<(3 * 3600))
        #expect(windows[1].unix(secs: 3600) == utc(2025, 10, 6, 14))
        #expect(sydney.serviceDays(fromUnix: to, toUnix: from, maxSecs: 3600).isEmpty)
    }

    @Test func windowsMatchReferencesAcrossAYear() {
        // For every hour of a year in New York, each reported window must contain exactly the GTFS seconds
        // that map back to the instant; and every date whose 0...maxSecs covers it must be reported.
        var t = utc(2025, 1, 1, 0)
        let end = utc(2026, 1, 1, 0)
        let maxSecs = 30 * 3600
        while t < end {
            let dates = newYork.serviceDays(fromUnix: t, toUnix: t + 1, maxSecs: maxSecs)
            for w in dates { #expect(newYork.unix(of: w.date, secs: w.secs.lowerBound) == t) }
            let local = newYork.localDate(atUnix: t)
            for offset in -3...2 {
                let d = local.adding(days: offset)
                let secs = t - newYork.referenceUnix(of: d)
                let expected = secs >= 0 && secs <= maxSecs
                #expect(dates.contains { $0.date == d } == expected)
            }
            t += 3600
        }
    }

    @Test func halfHourShiftAndMidnightTransitions() throws {
        // Lord Howe Island moves by 30 minutes (+10:30 → +11 at 02:00 on 2025-10-05): noon is 01:00 UTC,
        // so the reference is 13:00 UTC on the 4th = 23:30 local (+10:30).
        let lordHowe = try ServiceTimeZone(identifier: "Australia/Lord_Howe")
        #expect(lordHowe.referenceUnix(of: date(20251005)) == utc(2025, 10, 4, 13))
        #expect(wall(lordHowe.unix(of: date(20251005), secs: 8 * 3600), "Australia/Lord_Howe").hour == 8)
        // Santiago springs forward at midnight (2025-09-07 00:00 -04 → 01:00 -03): local midnight does not
        // exist; noon -03 is 15:00 UTC, so the reference is 03:00 UTC = 23:00 -04 on the 6th.
        let santiago = try ServiceTimeZone(identifier: "America/Santiago")
        #expect(santiago.referenceUnix(of: date(20250907)) == utc(2025, 9, 7, 3))
        #expect(wall(santiago.unix(of: date(20250907), secs: 10 * 3600), "America/Santiago") == (10, 0, -3))
        // Far east of UTC: Kiritimati (+14) has no DST; the reference is local midnight.
        let kiritimati = try ServiceTimeZone(identifier: "Pacific/Kiritimati")
        #expect(kiritimati.referenceUnix(of: date(20250704)) == utc(2025, 7, 3, 10))
    }

    @Test func unknownZoneIsAnError() {
        #expect(throws: ServiceTimeZoneError.self) { try ServiceTimeZone(identifier: "Mars/Olympus") }
        #expect(throws: ServiceTimeZoneError.self) { try ServiceTimeZone(identifier: "") }
    }
}

/// A zone's reference instants precomputed for a span of days are the ones computed on use, across daylight
/// saving changes and outside the span.
@Suite struct ServiceTimeZonePrecomputedTests {
    @Test(arguments: ["Australia/Sydney", "America/New_York", "UTC", "Asia/Kolkata"])
    func precomputedReferencesAreTheComputedOnes(_ zone: String) throws {
        let plain = try ServiceTimeZone(identifier: zone)
        let span = GTFSDate(yyyymmdd: 20_250_101)!...GTFSDate(yyyymmdd: 20_261_231)!
        let precomputed = plain.precomputing(span)
        #expect(precomputed.identifier == plain.identifier)
        var day = GTFSDate(yyyymmdd: 20_241_201)!
        while day <= GTFSDate(yyyymmdd: 20_270_131)! {
            #expect(precomputed.referenceUnix(of: day) == plain.referenceUnix(of: day), "\(day)")
            day = day.adding(days: 1)
        }
        // Sydney's 2025-10-05 reference is 23:00 AEST the day before (the type's own example).
        if zone == "Australia/Sydney" {
            #expect(precomputed.referenceUnix(of: GTFSDate(yyyymmdd: 20_251_005)!) == 1_759_582_800)
        }
    }
}
