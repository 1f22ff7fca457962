import Foundation
import GTFSRealtime
import Logging
import ProcessSupport
import RealtimeCore
import TransitModel

/// The realtime service's processing: source events in, published changes out.
///
/// For fetched bytes: decode (a failure is counted on the source, whose state is kept), screen (older or
/// identical feeds stop here), fetch the schedules of trips not cached (one bulk request to the static
/// service), resolve and apply (`LiveState`), publish the changes (`RealtimeHub`). A bulk answer or a
/// periodic feed_info check with a new database version drops the cache and resolves everything again.
///
/// Events are processed one at a time, in arrival order (callers wait their turn: a slow engine slows
/// polling instead of piling up feeds).
///
/// The engine runs on the shared concurrency pool, at normal priority: on its own nice-10 thread a full update
/// took 10–15 ms longer even on an idle machine (BENCHMARKS.md, "Answering while a full update is applied"),
/// and answers did not need it (they stay within target while updates land, with or without it).
public actor RealtimeEngine {
    /// Feeds of at least this many bytes are followed by `ProcessMemory.trim()` (4 MiB: ~2,500 trip updates),
    /// at most once per `trimInterval`.
    public static let largeFeedBytes = 4 << 20
    /// The least time between two trims. A trim hands the decode's freed memory back to the kernel, and the next
    /// update faults it all in again: after every 4.75 MB feed that cost the benchmark's full update 40 % (p50
    /// 60 → 102 ms, BENCHMARKS.md). Once a minute bounds the resident size just as well for feeds polled every
    /// 15–30 s, and at most one update a minute pays for it.
    public static let trimInterval: Duration = .seconds(60)
    private var lastTrim: ContinuousClock.Instant?

    /// The engine's tunables (`RealtimeServiceConfiguration.engine`). A type of the engine's own, not fields of
    /// the service's configuration, because tests and the benchmarks (RealtimeBench) make engines without a
    /// service.
    public struct Options: Sendable {
        /// Largest feed body decoded from any source, bytes (a source may set less). Default 64 MiB
        /// (`GTFSRealtimeCodec.defaultMaxBytes`).
        public var maxFeedBytes: Int
        /// How often `tick` asks the static service for its database version, seconds. Default 30.
        public var versionCheckSecs: Int64
        /// Most trip ids per bulk request. Default 10,000.
        public var scheduleChunk: Int

        public init(
            maxFeedBytes: Int = GTFSRealtimeCodec.defaultMaxBytes, versionCheckSecs: Int64 = 30,
            scheduleChunk: Int = 10_000
        ) {
            self.maxFeedBytes = maxFeedBytes
            self.versionCheckSecs = versionCheckSecs
            self.scheduleChunk = scheduleChunk
        }
    }

    public let hub: RealtimeHub
    private let schedules: any ScheduleSource
    private let options: Options
    /// IANA zone whose calendar dates bound the schedule queries (yesterday … tomorrow around now).
    private let timeZone: String
    private let logger: Logger
    private let clock: @Sendable () -> Int64
    private var state: LiveState
    private var cache = ScheduleCache()
    private var lastVersionCheck: Int64?
    /// The last failure talking to the static service (logged once per change).
    private var staticError: String?

    // A FIFO lock around `handle` and `tick`. An actor runs one call at a time only between suspension
    // points: while one feed update awaits the static service (bulk schedules, feed_info), another call would
    // run on the half-updated state. So each entry point first takes its turn here (`acquire`), in arrival
    // order, and hands it to the next waiter when done (`release`). Not one task draining an AsyncStream of
    // events: callers await their own event's processing (a slow engine slows the pollers instead of queueing
    // feeds without bound; tests and the benchmarks measure `await handle(...)`), which a stream would need a
    // continuation per event and a task to start and stop for; this is the same queue without them.
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init(
        sources: [SourceSettings], hub: RealtimeHub, schedules: any ScheduleSource, timeZone: String,
        options: Options = Options(), logger: Logger,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) throws(LiveStateError) {
        state = try LiveState(sources: sources)
        self.hub = hub
        self.schedules = schedules
        self.options = options
        self.timeZone = timeZone
        self.logger = logger
        self.clock = clock
    }

    // MARK: entry points

    /// Processes one source event (waits for the events before it).
    public func handle(_ event: FeedEvent) async {
        await acquire()
        defer { release() }
        await process(event)
    }

    /// Periodic work (call every second or so): staleness flips, the day's schedule window, and the
    /// static database version check.
    public func tick() async {
        await acquire()
        defer { release() }
        let now = clock()
        if state.refreshStaleness(now: now) { publishStatuses(now: now) }
        if let window = TripUpdateResolver.serviceDates(around: now, timeZone: timeZone) {
            cache.use(dates: window)
        }
        if lastVersionCheck.map({ now - $0 >= options.versionCheckSecs }) ?? true {
            lastVersionCheck = now
            await checkDatabaseVersion(now: now)
        }
    }

    /// Takes a new list of sources (`LiveState.replaceSources`: unchanged sources keep their state) and
    /// publishes what left the merged view with every source's status. Waits for the events before it; on an
    /// error nothing changes.
    public func replaceSources(with settings: [SourceSettings]) async throws(LiveStateError) {
        await acquire()
        defer { release() }
        publish(try state.replaceSources(with: settings))
    }

    /// Every source's status now.
    public func statuses() -> [LiveSourceStatus] { state.statuses(now: clock()) }

    /// The static database version the cache holds (nil before the first answer).
    public var databaseVersion: String? { cache.databaseVersion }

    // MARK: processing

    private func process(_ event: FeedEvent) async {
        guard let source = state.sourceIndex(named: event.source) else {
            logger.warning("event of an unknown source ignored", metadata: ["source": "\(event.source)"])
            return
        }
        switch event {
        case .failed(_, let message, let at):
            logger.info("fetch failed", metadata: ["source": "\(event.source)", "error": "\(message)"])
            publish(state.recordFailure(source: source, message: message, at: at))
        case .notModified(_, let at):
            publish(state.recordNotModified(source: source, at: at))
        case .fetched(_, let bytes, let at):
            await ingest(bytes, source: source, fetchedAt: at)
            // The decode's transient memory is free again by now: hand it back. The service's malloc keeps
            // freed memory (mallopt at startup, for the speed of repeated decodes), so after one 34 MB feed the
            // resident size stayed at its 319 MB peak; feeds under `largeFeedBytes` keep that fast path.
            if bytes.count >= Self.largeFeedBytes {
                let now = ContinuousClock.now
                if lastTrim.map({ now - $0 >= Self.trimInterval }) ?? true {
                    lastTrim = now
                    ProcessMemory.trim()
                }
            }
        }
    }

    private func ingest(_ bytes: [UInt8], source: Int, fetchedAt: Int64) async {
        let started = ContinuousClock.now
        let feed: FeedMessage
        do {
            feed = try GTFSRealtimeCodec.decode(
                bytes, maxBytes: min(options.maxFeedBytes, state.settings(of: source).maxBytes))
        } catch {
            logger.info(
                "feed refused", metadata: ["source": "\(state.settings(of: source).name)", "error": "\(error)"])
            publish(state.recordRefusedBody(source: source, message: error.description, at: fetchedAt))
            return
        }
        let hash = Self.hash(bytes)
        guard state.screen(feed, bodyHash: hash, source: source, fetchedAt: fetchedAt) else {
            publishStatuses(now: clock())
            return
        }
        let now = clock()
        if await fetchSchedules(state.scheduleNeeds(of: feed, source: source), now: now) {
            await resolveEverythingAgain(now: now)
        }
        let decoded = ContinuousClock.now
        let changes = state.apply(
            feed, bodyHash: hash, source: source, fetchedAt: fetchedAt, schedules: cache, now: now)
        let applied = ContinuousClock.now
        publish(changes)
        // When each update landed and what it cost (prepare: decode, screen, schedules; the load benchmark
        // lines answers up with these).
        logger.debug(
            "feed applied",
            metadata: [
                "source": "\(state.settings(of: source).name)", "bytes": "\(bytes.count)",
                "trips": "\(changes.trips.count)", "removed_trips": "\(changes.removedTrips.count)",
                "vehicles": "\(changes.vehicles.count)", "alerts": "\(changes.alerts.count)",
                "prepare_ms": "\(Self.millis(decoded - started))", "apply_ms": "\(Self.millis(applied - decoded))",
                "publish_ms": "\(Self.millis(ContinuousClock.now - applied))",
            ])
    }

    private static func millis(_ d: Duration) -> Int64 {
        d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
    }

    /// Fetches the schedules of the trip ids not cached, and the matches of the descriptors without trip_id
    /// not cached (with the matched trips' schedules, in the same answer). Returns true when an answer
    /// carried a new database version (the cache was emptied: everything held must be resolved again).
    private func fetchSchedules(_ needs: ScheduleNeeds, now: Int64) async -> Bool {
        guard let window = TripUpdateResolver.serviceDates(around: now, timeZone: timeZone) else {
            note(staticError: "unknown time zone \"\(timeZone)\"")
            return false
        }
        cache.use(dates: window)
        var versionChanged = false
        // Trips that cached matches name need their schedules too (the date window may have moved on).
        var missing = cache.missing(
            needs.descriptors.isEmpty ? needs.tripIds : needs.tripIds + cache.matchedTripIds(needs.descriptors))
        var missingDescriptors = cache.missing(descriptors: needs.descriptors)
        // A version change midway empties the cache, so what earlier chunks brought is asked again (once).
        for _ in 0..<2 where !missing.isEmpty || !missingDescriptors.isEmpty {
            let versionBefore = cache.databaseVersion
            var start = 0, startDescriptor = 0
            while start < missing.count || startDescriptor < missingDescriptors.count {
                let chunk = Array(missing[start..<min(start + options.scheduleChunk, missing.count)])
                start += chunk.count
                let descriptors = Array(
                    missingDescriptors[
                        startDescriptor..<min(startDescriptor + options.scheduleChunk, missingDescriptors.count)])
                startDescriptor += descriptors.count
                do {
                    // Patterns already held are named so the answer leaves them out (protocol/README.md flow 2).
                    let known = cache.databaseVersion == nil ? [] : cache.patternIds
                    let answer = try await schedules.tripSchedules(
                        TripSchedulesQuery(
                            tripIds: chunk, fromDate: window.lowerBound, toDate: window.upperBound,
                            knownPatternIds: known, knownDatabaseVersion: known.isEmpty ? nil : cache.databaseVersion,
                            descriptors: descriptors))
                    if cache.add(answer, descriptors: descriptors) { versionChanged = true }
                    note(staticError: nil)
                } catch {
                    note(staticError: "\(error)")
                    return versionChanged
                }
            }
            if cache.databaseVersion != versionBefore {
                hub.setDatabaseVersion(cache.databaseVersion)
            }
            if versionChanged {
                missing = cache.missing(needs.tripIds)
                missingDescriptors = cache.missing(descriptors: needs.descriptors)
            } else {
                missing = []
                missingDescriptors = []
            }
        }
        return versionChanged
    }

    private func resolveEverythingAgain(now: Int64) async {
        logger.info(
            "static database changed: resolving the live trip updates again",
            metadata: ["database_version": "\(cache.databaseVersion ?? "?")"])
        _ = await fetchSchedules(state.heldNeeds, now: now)
        publish(state.resolveAgain(schedules: cache, now: now))
    }

    private func checkDatabaseVersion(now: Int64) async {
        let version: String
        do {
            let info = try await schedules.feedInfo()
            version = info.databaseVersion
            // The day types samples are recorded under follow the served calendar (flow 6).
            hub.delays?.setDayTypes(info.dayTypes)
            note(staticError: nil)
        } catch {
            note(staticError: "\(error)")
            return
        }
        guard let cached = cache.databaseVersion else {
            hub.setDatabaseVersion(version)
            return
        }
        guard cached != version else { return }
        cache.clear()
        hub.setDatabaseVersion(version)
        await resolveEverythingAgain(now: now)
    }

    // MARK: helpers

    private func publish(_ changes: LiveChanges) {
        hub.publish(changes, sources: changes.sourcesChanged ? state.statuses(now: clock()) : nil)
    }

    private func publishStatuses(now: Int64) {
        var changes = LiveChanges()
        changes.sourcesChanged = true
        hub.publish(changes, sources: state.statuses(now: now))
    }

    private func note(staticError error: String?) {
        guard error != staticError else { return }
        staticError = error
        if let error {
            logger.warning(
                "static service unavailable: trips not cached cannot be resolved", metadata: ["error": "\(error)"])
        } else {
            logger.info("static service answers again")
        }
    }

    package static func hash(_ bytes: [UInt8]) -> Int {
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        return hasher.finalize()
    }

    /// Waits until no other `handle` or `tick` runs, then runs (first come, first served).
    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Hands the turn to the longest waiter, or frees it.
    private func release() {
        if waiters.isEmpty { busy = false } else { waiters.removeFirst().resume() }  // handed over: stays busy
    }
}
