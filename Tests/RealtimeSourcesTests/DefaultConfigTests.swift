// The bundled Transport for NSW config: loads, stays under budget, talks only to the TfNSW API over https.
import Foundation
import Testing
import TransitTesting

@testable import RealtimeSources

@Suite struct DefaultConfigTests {
    static let path = Repository.path("config/realtime-tfnsw.json")

    @Test func loadsUnderBudgetWithHTTPSToTheTfNSWAPI() throws {
        let config = try RealtimeConfig.load(path: Self.path, environment: ["TFNSW_API_KEY": "test-key"])
        #expect(config.dailyRequestBudget == 30_000)
        #expect(config.maxRequestsPerSecond == 5)
        #expect(config.dailyRequests <= 30_000)
        #expect(config.dailyRequests == 27_648)
        #expect(config.sources.count == 17)
        for source in config.sources {
            guard case .http(let url) = source.location else {
                Issue.record("\(source.name) is not an http source")
                continue
            }
            #expect(url.scheme == "https", "\(source.name)")
            #expect(url.host == "api.transport.nsw.gov.au", "\(source.name)")
            #expect(source.headers.count == 1)
            #expect(source.headers.first?.name == "Authorization")
            #expect(source.headers.first?.value.revealed == "apikey test-key")
            #expect(source.timeout == .seconds(8))
        }
    }

    @Test func pollsTheModesAtTheirIntervals() throws {
        let config = try RealtimeConfig.load(path: Self.path, environment: ["TFNSW_API_KEY": "k"])
        let interval = Dictionary(uniqueKeysWithValues: config.sources.map { ($0.name, $0.pollInterval) })
        for name in ["sydneytrains.trip_updates", "metro.trip_updates", "buses.trip_updates"] {
            #expect(interval[name] == .seconds(30), "\(name)")
        }
        let vehicles = config.sources.filter { $0.kind == .vehiclePositions }
        #expect(vehicles.count == 7)
        #expect(vehicles.allSatisfy { $0.pollInterval == .seconds(60) })
        let alerts = config.sources.filter { $0.kind == .alerts }
        #expect(alerts.map(\.name) == ["all.alerts"])
        #expect(alerts.first?.pollInterval == .seconds(300))
        #expect(config.sources.filter { $0.kind == .tripUpdates }.count == 9)
        let paths = Set(
            config.sources.compactMap { source -> String? in
                if case .http(let url) = source.location { return url.path }
                return nil
            })
        #expect(paths.count == config.sources.count)
        #expect(paths.contains("/v1/gtfs/realtime/lightrail/parramatta"))
        #expect(paths.contains("/v2/gtfs/alerts/all"))
    }

    @Test func withoutTheKeyTheErrorNamesTheVariable() {
        do {
            _ = try RealtimeConfig.load(path: Self.path, environment: [:])
            Issue.record("loaded without TFNSW_API_KEY")
        } catch {
            #expect(error.source == "sydneytrains.trip_updates")
            #expect(error.field == "headers.Authorization")
            #expect(error.description.contains("environment variable TFNSW_API_KEY is not set"))
        }
    }

    @Test func startsAreStaggeredBelowTheRateLimit() throws {
        let config = try RealtimeConfig.load(path: Self.path, environment: ["TFNSW_API_KEY": "k"])
        let offsets = SourceGroup.startOffsets(config.sources, maxRequestsPerSecond: config.maxRequestsPerSecond)
        // 2 / 5 per second = 0.4 s apart: 17 sources within 6.4 s, never more than 3 in one second.
        #expect(offsets.first == .zero)
        #expect(offsets.last == .milliseconds(6400))
        for (a, b) in zip(offsets, offsets.dropFirst()) {
            #expect(b - a == .milliseconds(400))
        }
    }
}
