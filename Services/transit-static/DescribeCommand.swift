import ArgumentParser
import Foundation
import ServiceSupport
import TransitStore

/// `transit-static describe --db <file>`: the database's highlights as `key=value` lines (the launcher's paste
/// lines come from them, whatever city the feeds are of).
struct DescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Print what a first query of this database can use: its busiest stop, a search word, a point.",
        discussion: """
            One key=value line each: stop_id, stop_name (the station or stop with the most trips), search (a \
            word of its name), lat, lon (the median of the served stops), route_id, mode (the route with the \
            most trips). Exit status 1 when the database cannot be read or serves nothing.
            """
    )

    @Option(help: ArgumentHelp("The database made by `transit-static import`.", valueName: "file"))
    var db: String

    func run() throws {
        let highlights: FeedHighlights?
        do {
            highlights = try StaticStore(path: db, connections: 1).highlights()
        } catch {
            printError("describe: \(db): \(error)")
            throw ExitCode.failure
        }
        guard let h = highlights else {
            printError("describe: \(db): no stop with trips or no route with trips")
            throw ExitCode.failure
        }
        // Values on one line each (a name never holds a newline once imported; replaced here to be sure).
        func line(_ key: String, _ value: String) { writeOut(Array("\(key)=\(value.replacingNewlines())\n".utf8)) }
        line("stop_id", h.busiestStopId)
        line("stop_name", h.busiestStopName)
        line("search", h.searchWord)
        line("lat", String(format: "%.4f", h.centreLat))
        line("lon", String(format: "%.4f", h.centreLon))
        if let plan = h.plan {
            line("plan_from", plan.fromStopId)
            line("plan_to", plan.toStopId)
        }
        line("route_id", h.routeId)
        line("mode", h.routeMode)
    }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}
