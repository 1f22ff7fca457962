import HTTPFetching
import Testing
import TransitTesting

@testable import RealtimeSources

@Suite struct PacerTests {
    @Test func grantsAreSpacedAcrossConcurrentCallers() async throws {
        let pacer = RequestPacer(requestsPerSecond: 100)
        let started = ContinuousClock.now
        let grants = try await withThrowingTaskGroup(of: [ContinuousClock.Instant].self) { group in
            for _ in 0..<6 {
                group.addTask {
                    var mine: [ContinuousClock.Instant] = []
                    for _ in 0..<5 { mine.append(try await pacer.acquire()) }
                    return mine
                }
            }
            var all: [ContinuousClock.Instant] = []
            for try await mine in group { all += mine }
            return all.sorted()
        }
        #expect(grants.count == 30)
        for (a, b) in zip(grants, grants.dropFirst()) {
            #expect(b - a >= .milliseconds(10), "two grants \(b - a) apart")
        }
        // Any 100 ms window holds at most 10 grants.
        for (i, start) in grants.enumerated() {
            #expect(grants[i...].prefix { $0 - start < .milliseconds(100) }.count <= 10)
        }
        // And it does not hold requests back more than needed: 30 grants take about 290 ms.
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(grants.last! - grants.first! >= .milliseconds(290))
    }

    @Test func anIdlePacerLetsTheFirstRequestThroughAtOnce() async throws {
        let pacer = RequestPacer(requestsPerSecond: 0.5)
        let before = ContinuousClock.now
        try await pacer.acquire()
        #expect(ContinuousClock.now - before < .milliseconds(100))
    }

    @Test func waitingIsCancellable() async throws {
        let pacer = RequestPacer(requestsPerSecond: 0.1)  // 10 s between grants
        try await pacer.acquire()
        let waiter = Task { try await pacer.acquire() }
        try await Task.sleep(for: .milliseconds(20))
        waiter.cancel()
        let before = ContinuousClock.now
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(ContinuousClock.now - before < .seconds(1))
    }

    @Test func sourcesSharingThePacerStayUnderTheRate() async throws {
        let server = try await FakeHTTPServer.start { _ in .respond(status: 200, body: [1]) }
        defer { Task { await server.shutdown() } }
        // 4 sources each due every 20 ms would make 200 requests a second; the pacer allows 40.
        let sources = (0..<4).map { httpSource("s\($0)", url: server.url("/\($0)"), interval: .milliseconds(20)) }
        let config = RealtimeConfig(sources: sources, dailyRequestBudget: .max, maxRequestsPerSecond: 40)
        // Validation would refuse the sustained rate; the poller is built directly to test the pacer alone.
        let pacer = RequestPacer(requestsPerSecond: config.maxRequestsPerSecond)
        let client = HTTPFetchClient.shared
        let pollers = sources.map {
            SourcePoller(
                source: $0, startOffset: .zero, backoffCap: .seconds(1), pacer: pacer, client: client, restamp: nil,
                logger: LogRecorder().logger, handler: { _ in })
        }
        for poller in pollers { poller.start() }
        try await Task.sleep(for: .milliseconds(600))
        for poller in pollers { await poller.stop() }
        let times = server.requests.map(\.receivedAt).sorted()
        #expect(times.count >= 15, "\(times.count) requests")
        #expect(times.count <= 26, "\(times.count) requests in 0.6 s at 40 a second")
        // Any 250 ms window: at most 10 (+2 for delays between grant and arrival; without the pacer: 50).
        for (i, start) in times.enumerated() {
            #expect(times[i...].prefix { $0 - start < .milliseconds(250) }.count <= 12)
        }
    }
}
