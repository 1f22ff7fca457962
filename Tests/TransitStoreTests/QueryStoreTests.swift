import Foundation
import Synchronization
import Testing
import TransitModel

@testable import TransitStore

@Suite struct QueryStoreTests {
    @Test func manyThreadsShareOneStore() throws {
        let store = try QueryTestFeed.store()  // 2 connections: most queries wait for one
        let at = utc(2025, 10, 5, 19)
        let expected = try store.departures(stopId: "S2", at: at, limit: 20).departures
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            do {
                switch i % 4 {
                case 0:
                    if try store.departures(stopId: "S2", at: at, limit: 20).departures != expected {
                        failures.withLock { $0 += 1 }
                    }
                case 1:
                    if try store.search("central", limit: 5).first?.stopId != "STA" { failures.withLock { $0 += 1 } }
                case 2:
                    if try store.trip(id: "T1_0800", serviceDate: 20251006, at: 0).stops.count != 3 {
                        failures.withLock { $0 += 1 }
                    }
                default:
                    if try store.stop(id: "STA").platforms.count != 2 { failures.withLock { $0 += 1 } }
                }
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }

    @Test func answerDispatchesProtocolQueries() throws {
        let store = try QueryTestFeed.store()
        let now = utc(2025, 10, 5, 20)
        guard
            case .departures(let board) = try store.answer(
                .departures(DeparturesQuery(stopId: "P1", limit: 3)), now: now)
        else { Issue.record("expected departures"); return }
        #expect(board.at == now && board.departures.first?.tripId == "T1_0800")
        guard case .stops(let stops) = try store.answer(.search(SearchQuery(query: "town hall", limit: 1)))
        else { Issue.record("expected stops"); return }
        #expect(stops.map(\.stopId) == ["S2"])
        guard case .feedInfo(let info) = try store.answer(.feedInfo) else { Issue.record("expected feed info"); return }
        #expect(info.feeds.count == 2)
        #expect(throws: StoreError.notFound("trip X")) { try store.answer(.trip(TripQuery(tripId: "X"))) }
        #expect(StoreError.notFound("trip X").serviceError.status == .notFound)
        #expect(StoreError.invalidArgument("x").serviceError.status == .invalidArgument)
    }

    @Test func openingSomethingThatIsNotADatabase() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("query-open-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect {
            try StaticStore(path: dir.appendingPathComponent("missing.db").path)
        } throws: { error in
            if case .database = error as? StoreError { return true } else { return false }
        }
        let junk = dir.appendingPathComponent("junk.db")
        try Data("this is not sqlite".utf8).write(to: junk)
        #expect {
            try StaticStore(path: junk.path)
        } throws: { error in
            if case .database = error as? StoreError { return true } else { return false }
        }
    }
}
