import Foundation
import Synchronization

/// Which services run on which date, from calendar.txt and calendar_dates.txt.
///
/// Services are dense integer ids 0..<serviceCount (the store maps GTFS service_ids to them). Rules:
/// - a calendar row makes its service active on dates within [start, end] whose weekday flag is set;
/// - a calendar_dates exception_type 1 adds the date (also outside the calendar range, and for services
///   that have no calendar row at all), exception_type 2 removes it (overriding the weekday pattern);
///   if a feed both adds and removes the same service on the same date, the removal wins.
/// The active sets of every date from `firstDate` to `lastDate` are computed once, at init, when they fit in
/// `denseWordBudget` words, and then read without a lock: a static service's workers ask for them on every trip
/// and board, and a shared memo behind a mutex made them queue (a third of the static service's CPU in a
/// trip-heavy load went to the lock's slow path). A larger calendar computes a date's set on first use and
/// caches it (thread-safe).
public final class ServiceCalendar: Sendable {
    /// One calendar.txt row.
    public struct Weekly: Equatable, Sendable {
        public var service: Int
        /// Bit (weekday - 1) set when the service runs on that ISO weekday: bit 0 Monday … bit 6 Sunday.
        public var weekdays: UInt8
        public var start: GTFSDate
        public var end: GTFSDate

        public init(service: Int, weekdays: UInt8, start: GTFSDate, end: GTFSDate) {
            self.service = service
            self.weekdays = weekdays
            self.start = start
            self.end = end
        }

        /// From the seven calendar.txt flags, Monday first.
        public init(
            service: Int, monday: Bool, tuesday: Bool, wednesday: Bool, thursday: Bool,
            friday: Bool, saturday: Bool, sunday: Bool, start: GTFSDate, end: GTFSDate
        ) {
            var mask: UInt8 = 0
            for (i, on) in [monday, tuesday, wednesday, thursday, friday, saturday, sunday].enumerated() where on {
                mask |= 1 << UInt8(i)
            }
            self.init(service: service, weekdays: mask, start: start, end: end)
        }

        public func runs(on date: GTFSDate) -> Bool {
            date >= start && date <= end && weekdays & (1 << UInt8(date.weekday - 1)) != 0
        }
    }

    /// One calendar_dates.txt row.
    public struct Exception: Equatable, Sendable {
        public enum Kind: Int, Sendable { case added = 1, removed = 2 }
        public var service: Int
        public var date: GTFSDate
        public var kind: Kind

        public init(service: Int, date: GTFSDate, kind: Kind) {
            self.service = service
            self.date = date
            self.kind = kind
        }
    }

    public let serviceCount: Int
    private let weekly: [Weekly]
    private let exceptionsByDay: [Int: [Exception]]
    /// Earliest and latest date on which any service can run (nil when there is none).
    public let firstDate: GTFSDate?
    public let lastDate: GTFSDate?

    private let cache = Mutex<[Int: ServiceSet]>([:])
    private static let cacheLimit = 1024
    /// The active set of each date from `firstDate` on (empty when the calendar is over the budget).
    private let dense: [ServiceSet]
    /// Words of the precomputed sets at most (8 bytes each: 2 MiB of sets).
    public static let denseWordBudget = 1 << 18
    /// `typicalWeek`, once computed (the outer optional: not yet).
    private let typicalWeekCache = Mutex<GTFSDate??>(nil)
    /// Weeks `typicalWeek` looks at from the calendar's first date: a year covers every season's timetable.
    public static let typicalWeekSearch = 53

    /// Rows naming a service outside 0..<serviceCount are ignored. `denseWordBudget`: see the type.
    public init(
        serviceCount: Int, weekly: [Weekly], exceptions: [Exception],
        denseWordBudget: Int = ServiceCalendar.denseWordBudget
    ) {
        self.serviceCount = max(0, serviceCount)
        self.weekly = weekly.filter { $0.service >= 0 && $0.service < serviceCount && $0.start <= $0.end }
        var byDay: [Int: [Exception]] = [:]
        for e in exceptions where e.service >= 0 && e.service < serviceCount {
            byDay[e.date.dayNumber, default: []].append(e)
        }
        exceptionsByDay = byDay
        let addedDays = byDay.compactMap { day, list in list.contains { $0.kind == .added } ? day : nil }
        let starts = self.weekly.map(\.start.dayNumber) + addedDays
        let ends = self.weekly.map(\.end.dayNumber) + addedDays
        firstDate = starts.min().map(GTFSDate.init(dayNumber:))
        lastDate = ends.max().map(GTFSDate.init(dayNumber:))
        var dense: [ServiceSet] = []
        if let first = firstDate, let last = lastDate {
            let days = last.dayNumber - first.dayNumber + 1
            if days * ((self.serviceCount + 63) / 64) <= denseWordBudget {
                dense.reserveCapacity(days)
                for day in 0..<days {
                    dense.append(Self.compute(first.adding(days: day), self.weekly, byDay, self.serviceCount))
                }
            }
        }
        self.dense = dense
    }

