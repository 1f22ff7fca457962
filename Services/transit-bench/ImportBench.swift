import ArgumentParser
import Foundation
import SQLiteKit

/// Import throughput and peak memory: runs `transit-static import` as a child process (so its peak RSS is
/// the child's alone, from wait4's rusage) and divides the stop_times rows it imported by the wall time.
struct ImportBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import", abstract: "Import rows/s and peak RSS.")

    @Option(help: "path of the transit-static executable") var transitStatic: String = ".build/release/transit-static"
    @Option(help: "database to write") var db: String
    @Argument(help: "feeds, as for transit-static import") var feeds: [String]

    func run() throws {
        let start = monotonicNanos()
        var pid: pid_t = 0
        let args = [transitStatic, "import"] + feeds + ["--db", db]
        let cArgs = args.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        guard posix_spawn(&pid, transitStatic, nil, nil, cArgs, environ) == 0 else {
            throw BenchError("cannot start \(transitStatic)")
        }
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        let seconds = Double(monotonicNanos() - start) / 1e9
        guard status == 0 else { throw BenchError("import failed (status \(status))") }
        let database = try Database(path: db, mode: .readOnly)
        let stopTimes = try database.scalarInt("SELECT sum(stop_time_count) FROM feeds") ?? 0
        let trips = try database.scalarInt("SELECT count(*) FROM trips") ?? 0
        let patterns = try database.scalarInt("SELECT count(*) FROM patterns") ?? 0
        let size = (try? FileManager.default.attributesOfItem(atPath: db)[.size] as? Int) ?? 0
        print("| stop_times | trips | patterns | seconds | stop_times rows/s | peak RSS MiB | database MiB |")
        print("|---|---|---|---|---|---|---|")
        print(
            String(
                format: "| %lld | %lld | %lld | %.1f | %.0f | %.0f | %.0f |",
                stopTimes, trips, patterns, seconds, Double(stopTimes) / seconds,
                Double(usage.ru_maxrss) / 1024, Double(size) / 1_048_576))
    }
}
