// One source's polling loop.
//
// Design: each poller runs one Task (started by start(), cancelled by stop()). The fetch state — ETag and
// Last-Modified, the file version delivered, the replay position — lives in that task as a local value, so
// it needs no lock; only the status is shared (behind a lock) so it can be read at any moment. The loop sleeps
// until the next tick, waits for the group's RequestPacer (HTTP only), fetches, awaits the handler, then
// plans the next tick: on the fixed schedule start + offset + n * interval after a success (ticks missed
// while a request or the handler ran are skipped, not made up), or now + backoff after an HTTP failure.
import Foundation
import HTTPFetching
import Logging
import ProcessSupport
import Synchronization

public final class SourcePoller: Sendable {
    public let source: SourceConfig
    private let startOffset: Duration
    private let backoff: Backoff
    private let pacer: RequestPacer?
    private let client: HTTPFetchClient?
    private let restamp: FeedRestamp?
    private let wallClock: ServiceClock
    private let watchdog: Watchdog?
    private let handler: SourceEventHandler
    private let logger: Logger
    private let state: Mutex<SourceStatus>
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(
        source: SourceConfig, startOffset: Duration, backoffCap: Duration, pacer: RequestPacer?,
        client: HTTPFetchClient?,
        restamp: FeedRestamp?, clock: ServiceClock = .system, watchdog: Watchdog? = nil, logger: Logger,
        handler: @escaping SourceEventHandler
    ) {
        self.source = source
        self.startOffset = startOffset
        backoff = Backoff(base: source.pollInterval, cap: backoffCap)
        self.pacer = pacer
        self.client = client
        self.restamp = restamp
        wallClock = clock
        self.watchdog = watchdog
        self.handler = handler
        self.logger = logger
        state = Mutex(SourceStatus(name: source.name, kind: source.kind, location: source.location.redactedDescription))
    }

    /// The source's status now.
    public var status: SourceStatus { state.withLock { $0 } }

    /// Starts polling (the first poll after the start offset). Calling it again while running does nothing;
    /// after `stop()` it starts afresh (no ETag or file version remembered).
    public func start() {
        task.withLock { task in
            guard task == nil else { return }
            task = Task { [self] in await run() }
        }
    }

    /// Stops polling: cancels the sleep or the request in flight and returns once the loop has ended, after
    /// which no event of this source arrives. (A handler call in progress is awaited.)
    public func stop() async {
        guard let running = task.withLock({ $0 }) else { return }
        running.cancel()
        await running.value
        task.withLock { if $0 == running { $0 = nil } }
        state.withLock { $0.nextPoll = nil }
    }

    /// The poll loop's watchdog component.
    public var watchdogComponent: String { "poll \(source.name)" }
    /// How long the steps around a fetch may take before the loop counts as stuck: the group's request pacer,
    /// and the handling of a fetched feed (decode, resolve, publish; seconds for the biggest feeds).
    static let stepAllowance: Duration = .seconds(30)

    private func run() async {
        defer { watchdog?.remove(watchdogComponent) }
        let clock = ContinuousClock()
        var fetcher = makeFetcher()
        var tick = clock.now + startOffset
        var failures = 0
        var random = SystemRandomNumberGenerator()
        var dayCounter = DayCounter()
        while !Task.isCancelled {
            state.withLock { $0.nextPoll = wallClock.date + (tick - clock.now).seconds }
            watchdog?.advance(watchdogComponent, nextWithin: max(.zero, tick - clock.now) + Self.stepAllowance)
            do {
                try await clock.sleep(until: tick)
                if let pacer, source.isNetwork { try await pacer.acquire() }
            } catch {
                break
            }
            let started = wallClock.date
            state.withLock { status in
                status.lastAttempt = started
                status.pollCount += 1
                // The API's quota counts days of the machine's clock, whatever the service clock says.
                if source.isNetwork { status.requestsToday = dayCounter.count(at: Date()) }
            }
            watchdog?.advance(watchdogComponent, nextWithin: source.timeout + Self.stepAllowance)
            let outcome = await fetcher.fetch(now: started)
            if Task.isCancelled { break }
            var retryAfter: Duration?
            var backsOff = false
            switch outcome {
            case .fetched(let bytes, let httpDate):
                let now = wallClock.date
                recordSuccess(at: now, failures: failures, bytes: bytes.count)
                failures = 0
                await handler(
                    .fetched(FetchedFeed(source: source.name, bytes: bytes, fetchedAt: now, httpDate: httpDate)))
            case .notModified:
                recordSuccess(at: wallClock.date, failures: failures, bytes: nil)
                failures = 0
                await handler(.notModified(source: source.name))
            case .failed(let error, let serverRetryAfter):
                failures += 1
                backsOff = error.backsOff
                retryAfter = serverRetryAfter
                let wait = backsOff ? backoff.delay(afterFailures: failures, using: &random) : source.pollInterval
                // The server's Retry-After wins when longer, within an hour (a quota resets at most daily).
                let delay = max(wait, min(retryAfter ?? .zero, .seconds(3600)))
                recordFailure(error, failures: failures, retryIn: delay)
                await handler(.failed(source: source.name, error: error))
                if backsOff || retryAfter != nil { tick = clock.now + delay }
            case .nothing:
                break
            case .finished:
                state.withLock {
                    $0.finished = true
                    $0.nextPoll = nil
                }
                logger.info("source \(source.name): replay finished")
                return
            }
            if !(backsOff || retryAfter != nil) {
                tick = Self.nextTick(after: tick, interval: source.pollInterval, now: clock.now)
            }
            // A replay at its snapshots' own times wakes when the next one becomes current (on the service
            // clock, which may run at another rate), if that comes before the next tick.
            if let due = fetcher.nextDue, wallClock.rate > 0 {
                let wait = max(0, due.timeIntervalSince(wallClock.date)) / wallClock.rate
                tick = min(tick, clock.now + .milliseconds(Int64((wait * 1000).rounded(.up)) + 1))
            }
        }
    }

