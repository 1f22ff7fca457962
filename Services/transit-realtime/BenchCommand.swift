import ArgumentParser
import Foundation
@preconcurrency import Glibc
import RealtimeService

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time full feed updates (decode, resolve, diff, publish) of a synthetic buses-sized feed, in memory.",
        discussion: "Use a release build. Prints p50/p95 of decode alone and of the whole update, and the peak RSS."
    )

    @Option(help: "Trip updates in the feed.") var trips = 3000
    @Option(help: "Stop time updates per trip (and stops per pattern).") var stops = 40
    @Option(help: "Measured updates.") var runs = 20

    func run() async throws {
        GlibcMalloc.keepFreedMemory()
        let r = try await UpdateBenchmark.run(trips: trips, stops: stops, runs: runs)
        func p(_ values: [Double], _ q: Double) -> String {
            let sorted = values.sorted()
            return String(format: "%.1f", sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q + 0.5))])
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        print("feed: \(trips) trips × \(stops) stop updates, \(r.feedBytes) bytes; published per update: \(r.publishedBytes) bytes")
        print("decode alone:   p50 \(p(r.decodeMs, 0.5)) ms, p95 \(p(r.decodeMs, 0.95)) ms")
        print("full update:    p50 \(p(r.updateMs, 0.5)) ms, p95 \(p(r.updateMs, 0.95)) ms (decode + resolve + diff + encode + publish)")
        print("peak RSS: \(usage.ru_maxrss / 1024) MiB")
    }
}