    /// The services active on a date.
    public func activeServices(on date: GTFSDate) -> ServiceSet {
        if let index = denseIndex(date) { return dense[index] }
        if !dense.isEmpty { return ServiceSet(capacity: serviceCount) }  // outside the span nothing runs
        if let cached = cache.withLock({ $0[date.dayNumber] }) { return cached }
        let set = compute(date)
        cache.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[date.dayNumber] = set
        }
        return set
    }

    /// The dates calendar_dates.txt names (an exception adds or removes some service), ascending.
    public var exceptionDates: [GTFSDate] { exceptionsByDay.keys.sorted().map(GTFSDate.init(dayNumber:)) }

    public func isActive(_ service: Int, on date: GTFSDate) -> Bool {
        if let index = denseIndex(date) { return dense[index].contains(service) }
        return activeServices(on: date).contains(service)
    }

    private func denseIndex(_ date: GTFSDate) -> Int? {
        guard let first = firstDate else { return nil }
        let index = date.dayNumber - first.dayNumber
        return index >= 0 && index < dense.count ? index : nil
    }

    /// The Monday of a typical week of the calendar: the week (Monday to Sunday), among the first
    /// `typicalWeekSearch` from the week of `firstDate`, in which the most services run, counted per day (a service
    /// running five days counts five), so that a week with a public holiday or a school-holiday timetable
    /// rarely wins; ties go to the earliest. nil when no service runs on any of those days. Computed once.
    public var typicalWeek: GTFSDate? {
        if let known = typicalWeekCache.withLock({ $0 }) { return known }
        let found = findTypicalWeek()
        typicalWeekCache.withLock { $0 = .some(found) }
        return found
    }

    private func findTypicalWeek() -> GTFSDate? {
        guard let first = firstDate, let last = lastDate else { return nil }
        var monday = first.adding(days: 1 - first.weekday)
        var best: (monday: GTFSDate, count: Int)?
        for _ in 0..<Self.typicalWeekSearch where monday <= last {
            // Not through `activeServices`: a year of dates would flush its cache.
            let count = (0..<7).reduce(0) { $0 + compute(monday.adding(days: $1)).count }
            if count > 0, count > best?.count ?? 0 { best = (monday, count) }
            monday = monday.adding(days: 7)
        }
        return best?.monday
    }

    /// Dates in [from, to] (inclusive) on which a service runs, ascending.
    public func dates(of service: Int, from: GTFSDate, through to: GTFSDate) -> [GTFSDate] {
        var result: [GTFSDate] = []
        var day = from
        while day <= to {
            if isActive(service, on: day) { result.append(day) }
            day = day.adding(days: 1)
        }
        return result
    }

    private func compute(_ date: GTFSDate) -> ServiceSet {
        Self.compute(date, weekly, exceptionsByDay, serviceCount)
    }

    private static func compute(
        _ date: GTFSDate, _ weekly: [Weekly], _ exceptionsByDay: [Int: [Exception]], _ serviceCount: Int
    ) -> ServiceSet {
        var set = ServiceSet(capacity: serviceCount)
        for row in weekly where row.runs(on: date) {
            set.insert(row.service)
        }
        if let exceptions = exceptionsByDay[date.dayNumber] {
            for e in exceptions where e.kind == .added { set.insert(e.service) }
            for e in exceptions where e.kind == .removed { set.remove(e.service) }
        }
        return set
    }
}

/// A fixed-capacity bit set of service ids.
public struct ServiceSet: Equatable, Sendable {
    private var words: [UInt64]
    public let capacity: Int

    public init(capacity: Int) {
        self.capacity = max(0, capacity)
        words = Array(repeating: 0, count: (self.capacity + 63) / 64)
    }

    @inline(__always)
    public func contains(_ service: Int) -> Bool {
        guard service >= 0, service < capacity else { return false }
        return words[service >> 6] & (1 << UInt64(service & 63)) != 0
    }

    public mutating func insert(_ service: Int) {
        guard service >= 0, service < capacity else { return }
        words[service >> 6] |= 1 << UInt64(service & 63)
    }

    public mutating func remove(_ service: Int) {
        guard service >= 0, service < capacity else { return }
        words[service >> 6] &= ~(1 << UInt64(service & 63))
    }

    public var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    /// Services in both over services in either (Jaccard); 0 when both are empty.
    public func similarity(to other: ServiceSet) -> Double {
        var shared = 0
        var either = 0
        for i in 0..<max(words.count, other.words.count) {
            let a = i < words.count ? words[i] : 0
            let b = i < other.words.count ? other.words[i] : 0
            shared += (a & b).nonzeroBitCount
            either += (a | b).nonzeroBitCount
        }
        return either == 0 ? 0 : Double(shared) / Double(either)
    }
    public var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Member ids, ascending.
    public var members: [Int] {
        var result: [Int] = []
        for (i, word) in words.enumerated() {
            var w = word
            while w != 0 {
                let bit = w.trailingZeroBitCount
                result.append(i * 64 + bit)
                w &= w - 1
            }
        }
        return result
    }
}
