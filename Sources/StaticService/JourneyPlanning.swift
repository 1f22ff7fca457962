import CoreMetrics
import Foundation
import JourneyPlanner
import Logging
import ProcessSupport
import Synchronization
import TransitCore
import TransitModel
import TransitStore

/// The static service's journey planner (protocol/README.md flow 8): the `JourneyPlanner` timetable of the
/// database being served, built in memory on a thread of its own, and the `plan` answers on it.
///
/// - The timetable holds the service dates around the service clock's today (`StaticStore.plannerDates`). When
///   the database version or that window changes, a new one is built in the background while the old one keeps
///   answering (with the store it was built from: a plan's legs are named from the same database as its
///   search), then swapped in: no pause in answers.
/// - The live trips followed from the realtime stream (`PlannerLiveFeed`) are laid over the timetable
///   (`updateLive`, `Timetable.applying`: only the patterns of changed runs are rebuilt) and the result swapped in
///   beside the scheduled one; a new timetable gets them laid over before it is swapped in. A plan with `realtime`
///   searches the live one while the realtime publisher was heard within `liveSilence`, else the schedule, and
///   says which (`realtimeUsed`).
/// - When the live timetable rides faster than its landmarks' graph by `landmarksDeficit` or more (real feeds'
///   predictions recover delays and put consecutive stops at the same second), its landmarks are found again over
///   its live rides on a thread of their own (`Timetable.refreshingLandmarks`), at most once per
///   `landmarksInterval`, and swapped in with the latest live trips laid over them: the search's bounds stay tight.
/// - A plan whose dates the window does not hold (a later day, or the late evening of its last day) is searched
///   on a timetable of just the dates it needs, without live trips (`far`): built on a thread of its own at the
///   first such plan, which waits for it at most its budget (then UNAVAILABLE, "try again"); one at a time, kept
///   while plans use it and dropped `farIdle` after the last. A time outside the feed's service dates is answered
///   `journeys: []` with a reason.
/// - At most `maxConcurrent` plans search at once; one more waits for one of them at most its budget, then is
///   refused with UNAVAILABLE (the service has `maxConcurrent` request workers added for plans, so boards keep
///   their own while plans are answered at that rate).
public final class JourneyPlanning: Sendable {
    /// A built timetable with the store it was read from and the names of its indexes.
    struct Built: Sendable {
        let store: StaticStore
        let dates: ClosedRange<GTFSDate>
        let timetable: Timetable
        let stopIds: [String]
        let tripIds: [String]
        let stopIndex: [String: Int]
        let zone: ServiceTimeZone
        var timezone: String { zone.identifier }
        /// How the realtime service's trip instances map onto the timetable's indexes; nil for a far timetable
        /// (dates outside the window), which no live trips are laid over.
        let conversion: LiveTripsConversion?
        /// The timetable with the live trips laid over it; nil before a live state came.
        var live: Timetable?
        var far: Bool { conversion == nil }
        var version: String { store.databaseVersion }
    }

    /// The live trips last handed over by the feed.
    private struct LiveInput: Sendable {
        var trips: [TripInstanceKey: LiveTrip]
        var staleSources: Set<String>
    }

    private struct State: Sendable {
        var built: Built?
        /// When the realtime publisher was last heard (nil: never).
        var realtimeHeard: ContinuousClock.Instant?
        /// The version and dates being built now.
        var building: (version: String, dates: ClosedRange<GTFSDate>)?
        /// The timetable of the dates outside the window plans last asked for, when they last did, and which
        /// build of it this is (the idle check of an older one leaves it alone).
        var far: Built?
        var farUsed = ContinuousClock.now
        var farGeneration = 0
        /// The version and dates of the far timetable being built now, and the earliest the next build may start.
        var farBuilding: (version: String, dates: ClosedRange<GTFSDate>)?
        var farNextBuild: ContinuousClock.Instant?
        /// The last far build, when it failed: its version, dates and error (plans for them are told so, not made
        /// to wait, until the next build may start).
        var farFailed: (version: String, dates: ClosedRange<GTFSDate>, error: String)?
        /// Whether landmarks are being found again now, and when that last started.
        var refreshingLandmarks = false
        var landmarksRefreshed: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    /// What `report` counts (builds, live updates, refusals, cut plans), apart from `state`: counting never waits
    /// for a plan's choice of timetable.
    private let counts = Mutex(PlannerReport.Counts())
    /// Each live state laid over, as a histogram (`serve --metrics`): a full update is meant to take at most 50 ms
    /// at p95 (BENCHMARKS.md).
    private let liveUpdateDuration = CoreMetrics.Timer(
        label: "transit_static_planner_live_update_duration_seconds", preferredDisplayUnit: .seconds)
    /// The latest live trips; its lock also orders the overlays (a live update and a new timetable's swap never
    /// interleave, so the timetable swapped in always carries the latest live trips). Taken before `state`.
    private let liveInput = Mutex<LiveInput?>(nil)
    /// The realtime publisher silent this long: plans use the schedule (`realtime_stale`).
    let liveSilence: Duration
    /// The planner's workers: a plan takes one for its search.
    private let workers: DispatchSemaphore
    /// The searches' arrays, one per worker, kept between plans (rounds × stops labels: tens of MiB at NSW
    /// scale, allocated and cleared per query otherwise).
    private let workspaces = Mutex<[WorkspaceBox]>([])
    public let maxConcurrent: Int
    /// How long a plan waits for the first timetable before answering UNAVAILABLE.
    let firstBuildWait: Duration
    private let logger: Logger
    private let now: @Sendable () -> Int64
    /// The live deficit (seconds per trip, `Timetable.liveDeficit`) from which the landmarks are found again.
    let landmarksDeficit: Int32
    /// The least time between two starts of finding the landmarks again (each costs about 0.5 s of every core at
    /// NSW scale).
    let landmarksInterval: Duration
    /// How long the far timetable stays after the last plan that used it (hundreds of MiB at NSW scale).
    let farIdle: Duration
    /// The largest share of one core far builds may take over time (each takes a core for about 2 s at NSW scale,
    /// a few milliseconds on the sample feed): after a build of d, the next waits d × (1 / share − 1), so plans
    /// asking for ever other dates cannot keep a core building, and a small feed's plans on other dates hardly
    /// wait at all.
    let farBuildShare: Double
    /// The least time between a failed far build's start and the next one's.
    let farRetryInterval: Duration
    /// Called on the build thread as a timetable's build starts (the window's or a far one), with the database
    /// version and the dates: tests hold a build there, or fail it by throwing.
    let buildStarting: @Sendable (String, ClosedRange<GTFSDate>) throws -> Void

