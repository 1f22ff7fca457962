import DelayStore
import Foundation
import Synchronization
import TransitCore
import TransitModel

/// The realtime service's record of how late departures are (protocol/README.md flow 6): the departures
/// `DepartureCapture` finds in each applied trip-update and vehicle batch wait in memory and go to the `DelayStore`
/// every `flushInterval` seconds and at shutdown; `delay_histograms` queries are answered from the store
/// (the waiting samples written first).
public final class TypicalDelays: Sendable {
    /// Seconds between two writes of the waiting samples.
    public static let flushInterval: Int64 = 60

    private struct State: ~Copyable {
        var capture: DepartureCapture
        var pending: [DelaySample] = []
        var store: DelayStore?
        var lastFlush: Int64?
        var lastError: String?
    }

    private let state: Mutex<State>
    private let zone: ServiceTimeZone
    private let clock: @Sendable () -> Int64
    /// Where the store lives.
    public let path: String

    /// Opens the store at `path`; `timeZone` dates the hours and today's window; `clock` gives unix seconds.
    public init(path: String, timeZone: String, clock: @escaping @Sendable () -> Int64) throws {
        let zone = try ServiceTimeZone(identifier: timeZone)
        let store = try DelayStore(path: path)
        self.zone = zone
        self.path = path
        self.clock = clock
        state = Mutex(State(capture: DepartureCapture(zone: zone), store: store))
    }

    /// Records the departures of one applied batch: each (before, after) pair of a changed or removed
    /// instance. Cheap: the store is written by `flush`.
    func observe(_ transitions: [(old: LiveTrip?, new: LiveTrip?)], now: Int64) {
        state.withLock { s in
            for t in transitions { s.pending += s.capture.observe(old: t.old, new: t.new, now: now) }
        }
    }

    /// Records the departures a batch of changed vehicles shows: each position with the live instance it
    /// names (its schedule).
    func observe(positions: [(position: LiveVehicle, trip: LiveTrip)]) {
        state.withLock { s in
            for p in positions { s.pending += s.capture.observe(position: p.position, trip: p.trip) }
        }
    }

    /// The served calendar's day types, for the samples recorded from now on (flow 6).
    public func setDayTypes(_ dayTypes: DayTypeCalendar) {
        state.withLock { $0.capture.dayTypes = dayTypes }
    }

    /// The day types samples are recorded under now.
    public var dayTypes: DayTypeCalendar { state.withLock { $0.capture.dayTypes } }

    /// Samples waiting for the next write, held predictions included (tests).
    public var pendingCount: Int { state.withLock { $0.pending.count + $0.capture.heldCount } }

    /// Writes the waiting samples and drops what fell out of the window. Throws the store's error (the
    /// samples are kept for the next try).
    public func flush() throws {
        let now = clock()
        let today = zone.localDate(atUnix: now)
        try state.withLock { (s: inout State) throws in
            guard let store = s.store else { return }
            s.pending += s.capture.release(now: now)
            try store.add(s.pending)
            s.pending.removeAll(keepingCapacity: true)
            try store.prune(today: today)
            s.lastFlush = now
        }
    }

    /// `flush` when `flushInterval` has passed since the last one; returns an error message when it failed.
    public func flushIfDue() -> String? {
        let now = clock()
        let due = state.withLock { s in s.lastFlush.map { now - $0 >= Self.flushInterval } ?? true }
        guard due else { return nil }
        do {
            try flush()
            return nil
        } catch {
            state.withLock { $0.lastFlush = now }
            return "\(error)"
        }
    }

    /// Writes what waits and closes the store (at shutdown).
    public func close() throws {
        try flush()
        try state.withLock { (s: inout State) throws in
            try s.store?.checkpoint()
            s.store = nil
        }
    }

    /// Answers a `delay_histograms` query.
    func answer(_ slices: [DelaySlice]) -> Result<RealtimeResult, ServiceError> {
        guard (1...RealtimeQuery.maxDelaySlices).contains(slices.count) else {
            return .failure(
                ServiceError(
                    .invalidArgument, "slices: 1…\(RealtimeQuery.maxDelaySlices) expected, got \(slices.count)"))
        }
        for (i, slice) in slices.enumerated() {
            if slice.routeId == nil && slice.stopId == nil {
                return .failure(ServiceError(.invalidArgument, "slices[\(i)]: give route_id, stop_id or both"))
            }
            if let hour = slice.hour, !(0..<24).contains(hour) {
                return .failure(ServiceError(.invalidArgument, "slices[\(i)].hour: 0…23 expected, got \(hour)"))
            }
        }
        let today = zone.localDate(atUnix: clock())
        do {
            try flush()
            return try state.withLock { (s: inout State) throws -> Result<RealtimeResult, ServiceError> in
                guard let store = s.store else {
                    return .failure(ServiceError(.unavailable, "the delay store is closed"))
                }
                return .success(.delayHistograms(try slices.map { try store.histogram($0, today: today) }))
            }
        } catch {
            return .failure(ServiceError(.internal, "delay store \(path): \(error)"))
        }
    }
}
