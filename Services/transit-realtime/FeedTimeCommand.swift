import ArgumentParser
import Foundation
import GTFSRealtime
import ProcessSupport
import ServiceSupport

/// `transit-realtime feed-time FILE|FOLDER...`: when a recorded capture was made (its feeds' header timestamps),
/// so a replay can run on its own clock: the launcher prints the `--clock` to use from it.
struct FeedTimeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed-time",
        abstract: "Print the header time of recorded GTFS-Realtime feeds (files, or folders of *.pb, searched deep).",
        discussion: """
            One line: the earliest and latest header timestamps as unix seconds and ISO 8601, e.g. \
            "1781165700 1781165760 2026-06-11T08:15:00Z 2026-06-11T08:16:00Z". Exit status 1 when no file \
            holds a feed with a header timestamp (the files that cannot be decoded are named on stderr).
            """
    )

    @Argument(help: ArgumentHelp("Feed files or folders.", valueName: "path"))
    var paths: [String]

    func run() throws {
        var times: [UInt64] = []
        for file in Self.files(paths) {
            guard let data = FileManager.default.contents(atPath: file) else {
                printError("feed-time: \(file): cannot be read")
                continue
            }
            do {
                if let time = try GTFSRealtimeCodec.decode(Array(data)).header.timestamp, time > 0 {
                    times.append(time)
                }
            } catch {
                printError("feed-time: \(file): \(error)")
            }
        }
        guard let first = times.min(), let last = times.max() else {
            printError("feed-time: no feed with a header timestamp in \(paths.joined(separator: " "))")
            throw ExitCode.failure
        }
        let (a, b) = (Int64(clamping: first), Int64(clamping: last))
        writeOut(Array("\(a) \(b) \(ServiceClock.iso8601(a)) \(ServiceClock.iso8601(b))\n".utf8))
    }

    /// The files named, and the *.pb files below the folders named.
    static func files(_ paths: [String]) -> [String] {
        var found: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            if !isFolder.boolValue {
                found.append(path)
                continue
            }
            let walker = FileManager.default.enumerator(atPath: path)
            while let relative = walker?.nextObject() as? String {
                if relative.hasSuffix(".pb") { found.append(path + "/" + relative) }
            }
        }
        return found.sorted()
    }
}