    public init(
        maxConcurrent: Int, logger: Logger, firstBuildWait: Duration = .seconds(20),
        liveSilence: Duration = .seconds(15), landmarksDeficit: Int32 = 60, landmarksInterval: Duration = .seconds(60),
        farIdle: Duration = .seconds(600), farBuildShare: Double = 0.2, farRetryInterval: Duration = .seconds(10),
        buildStarting: @escaping @Sendable (String, ClosedRange<GTFSDate>) throws -> Void = { _, _ in },
        now: @escaping @Sendable () -> Int64
    ) {
        self.farIdle = farIdle
        self.farBuildShare = min(1, max(0.01, farBuildShare))
        self.farRetryInterval = farRetryInterval
        self.buildStarting = buildStarting
        self.landmarksDeficit = landmarksDeficit
        self.landmarksInterval = landmarksInterval
        self.liveSilence = liveSilence
        self.maxConcurrent = max(1, maxConcurrent)
        workers = DispatchSemaphore(value: self.maxConcurrent)
        self.logger = logger
        self.firstBuildWait = firstBuildWait
        self.now = now
    }

    /// The version of the timetable plans are answered on (nil before the first is built).
    public var timetableVersion: String? { state.withLock { $0.built?.version } }

    /// Starts building the timetable of `store` in the background unless the current one (or the one being
    /// built) is of its version and window.
    public func refresh(_ store: StaticStore) {
        let dates = store.plannerDates(aroundUnix: now())
        let version = store.databaseVersion
        let start = state.withLock { s -> Bool in
            if let b = s.built, b.version == version, b.dates == dates { return false }
            if let b = s.building, b.version == version, b.dates == dates { return false }
            s.building = (version, dates)
            return true
        }
        guard start else { return }
        let thread = Thread { [self] in build(store, dates: dates) }
        thread.name = "planner-build"
        thread.start()
    }

    /// The timetable of `store`'s `dates`, with the names of its indexes; `far`: without the mapping of live trip
    /// instances (a far timetable gets none laid over it).
    private static func make(_ store: StaticStore, dates: ClosedRange<GTFSDate>, far: Bool = false) throws(StoreError)
        -> Built
    {
        let input = try store.plannerInput(dates: dates)
        let timetable = Timetable(input.source)
        var stopIndex: [String: Int] = [:]
        stopIndex.reserveCapacity(input.stopIds.count)
        for (i, id) in input.stopIds.enumerated() where !id.isEmpty { stopIndex[id] = i }
        var conversion: LiveTripsConversion?
        if !far {
            var tripIndex: [String: Int] = [:]
            tripIndex.reserveCapacity(input.tripIds.count)
            for (i, id) in input.tripIds.enumerated() { tripIndex[id] = i }
            var routeModes: [String: Mode] = [:]
            for (i, route) in input.routeIds.enumerated() { routeModes[route] = input.source.trips[i].mode }
            conversion = LiveTripsConversion(
                timetable: timetable, tripIndex: tripIndex, stopIndex: stopIndex,
                tripModes: input.source.trips.map(\.mode), routeModes: routeModes)
        }
        return Built(
            store: store, dates: dates, timetable: timetable, stopIds: input.stopIds, tripIds: input.tripIds,
            stopIndex: stopIndex, zone: store.plannerZone, conversion: conversion)
    }

