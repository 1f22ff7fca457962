import Foundation
import Testing
import TransitModel
import TransitTesting

@testable import TransitStore

/// Acceptance tests: small feeds the project has never seen, written to a temporary folder, imported with the
/// real `GTFSImporter` (strict, so no row may be silently skipped) and queried through `StaticStore`.
/// Expectations are computed by hand from the GTFS reference (https://gtfs.org/schedule/reference/), written
/// as UTC wall times with `utc(…)`, never derived from the code under test.
final class AcceptanceDB: @unchecked Sendable {
    let folder: TemporaryFolder
    let store: StaticStore

    struct Feed {
        var name: String
        var files: [String: String]
        var prefix: String? = nil
    }

    /// Imports `feeds` (each a folder of files written byte for byte) into one database and opens it.
    init(_ feeds: [Feed], strict: Bool = true) throws {
        folder = try TemporaryFolder("acceptance")
        var options: [ImportOptions.Feed] = []
        for feed in feeds {
            let dir = try folder.writeFeed(feed.name, feed.files)
            options.append(ImportOptions.Feed(path: dir, name: feed.name, prefix: feed.prefix))
        }
        let path = folder.path("transit.db")
        try runImport(options, into: path, strict: strict)
        store = try StaticStore(path: path, connections: 2)
    }

    convenience init(name: String, _ files: [String: String]) throws {
        try self.init([Feed(name: name, files: files)])
    }

    func board(
        _ stop: String, at: Int64, _ direction: BoardDirection = .future, limit: Int = 20,
        cursor: String? = nil
    ) throws -> DepartureBoard {
        try store.departures(stopId: stop, at: at, direction: direction, limit: limit, cursor: cursor)
    }

    /// The trip ids departing `stop` on service date `date`, in board order: a board from `from` (an instant
    /// before the date's first departure) over the next 24 h, keeping that service date's rows.
    func trips(at stop: String, on date: UInt32, from: Int64) throws -> [String] {
        try board(stop, at: from, limit: 100).departures.filter { $0.serviceDate == date }.map(\.tripId)
    }
}

/// "trip@stop date secs unix" lines of a board, for readable failures.
func lines(_ board: DepartureBoard) -> [String] {
    board.departures.map { "\($0.tripId)@\($0.stopId) \($0.serviceDate) \($0.scheduledSecs) \($0.scheduledUnix)" }
}

/// A GTFS file with CRLF line ends and a UTF-8 byte order mark, as some exporters write them.
func windowsText(_ text: String) -> String {
    "\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n")
}

/// GTFS seconds of "H:MM:SS" written by hand.
func secs(_ h: Int, _ m: Int, _ s: Int = 0) -> Int32 { Int32(h * 3600 + m * 60 + s) }
