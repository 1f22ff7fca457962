/// Which weekday's timetable a service date runs, from the feed's calendar: a public holiday on a Monday
/// whose calendar_dates remove the weekday services and add the Sunday ones runs as a Sunday
/// (protocol/README.md flow 6, "Day types from the calendar").
///
/// Only dates with calendar_dates exceptions can differ from their weekday. Each one's active services are
/// compared with the nearest Saturday's, the nearest Sunday's and the same weekday's a week away (before
/// and after, the closer of the two): it runs as Sunday when that set is strictly closer than its own
/// weekday's and at least as close as Saturday's, as Saturday when that one is strictly closer than both;
/// otherwise (ties, a date without service) as its own weekday. When the date shares no service with any of
/// them (a feed that gives holidays service ids of their own), the number of trips running decides instead,
/// by the same rule: closeness is the smaller count over the larger.
public enum TimetableWeekdays {
    /// ISO weekday numbers of the weekend timetables.
    public static let saturday = 6
    public static let sunday = 7

    /// The dates of `calendar` that run another weekday's timetable than their own, with the ISO weekday
    /// they run as (6 or 7). `tripsPerService`: the number of trips of each service (by index; missing:
    /// none), for dates that share no service with their neighbours.
    public static func exceptions(_ calendar: ServiceCalendar, tripsPerService: [Int] = []) -> [GTFSDate: Int] {
        var result: [GTFSDate: Int] = [:]
        for date in calendar.exceptionDates {
            let runsAs = weekday(of: date, calendar, tripsPerService: tripsPerService)
            if runsAs != date.weekday { result[date] = runsAs }
        }
        return result
    }

    /// The ISO weekday whose timetable `date` runs.
    public static func weekday(of date: GTFSDate, _ calendar: ServiceCalendar, tripsPerService: [Int] = []) -> Int {
        let own = date.weekday
        let services = calendar.activeServices(on: date)
        if services.isEmpty { return own }
        func trips(_ set: ServiceSet) -> Int {
            set.members.reduce(0) { $0 + ($1 < tripsPerService.count ? tripsPerService[$1] : 0) }
        }
        let tripCount = trips(services)
        /// The closeness of the nearest date with `weekday` on each side (a week away for its own weekday),
        /// by shared services and by trip count.
        func closest(_ weekday: Int) -> (services: Double, trips: Double) {
            let after = (weekday - own + 7) % 7
            let forward = after == 0 ? 7 : after
            let backward = forward == 7 ? 7 : 7 - forward
            var best = (services: 0.0, trips: 0.0)
            for side in [date.adding(days: forward), date.adding(days: -backward)] {
                let other = calendar.activeServices(on: side)
                best.services = max(best.services, services.similarity(to: other))
                let otherTrips = trips(other)
                if tripCount > 0, otherTrips > 0 {
                    best.trips = max(
                        best.trips, Double(min(tripCount, otherTrips)) / Double(max(tripCount, otherTrips)))
                }
            }
            return best
        }
        let ownScore = closest(own)
        let sundayScore = own == sunday ? ownScore : closest(sunday)
        let saturdayScore = own == saturday ? ownScore : closest(saturday)
        let byServices = ownScore.services > 0 || sundayScore.services > 0 || saturdayScore.services > 0
        let (o, su, sa) =
            byServices
            ? (ownScore.services, sundayScore.services, saturdayScore.services)
            : (ownScore.trips, sundayScore.trips, saturdayScore.trips)
        if own != sunday, su > o, su >= sa { return sunday }
        if own != saturday, sa > o, sa > su { return saturday }
        return own
    }
}