    private func build(_ store: StaticStore, dates: ClosedRange<GTFSDate>) {
        let started = ContinuousClock.now
        let version = store.databaseVersion
        do {
            try buildStarting(version, dates)
            var built = try Self.make(store, dates: dates)
            let timetable = built.timetable
            liveInput.withLock { live in
                if let live { built.live = overlay(live, on: built) }
                state.withLock { s in
                    s.built = built
                    if let b = s.building, b.version == version, b.dates == dates { s.building = nil }
                }
            }
            if let live = built.live { refreshLandmarksIfWeak(live, of: built) }
            let elapsed = started.duration(to: .now)
            counts.withLock {
                $0.windowBuilds += 1
                $0.lastWindowBuildSeconds = elapsed.inSeconds
            }
            logger.info(
                "planner timetable built",
                metadata: [
                    "database_version": "\(version)", "dates": "\(dates.lowerBound)…\(dates.upperBound)",
                    "runs": "\(timetable.runCount)", "routes": "\(timetable.routeCount)",
                    "footpaths": "\(timetable.footpathCount)", "bytes": "\(timetable.memoryEstimate)",
                    "elapsed_ms": "\(Int(elapsed / .milliseconds(1)))",
                ])
            // The previous timetable (hundreds of MB at NSW scale) is gone unless a plan still reads it: give its
            // memory back (the service keeps freed memory for the live updates' churn, `keepFreedMemory`).
            ProcessMemory.trim()
        } catch {
            state.withLock { s in
                if let b = s.building, b.version == version, b.dates == dates { s.building = nil }
            }
            counts.withLock { $0.windowBuildFailures += 1 }
            logger.error(
                "building the planner timetable failed; plans use the previous one",
                metadata: ["database_version": "\(version)", "error": "\(error)"])
        }
    }

    // MARK: live trips

    /// The realtime publisher was heard (any PUB message): live plans may go on.
    func noteRealtimeHeard() {
        state.withLock { $0.realtimeHeard = .now }
    }

    /// Lays `trips` (the latest state of every live trip instance) over the timetable and swaps the result in.
    /// Runs on the caller's thread (the realtime subscriber's).
    func updateLive(_ trips: [TripInstanceKey: LiveTrip], staleSources: Set<String>) {
        let laid: (Timetable, Built)? = liveInput.withLock { live in
            live = LiveInput(trips: trips, staleSources: staleSources)
            guard let built = state.withLock({ $0.built }) else { return nil }
            let timetable = overlay(live!, on: built)
            return state.withLock { s in
                // Only the timetable it was made for (a new one is built under the same lock, so it is).
                guard s.built?.version == built.version, s.built?.dates == built.dates else { return nil }
                s.built?.live = timetable
                return (timetable, built)
            }
        }
        if let (timetable, built) = laid { refreshLandmarksIfWeak(timetable, of: built) }
    }

    /// Starts finding `live`'s landmarks again in the background when its deficit reached `landmarksDeficit`, none
    /// is being found and the last start is `landmarksInterval` ago.
    private func refreshLandmarksIfWeak(_ live: Timetable, of built: Built) {
        guard live.liveDeficit >= landmarksDeficit else { return }
        let start = state.withLock { s -> Bool in
            guard !s.refreshingLandmarks else { return false }
            if let last = s.landmarksRefreshed, ContinuousClock.now - last < landmarksInterval { return false }
            s.refreshingLandmarks = true
            s.landmarksRefreshed = .now
            return true
        }
        guard start else { return }
        let (version, dates) = (built.version, built.dates)
        let thread = Thread { [self] in
            let started = ContinuousClock.now
            let refreshed = live.refreshingLandmarks()
            liveInput.withLock { input in
                defer { state.withLock { $0.refreshingLandmarks = false } }
                guard let input, var current = state.withLock({ $0.built }), current.version == version,
                    current.dates == dates
                else { return }
                // The live trips that came meanwhile laid over the refreshed timetable (only the runs whose live
                // state changed since are rebuilt; their deficit is measured against the new landmarks).
                current.live = refreshed
                counts.withLock { $0.landmarkRefreshes += 1 }
                let timetable = overlay(input, on: current)
                state.withLock { s in
                    if s.built?.version == version, s.built?.dates == dates { s.built?.live = timetable }
                }
                logger.info(
                    "planner landmarks found again over the live rides",
                    metadata: [
                        "deficit_before_s": "\(live.liveDeficit)", "deficit_after_s": "\(timetable.liveDeficit)",
                        "elapsed_ms": "\(Int(started.duration(to: .now) / .milliseconds(1)))",
                    ])
            }
        }
        thread.name = "planner-landmarks"
        thread.start()
    }

    /// The live timetable plans search now (nil before a live state came).
    var liveTimetable: Timetable? { state.withLock { $0.built?.live } }

