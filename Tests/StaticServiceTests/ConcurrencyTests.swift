import Foundation
import Testing
import TransitModel
import TransitTesting

/// Many requests in flight at once, and reloads while they run.
@Suite struct ConcurrencyTests {
    let service: ServiceFixture

    init() throws { service = try ServiceFixture(contexts: 4) }

    private static let queries: [StaticQuery] = [
        .stop(StopQuery(stopId: "STA")),
        .search(SearchQuery(query: "harbour", limit: 5)),
        .nearby(NearbyQuery(lat: -33.8731, lon: 151.2065, radiusMetres: 1000, limit: 5)),
        .routes(RoutesQuery()),
        .departures(DeparturesQuery(stopId: "STA", at: SampleTimes.mondayMorning, limit: 10)),
        .trip(TripQuery(tripId: "TB", serviceDate: 20251222, at: SampleTimes.mondayMorning)),
        .feedInfo,
    ]

    @Test func concurrentClientsGetTheSameAnswersAsOne() async throws {
        let expected = try Self.queries.map { try service.ask($0).result }
        let clients = 16, rounds = 10
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for client in 0..<clients {
                group.addTask { [service] in
                    var wrong = 0
                    for round in 0..<rounds {
                        let index = (client + round) % Self.queries.count
                        let id = UInt64(client * 1000 + round)
                        let response = try await service.askAsync(Self.queries[index], id: id)
                        if response.requestId != id || response.result != expected[index] { wrong += 1 }
                    }
                    return wrong
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test func reloadsWhileQueriesRunNeverFailAQuery() async throws {
        try service.reimport(TestFeed(variant: 2))
        let names: Set<String> = ["Central Test Station", "Central Renamed Station"]
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask { [service] in
                for _ in 0..<20 {
                    _ = service.server.reload()
                    try await Task.sleep(for: .milliseconds(2))
                }
                return 0
            }
            for client in 0..<8 {
                group.addTask { [service] in
                    var failed = 0
                    for round in 0..<25 {
                        let response = try await service.askAsync(
                            .stop(StopQuery(stopId: "STA")), id: UInt64(client * 100 + round))
                        guard case .success(.stop(let r)) = response.result, names.contains(r.stop.name) else {
                            failed += 1
                            continue
                        }
                    }
                    return failed
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(failures == 0)
        #expect(try service.result(.stop(StopQuery(stopId: "STA"))).stopResult?.stop.name == "Central Renamed Station")
    }
}
