import Foundation

/// Which services run on which date, from calendar.txt and calendar_dates.txt.
///
/// Services are dense integer ids 0..<serviceCount (the store maps GTFS service_ids to them). Rules:
/// - a calendar row makes its service active on dates within [start, end] whose weekday flag is set;
/// - a calendar_dates exception_type 1 adds the date (also outside the calendar range, and for services
///   that have no calendar row at all), exception_type 2 removes it (overriding the weekday pattern);
///   if a feed both adds and removes the same service on the same date, the removal wins.
/// The active set of a date is computed on first use and cached (thread-safe).
public final class ServiceCalendar: @unchecked Sendable {
    /// One calendar.txt row.
    public struct Pattern: Equatable, Sendable {
        public var service: Int
        /// Bit (weekday - 1) set when the service runs on that ISO weekday: bit 0 Monday … bit 6 Sunday.
        public var weekdays: UInt8
        public var start: ServiceDate
        public var end: ServiceDate

        public init(service: Int, weekdays: UInt8, start: ServiceDate, end: ServiceDate) {
            self.service = service
            self.weekdays = weekdays
            self.start = start
            self.end = end
        }

        /// From the seven calendar.txt flags, Monday first.
        public init(service: Int, monday: Bool, tuesday: Bool, wednesday: Bool, thursday: Bool,
                    friday: Bool, saturday: Bool, sunday: Bool, start: ServiceDate, end: ServiceDate) {
            var mask: UInt8 = 0
            for (i, on) in [monday, tuesday, wednesday, thursday, friday, saturday, sunday].enumerated() where on {
                mask |= 1 << UInt8(i)
            }
            self.init(service: service, weekdays: mask, start: start, end: end)
        }

        public func runs(on date: ServiceDate) -> Bool {
            date >= start && date <= end && weekdays & (1 << UInt8(date.weekday - 1)) != 0
        }
    }

    /// One calendar_dates.txt row.
    public struct Exception: Equatable, Sendable {
        public enum Kind: Int, Sendable { case added = 1, removed = 2 }
        public var service: Int
        public var date: ServiceDate
        public var kind: Kind

        public init(service: Int, date: ServiceDate, kind: Kind) {
            self.service = service
            self.date = date
            self.kind = kind
        }
    }

    public let serviceCount: Int
    private let patterns: [Pattern]
    private let exceptionsByDay: [Int: [Exception]]
    /// Earliest and latest date on which any service can run (nil when there is none).
    public let firstDate: ServiceDate?
    public let lastDate: ServiceDate?

    private let lock = NSLock()
    private var cache: [Int: ServiceSet] = [:]
    private static let cacheLimit = 1024

    /// Rows naming a service outside 0..<serviceCount are ignored.
    public init(serviceCount: Int, patterns: [Pattern], exceptions: [Exception]) {
        self.serviceCount = max(0, serviceCount)
        self.patterns = patterns.filter { $0.service >= 0 && $0.service < serviceCount && $0.start <= $0.end }
        var byDay: [Int: [Exception]] = [:]
        for e in exceptions where e.service >= 0 && e.service < serviceCount {
            byDay[e.date.dayNumber, default: []].append(e)
        }
        exceptionsByDay = byDay
        let addedDays = byDay.compactMap { day, list in list.contains { $0.kind == .added } ? day : nil }
        let starts = self.patterns.map(\.start.dayNumber) + addedDays
        let ends = self.patterns.map(\.end.dayNumber) + addedDays
        firstDate = starts.min().map(ServiceDate.init(dayNumber:))
        lastDate = ends.max().map(ServiceDate.init(dayNumber:))
    }

    /// The services active on a date.
    public func activeServices(on date: ServiceDate) -> ServiceSet {
        lock.lock()
        if let cached = cache[date.dayNumber] {
            lock.unlock()
            return cached
        }
        lock.unlock()
        let set = compute(date)
        lock.lock()
        if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        cache[date.dayNumber] = set
        lock.unlock()
        return set
    }

    public func isActive(_ service: Int, on date: ServiceDate) -> Bool {
        activeServices(on: date).contains(service)
    }

    /// Dates in [from, to] (inclusive) on which a service runs, ascending.
    public func dates(of service: Int, from: ServiceDate, through to: ServiceDate) -> [ServiceDate] {
        var result: [ServiceDate] = []
        var day = from
        while day <= to {
            if isActive(service, on: day) { result.append(day) }
            day = day.adding(days: 1)
        }
        return result
    }

    private func compute(_ date: ServiceDate) -> ServiceSet {
        var set = ServiceSet(capacity: serviceCount)
        for pattern in patterns where pattern.runs(on: date) {
            set.insert(pattern.service)
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