    /// `built`'s timetable with `live` laid over it, starting from its current live one (only the runs whose
    /// live state changed are rebuilt).
    private func overlay(_ live: LiveInput, on built: Built) -> Timetable {
        guard let conversion = built.conversion else { return built.live ?? built.timetable }
        let started = ContinuousClock.now
        let trips = conversion.convert(live.trips, staleSources: live.staleSources)
        let (timetable, problems) = (built.live ?? built.timetable).applying(trips)
        let elapsed = started.duration(to: .now)
        liveUpdateDuration.recordSeconds(elapsed.inSeconds)
        counts.withLock {
            $0.liveUpdates += 1
            $0.lastLiveUpdateSeconds = elapsed.inSeconds
            $0.liveRuns = trips.runs.count
            $0.liveAddedTrips = trips.added.count
        }
        logger.debug(
            "live trips laid over the planner's timetable",
            metadata: [
                "instances": "\(live.trips.count)", "runs": "\(trips.runs.count)", "added": "\(trips.added.count)",
                "problems": "\(problems.count)", "first_problem": "\(problems.first?.description ?? "-")",
                "elapsed_ms": "\(Int(elapsed / .milliseconds(1)))",
            ])
        return timetable
    }

    /// Whether plans may use the live timetable now: the publisher heard within `liveSilence`.
    private var realtimeCurrent: Bool {
        state.withLock { s in s.realtimeHeard.map { ContinuousClock.now - $0 < liveSilence } ?? false }
    }

    /// The answer to `request` and the database version it was planned on. `store` is the database being
    /// served (a newer one starts a rebuild; the plan is answered on the timetable at hand meanwhile).
    func answer(_ request: PlanRequest, servedStore store: StaticStore) -> (Result<StaticResult, ServiceError>, String?)
    {
        refresh(store)
        // A plan waits for one of the planner's workers, and for a far timetable, at most its own budget in all
        // (then searches at most its budget: the gateway's static timeout is twice the default budget).
        let waitUntil = ContinuousClock.now + .milliseconds(request.budgetMilliseconds)
        guard workers.wait(timeout: .now() + .milliseconds(request.budgetMilliseconds)) == .success else {
            counts.withLock { $0.refusedBusy += 1 }
            return (
                .failure(
                    ServiceError(
                        .unavailable,
                        "the planner is busy: its \(maxConcurrent) workers stayed taken for the plan's budget (\(request.budgetMilliseconds) ms); try again"
                    )),
                nil
            )
        }
        defer { workers.signal() }
        guard let window = waitForTimetable() else {
            counts.withLock { $0.refusedBuilding += 1 }
            return (.failure(ServiceError(.unavailable, "the planner's timetable is being built; try again")), nil)
        }
        let built: Built
        switch timetable(for: request, window: window, waitUntil: waitUntil) {
        case .built(let b):
            built = b
        case .outside(let reason):
            // No search, so nothing the realtime stream's silence could have changed (`realtime_stale` only then).
            let empty = PlanAnswer(
                journeys: [], cut: false, reason: reason, laterAt: nil,
                realtimeUsed: request.realtime && realtimeCurrent, timezone: window.timezone)
            return (.success(.plan(empty)), window.version)
        case .unavailable(let message):
            counts.withLock { $0.refusedFar += 1 }
            return (.failure(ServiceError(.unavailable, message)), window.version)
        }
        let workspace = workspaces.withLock { $0.popLast() } ?? WorkspaceBox()
        defer { workspaces.withLock { $0.append(workspace) } }
        do throws(ServiceError) {
            return (.success(.plan(try plan(request, on: built, workspace: workspace.workspace))), built.version)
        } catch {
            return (.failure(error), built.version)
        }
    }

    private enum TimetableChoice {
        case built(Built)
        /// `journeys: []` with this reason.
        case outside(String)
        /// UNAVAILABLE with this message: the far timetable is being built, or its build failed.
        case unavailable(String)
    }