    /// The next tick of the fixed schedule after `tick` that is still ahead of `now`.
    static func nextTick(after tick: ContinuousClock.Instant, interval: Duration, now: ContinuousClock.Instant)
        -> ContinuousClock.Instant
    {
        var next = tick + interval
        if next <= now {
            let behind = (now - next).seconds
            let skipped = (behind / interval.seconds).rounded(.down) + 1
            next = next + interval * skipped
        }
        return next
    }

    private func makeFetcher() -> AnyFetcher {
        switch source.location {
        case .http(let url):
            return .http(HTTPFetcher(url: url, source: source, client: client ?? .shared))
        case .file(let path):
            return .file(FileFetcher(path: path, maxBytes: source.maxBytes))
        case .replay(let folder, let loop):
            return .replay(
                ReplayFetcher(
                    folder: folder, kind: source.kind, loop: loop, maxBytes: source.maxBytes, restamp: restamp,
                    clockIsReplayed: wallClock.isReplay && source.replayAtOwnTimes))
        }
    }

    private func recordSuccess(at now: Date, failures: Int, bytes: Int?) {
        state.withLock { status in
            status.lastSuccess = now
            status.consecutiveFailures = 0
            if let bytes {
                status.lastFetched = now
                status.lastByteCount = bytes
            }
        }
        if failures > 0 { logger.info("source \(source.name): recovered after \(failures) failed polls") }
    }

    private func recordFailure(_ error: FetchError, failures: Int, retryIn: Duration) {
        let message = error.description
        state.withLock { status in
            status.lastError = message
            status.lastErrorAt = wallClock.date
            status.errorCount += 1
            status.consecutiveFailures = failures
        }
        // The first failure of a run is news; the rest only for debugging.
        let level: Logger.Level = failures == 1 ? .warning : .debug
        logger.log(
            level: level,
            "source \(source.name): \(message) (failure \(failures) in a row, next try in \(formatSeconds(retryIn.seconds)))"
        )
    }
}

/// The fetch state of one source, whichever kind it is.
private enum AnyFetcher {
    case http(HTTPFetcher)
    case file(FileFetcher)
    case replay(ReplayFetcher)

    /// When a replay at its snapshots' own times has its next one due.
    var nextDue: Date? {
        if case .replay(let fetcher) = self { return fetcher.nextDue }
        return nil
    }

    mutating func fetch(now: Date) async -> FetchOutcome {
        switch self {
        case .http(var fetcher):
            let outcome = await fetcher.fetch()
            self = .http(fetcher)
            return outcome
        case .file(var fetcher):
            let outcome = fetcher.fetch()
            self = .file(fetcher)
            return outcome
        case .replay(var fetcher):
            let outcome = fetcher.fetch(now: now)
            self = .replay(fetcher)
            return outcome
        }
    }
}

/// Counts requests per local calendar day (the API's quota resets daily).
private struct DayCounter {
    private var day: Int?
    private var requests = 0

    /// Counts one request at `date`; returns the count of that day so far.
    mutating func count(at date: Date) -> Int {
        let seconds = Int(date.timeIntervalSince1970) + TimeZone.current.secondsFromGMT(for: date)
        let today = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        if today != day {
            day = today
            requests = 0
        }
        requests += 1
        return requests
    }
}
