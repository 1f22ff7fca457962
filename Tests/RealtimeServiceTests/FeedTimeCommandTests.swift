import Foundation
import Testing
import TransitTesting

/// `transit-realtime feed-time`: when recorded feeds were made (the launcher's --clock hint reads it).
@Suite(.enabled(if: BuiltExecutables.path("transit-realtime") != nil, "build the executables first (swift build)"))
struct FeedTimeCommandTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltExecutables.path("transit-realtime")!)
        process.arguments = ["feed-time"] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self)
        )
    }

    /// The four official fixtures' headers are 1767225600 … 1767225603; a file that is not a feed is named and
    /// skipped; nothing with a header time is exit 1.
    @Test func printsTheEarliestAndLatestHeaderTimes() throws {
        let fixtures = Repository.url("Tests/GTFSRealtimeTests/Fixtures").path
        let folder = try TemporaryFolder()
        try Data("not a feed".utf8).write(to: URL(fileURLWithPath: folder.path("broken.pb")))
        let run = try Self.run([fixtures, folder.path("broken.pb")])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "1767225600 1767225603 2026-01-01T00:00:00Z 2026-01-01T00:00:03Z\n")
        #expect(run.err.contains("broken.pb"))
        let none = try Self.run([folder.path("broken.pb")])
        #expect(none.status == 1 && none.err.contains("no feed with a header timestamp"))
    }
}