    /// The timetable `request` is searched on: the window's when it holds every date the plan needs, else the far
    /// one when it holds them (a rider's later journeys that day), else a far one of those dates built now (waited
    /// for until `waitUntil`).
    private func timetable(for request: PlanRequest, window: Built, waitUntil: ContinuousClock.Instant)
        -> TimetableChoice
    {
        let store = window.store
        let instant = request.arriveBy ?? request.at ?? now()
        let dates = store.plannerDates(forPlanAt: instant, arriveBy: request.arriveBy != nil)
        func holds(_ held: ClosedRange<GTFSDate>) -> Bool {
            held.lowerBound <= dates.lowerBound && dates.upperBound <= held.upperBound
        }
        if holds(window.dates) { return .built(window) }
        let service = store.serviceDates
        guard let service, dates.lowerBound <= service.upperBound, service.lowerBound <= dates.upperBound else {
            let span = service.map { "\($0.lowerBound) to \($0.upperBound)" } ?? "none"
            return .outside("the time is outside the feed's service dates (\(span))")
        }
        let version = store.databaseVersion
        // One far timetable at a time: a plan for other dates waits for the one being built, then builds its own
        // (once `farNextBuild` has passed). One whose dates the far timetable holds is searched on it.
        var waitForNext: Duration = .zero
        while true {
            let (far, start, failed) = state.withLock { s -> (Built?, Bool, String?) in
                if let far = s.far, far.version == version, holds(far.dates) {
                    s.farUsed = .now
                    return (far, false, nil)
                }
                let now = ContinuousClock.now
                waitForNext = s.farNextBuild.map { max(.zero, $0 - now) } ?? .zero
                guard s.farBuilding == nil, waitForNext == .zero else {
                    // The last build of these dates failed and the next may not start yet: no use waiting.
                    let failed = s.farBuilding == nil ? s.farFailed : nil
                    return (nil, false, failed.flatMap { $0.version == version && $0.dates == dates ? $0.error : nil })
                }
                s.farBuilding = (version, dates)
                return (nil, true, nil)
            }
            if let far { return .built(far) }
            if let failed {
                return .unavailable(
                    "the planner could not build the timetable of \(dates.lowerBound) to \(dates.upperBound) for this "
                        + "time (\(failed)); it tries again at most every \(farRetryInterval.components.seconds) s "
                        + "(it holds \(window.dates.lowerBound) to \(window.dates.upperBound) ready)")
            }
            if start {
                let thread = Thread { [self] in buildFar(store, dates: dates) }
                thread.name = "planner-far-build"
                thread.start()
            }
            guard ContinuousClock.now < waitUntil else { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        let building = state.withLock { s in s.farBuilding.map { $0.version == version ? $0.dates : nil } }
        let what: String
        switch building {
        case .some(.some(let building)) where holds(building):
            what =
                "the planner is building the timetable of \(building.lowerBound) to \(building.upperBound) for this time"
        case .some(let building):
            what =
                "the planner builds one timetable of other dates at a time and is building "
                + (building.map { "that of \($0.lowerBound) to \($0.upperBound)" } ?? "one for an older database")
                + "; this time needs \(dates.lowerBound) to \(dates.upperBound)"
        case .none:
            let seconds = Double(waitForNext / .milliseconds(1)) / 1000
            what =
                "the planner spends at most \(Int((farBuildShare * 100).rounded())) % of a core on timetables of "
                + "other dates and may start the next in \(String(format: "%.1f", seconds)) s; this time needs "
                + "\(dates.lowerBound) to \(dates.upperBound)"
        }
        return .unavailable(
            what
                + " (it holds \(window.dates.lowerBound) to \(window.dates.upperBound) ready); try again in a few seconds"
        )
    }

    /// Builds the far timetable of `dates` and swaps it in, then drops it once no plan used it for `farIdle`.
    private func buildFar(_ store: StaticStore, dates: ClosedRange<GTFSDate>) {
        guard let generation = swapInFar(store, dates: dates) else { return }
        // The previous far timetable, if any, is gone unless a plan still reads it (this thread holds neither).
        ProcessMemory.trim()
        while true {
            let idle = state.withLock { s -> Duration? in
                guard s.farGeneration == generation else { return nil }
                return ContinuousClock.now - s.farUsed
            }
            guard let idle else { return }  // replaced: the newer one's thread watches it
            if idle >= farIdle {
                state.withLock { s in if s.farGeneration == generation { s.far = nil } }
                logger.info(
                    "planner timetable for dates outside the window dropped, unused",
                    metadata: ["dates": "\(dates.lowerBound)…\(dates.upperBound)"])
                ProcessMemory.trim()
                return
            }
            Thread.sleep(forTimeInterval: min(30, max(0.01, Double((farIdle - idle) / .milliseconds(1)) / 1000)))
        }
    }

    /// Builds the far timetable of `dates` and swaps it in; its generation, nil when the build failed.
    private func swapInFar(_ store: StaticStore, dates: ClosedRange<GTFSDate>) -> Int? {
        let started = ContinuousClock.now
        let built: Built
        do {
            try buildStarting(store.databaseVersion, dates)
            built = try Self.make(store, dates: dates, far: true)
        } catch {
            state.withLock { s in
                s.farBuilding = nil
                s.farFailed = (store.databaseVersion, dates, "\(error)")
                s.farNextBuild = started + farRetryInterval
            }
            counts.withLock { $0.farBuildFailures += 1 }
            logger.error(
                "building the planner timetable for dates outside the window failed",
                metadata: ["dates": "\(dates.lowerBound)…\(dates.upperBound)", "error": "\(error)"])
            return nil
        }
        let ended = ContinuousClock.now
        let generation = state.withLock { s -> Int in
            s.far = built
            s.farUsed = ended
            s.farBuilding = nil
            s.farNextBuild = ended + (ended - started) * (1 / farBuildShare - 1)
            s.farFailed = nil
            s.farGeneration += 1
            return s.farGeneration
        }
        counts.withLock {
            $0.farBuilds += 1
            $0.lastFarBuildSeconds = (ended - started).inSeconds
        }
        logger.info(
            "planner timetable built for dates outside the window",
            metadata: [
                "database_version": "\(store.databaseVersion)", "dates": "\(dates.lowerBound)…\(dates.upperBound)",
                "runs": "\(built.timetable.runCount)", "bytes": "\(built.timetable.memoryEstimate)",
                "elapsed_ms": "\(Int((ended - started) / .milliseconds(1)))",
            ])
        return generation
    }

    /// What an operator watches of the planner (`transit-static serve --metrics`): the timetables held, their
    /// builds, the live updates laid over, and the plans refused or cut.
    public var report: PlannerReport {
        // Measured outside the lock plans take (a walk over every route and pattern).
        let (window, far) = state.withLock { ($0.built, $0.far) }
        return PlannerReport(
            window: window.map(PlannerReport.Held.init), far: far.map(PlannerReport.Held.init),
            counts: counts.withLock { $0 })
    }

    /// The dates of the far timetable (nil when there is none).
    var farDates: ClosedRange<GTFSDate>? { state.withLock { $0.far?.dates } }

    private func waitForTimetable() -> Built? {
        let deadline = ContinuousClock.now + firstBuildWait
        while true {
            let (built, building) = state.withLock { ($0.built, $0.building != nil) }
            if let built { return built }
            guard building, ContinuousClock.now < deadline else { return nil }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    func plan(_ request: PlanRequest, on built: Built, workspace: PlannerWorkspace? = nil) throws(ServiceError)
        -> PlanAnswer
    {
        /// A stop's index, or nil for a coordinate.
        func stop(_ p: TransitModel.PlanPlace, _ name: String) throws(ServiceError) -> Int? {
            guard case .stop(let id) = p else { return nil }
            guard let i = built.stopIndex[id] else { throw ServiceError(.notFound, "\(name): no stop \"\(id)\"") }
            return i
        }
        func coordinate(_ p: TransitModel.PlanPlace) -> (lat: Double, lon: Double) {
            if case .coordinate(let lat, let lon) = p { (lat, lon) } else { (0, 0) }
        }
        let fromStop = try stop(request.from, "from"), toStop = try stop(request.to, "to")
        let fromPoint = coordinate(request.from), toPoint = coordinate(request.to)
        let time: PlanQuery.Time =
            if let by = request.arriveBy { .arriveBy(by) } else { .departAt(request.at ?? now()) }
        var query = PlanQuery(
            from: fromStop.map { .stops([$0]) } ?? .coordinate(lat: fromPoint.lat, lon: fromPoint.lon),
            to: toStop.map { .stops([$0]) } ?? .coordinate(lat: toPoint.lat, lon: toPoint.lon), time: time)
        query.maxTransfers = request.maxTransfers
        query.transferSlack = request.transferSlackSeconds
        query.walkRadius = request.walkRadiusMetres
        query.walkSpeed = request.walkSpeed
        query.accessRadius = request.accessRadiusMetres
        var modes = Set<Mode>()
        for name in request.modes {
            guard let mode = Mode(rawValue: name) else {
                throw ServiceError(.invalidArgument, "field \"modes\": unknown mode \"\(name)\"")
            }
            modes.insert(mode)
        }
        query.modes = modes
        query.wheelchair = request.wheelchair
        query.window = request.windowSeconds
        query.limit = request.limit
        query.budget = Duration.milliseconds(request.budgetMilliseconds)
        // Live when asked for, laid over, and the publisher not silent; else the schedule (`realtime_stale`).
        let current = request.realtime && realtimeCurrent
        let live = current ? built.live : nil
        let result: PlanResult
        do throws(PlanError) {
            result = try JourneyPlanner.plan(query, on: live ?? built.timetable, workspace: workspace)
            if result.cut { counts.withLock { $0.cutPlans += 1 } }
        } catch {
            switch error {
            case .invalidArgument(let m): throw ServiceError(.invalidArgument, m)
            case .notFound(let m): throw ServiceError(.notFound, m)
            }
        }
        // The stops of the walks and of the rides on added trips, looked up once for the whole answer (a scheduled
        // ride's stops come with its trip).
        let timetable = live ?? built.timetable
        var named = Set<Int>()
        for journey in result.journeys {
            for leg in journey.legs {
                switch leg {
                case .walk(let w):
                    for stop in [w.from, w.to] { if let stop { named.insert(stop) } }
                case .transit(let t):
                    if let id = timetable.runIdentity(t.run).addedId, let trip = timetable.addedTrip(id),
                        t.boardPosition < t.alightPosition, t.alightPosition < trip.stops.count
                    {
                        named.formUnion(trip.stops[t.boardPosition...t.alightPosition])
                    }
                }
            }
        }
        // Unreadable, the walks go unnamed and the rides on added trips are dropped by the gateway, saying why.
        var stops: [String: Stop] = [:]
        if !named.isEmpty {
            do {
                stops = try built.store.stops(ids: named.map { built.stopIds[$0] })
            } catch {
                logger.warning(
                    "a plan's stops could not be named", metadata: ["stops": "\(named.count)", "error": "\(error)"])
            }
        }
        let legs = LegNames(built: built, timetable: timetable, stops: stops)
        var reason = result.reason
        if let earliest = result.earliestAfterWindow, case .departAt(let at) = query.time, let said = reason {
            reason = Self.windowReason(said, at: at, window: query.window, earliest: earliest, zone: built.zone)
        }
        return PlanAnswer(
            journeys: result.journeys.map { legs.journey($0) }, cut: result.cut, reason: reason,
            // A far timetable's dates have no live trips to lay over (the feeds describe the trips running now and
            // soon, which the window holds): its plans are as live as they can be, and the gateway still checks
            // their rides against its live view.
            laterAt: result.laterAt, realtimeUsed: live != nil || (current && built.far), timezone: built.timezone)
    }
}

extension JourneyPlanning {
    /// The reason of a range answer with no journey in its window, completed with the window and the earliest journey
    /// after it in the feed's time zone (GATEWAY.md `reason`): "no journey departs within window_s 3600 s of at (03:00
    /// to 04:00 on 2026-12-05, Australia/Sydney); the earliest journey from at on departs at 05:07 and arrives at 05:20
    /// on 2026-12-05".
    static func windowReason(_ reason: String, at: Int64, window: Int, earliest: Journey, zone: ServiceTimeZone)
        -> String
    {
        func parts(_ unix: Int64) -> (day: String, time: String) {
            let date = zone.localDate(atUnix: unix), second = zone.localSecondsOfDay(atUnix: unix)
            return (
                String(format: "%04d-%02d-%02d", date.year, date.month, date.day),
                String(format: "%02d:%02d", second / 3600, second / 60 % 60)
            )
        }
        /// "05:07 to 05:20 on 2026-12-05", or with both days when they differ.
        func span(_ from: Int64, _ to: Int64, _ joint: String) -> String {
            let a = parts(from), b = parts(to)
            return a.day == b.day
                ? "\(a.time) \(joint) \(b.time) on \(a.day)" : "\(a.time) on \(a.day) \(joint) \(b.time) on \(b.day)"
        }
        return
            "\(reason) (\(span(at, at + Int64(window), "to")), \(zone.identifier)); the earliest journey from at on departs at "
            + span(earliest.departure, earliest.arrival, "and arrives at")
    }
}

/// What an operator watches of the journey planner (`JourneyPlanning.report`; README "Metrics and logs").
public struct PlannerReport: Sendable, Equatable {
    /// A timetable held: its dates, its runs and its size estimated by count (`Timetable.memoryEstimate`).
    public struct Held: Sendable, Equatable {
        public var dates: ClosedRange<GTFSDate>
        public var runs: Int
        public var bytes: Int

        init(_ built: JourneyPlanning.Built) {
            dates = built.dates
            runs = (built.live ?? built.timetable).runCount
            bytes = (built.live ?? built.timetable).memoryEstimate
        }
    }

    /// Totals since the service started, and the last durations and live state.
    public struct Counts: Sendable, Equatable {
        /// Timetables of the window (the days around today) and far ones (other dates) built, and failed.
        public var windowBuilds = 0
        public var windowBuildFailures = 0
        public var farBuilds = 0
        public var farBuildFailures = 0
        public var lastWindowBuildSeconds: Double?
        public var lastFarBuildSeconds: Double?
        /// Live states laid over the window's timetable (their durations: the `liveUpdateDuration` histogram), the
        /// last one's seconds, and what the last one held: runs with a live state, added trips.
        public var liveUpdates = 0
        public var lastLiveUpdateSeconds: Double?
        public var liveRuns = 0
        public var liveAddedTrips = 0
        /// Times the landmarks were found again over the live rides.
        public var landmarkRefreshes = 0
        /// Plans refused UNAVAILABLE: every worker taken for the plan's budget, the first timetable still being
        /// built, or the plan's far timetable being built (or its build failed).
        public var refusedBusy = 0
        public var refusedBuilding = 0
        public var refusedFar = 0
        /// Plans whose search ran out of its budget (`cut`).
        public var cutPlans = 0
    }

    /// The window's timetable (nil before the first is built) and the far one (nil when none is held).
    public var window: Held?
    public var far: Held?
    public var counts: Counts
}

/// A `PlannerWorkspace` handed from one plan to the next: only one plan holds it at a time (taken from and
/// given back to the pool under its lock), which is what its class, not thread-safe, asks.
private final class WorkspaceBox: @unchecked Sendable {
    let workspace = PlannerWorkspace()
}

/// Names a journey's legs from the database its timetable was built from: a ride's boarding stop as a board row,
/// its stops with their scheduled times, its shape between the two stops; a walk's stops by name.
private struct LegNames {
    let built: JourneyPlanning.Built
    /// The timetable searched (its added runs are not in the scheduled one).
    let timetable: Timetable
    /// The stops of the walks and of the rides on added trips, by id.
    let stops: [String: Stop]

    func journey(_ j: Journey) -> PlanJourney {
        PlanJourney(
            departureUnix: j.departure, arrivalUnix: j.arrival, transfers: j.transfers, walkSeconds: j.walkSeconds,
            legs: j.legs.map(leg))
    }

    func leg(_ leg: Leg) -> PlanLeg {
        switch leg {
        case .walk(let w):
            let from = w.from.map { built.stopIds[$0] }, to = w.to.map { built.stopIds[$0] }
            return .walk(
                PlanWalk(
                    fromStopId: from, toStopId: to, fromStopName: from.flatMap { stops[$0]?.name },
                    toStopName: to.flatMap { stops[$0]?.name }, distanceMetres: (w.distance * 10).rounded() / 10,
                    durationSeconds: w.duration))
        case .transit(let t):
            return .ride(ride(t))
        }
    }

    private func ride(_ t: TransitLeg) -> PlanRide {
        let identity = timetable.runIdentity(t.run)
        var ride = PlanRide(
            board: nil, stops: [], plannedDepartureUnix: t.departure, plannedArrivalUnix: t.arrival, live: t.isLive,
            addedTripId: identity.addedId)
        guard let key = identity.key else {
            if let id = identity.addedId { ride.stops = addedStops(id, t) }
            return ride
        }
        let tripId = built.tripIds[Int(key.trip)]
        let startTime = key.start >= 0 ? GTFSTime.format(Int(key.start)) : nil
        guard
            let trip = try? built.store.trip(
                id: tripId, serviceDate: UInt32(key.date.yyyymmdd), startTime: startTime, at: t.departure)
        else { return ride }
        let boardId = built.stopIds[t.boardStop], alightId = built.stopIds[t.alightStop]
        // The planner's positions are the trip's stop times in order; checked against the ids all the same.
        var b = t.boardPosition, a = t.alightPosition
        if !(trip.stops.indices.contains(b) && trip.stops[b].stopId == boardId) {
            guard let found = trip.stops.firstIndex(where: { $0.stopId == boardId }) else { return ride }
            b = found
        }
        if !(trip.stops.indices.contains(a) && a > b && trip.stops[a].stopId == alightId) {
            guard let found = trip.stops[(b + 1)...].firstIndex(where: { $0.stopId == alightId }) else { return ride }
            a = found
        }
        let stop = trip.stops[b]
        ride.board = Departure(
            tripId: trip.tripId, startTime: trip.startTime, route: trip.route,
            headsign: stop.stopHeadsign ?? trip.headsign, stopId: stop.stopId, stopSequence: stop.stopSequence,
            stopIndex: UInt32(b), serviceDate: trip.serviceDate, scheduledSecs: stop.departureSecs,
            scheduledUnix: stop.departureUnix, platform: stop.platformCode,
            wheelchairAccessible: trip.wheelchairAccessible, directionId: trip.directionId,
            frequencyBased: trip.frequencyBased)
        ride.stops = Array(trip.stops[b...a])
        if let shape = try? built.store.shape(shapeId: nil, tripId: trip.tripId) {
            ride.polyline = Self.slice(shape.polyline, from: trip.stops[b], to: trip.stops[a])
        }
        return ride
    }

    /// The stops of a ride on an added trip from boarding to alighting, named from the database, with the times
    /// the live state gave them (an added trip has no schedule: `arrivalSecs` and `departureSecs` are 0, and
    /// `stopSequence` counts the trip's stops from 1 until the gateway numbers them from the live trip). Empty when
    /// the trip left the live state or a stop is unknown (the gateway then drops the journey, saying so).
    private func addedStops(_ id: String, _ t: TransitLeg) -> [TripStop] {
        guard let trip = timetable.addedTrip(id), t.boardPosition < t.alightPosition,
            t.alightPosition < trip.stops.count
        else { return [] }
        var named: [TripStop] = []
        for i in t.boardPosition...t.alightPosition {
            let id = built.stopIds[trip.stops[i]]
            guard let stop = stops[id] else { return [] }
            named.append(
                TripStop(
                    stopId: id, stopName: stop.name, stopSequence: UInt32(i + 1), arrivalSecs: 0, departureSecs: 0,
                    arrivalUnix: trip.arrivals[i], departureUnix: trip.departures[i], lat: stop.lat, lon: stop.lon,
                    platformCode: stop.platformCode, wheelchairBoarding: stop.wheelchairBoarding,
                    pickupType: trip.pickup[i] ? 0 : 1, dropOffType: trip.dropOff[i] ? 0 : 1,
                    parentStation: stop.parentStation))
        }
        return named
    }

    /// The part of an encoded polyline between the points nearest to two stops (the second searched after the
    /// first), encoded again.
    static func slice(_ polyline: String, from: TripStop, to: TripStop) -> String? {
        guard let points = Polyline.decode(polyline), points.count >= 2 else { return nil }
        func nearest(_ s: TripStop, in range: Range<Int>) -> Int {
            var best = range.lowerBound, bestDistance = Double.infinity
            for i in range {
                let d = Walking.distance(lat1: s.lat, lon1: s.lon, lat2: points[i].lat, lon2: points[i].lon)
                if d < bestDistance {
                    best = i
                    bestDistance = d
                }
            }
            return best
        }
        let start = nearest(from, in: 0..<points.count)
        let end = nearest(to, in: start..<points.count)
        guard end > start else { return Polyline.encode([(from.lat, from.lon), (to.lat, to.lon)]) }
        return Polyline.encode(Array(points[start...end]))
    }
}
