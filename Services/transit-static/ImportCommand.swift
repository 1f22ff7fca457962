import ArgumentParser
import Foundation
import ServiceSupport
import TransitStore

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import GTFS feeds into a new database, renamed over --db only when complete.",
        discussion: """
            Feeds are zip archives or folders; name=path names a feed (default: its file name). \
            A running service picks up the new database on SIGHUP.
            """
    )

    @Argument(help: ArgumentHelp("GTFS feeds: feed.zip, a folder, or name=path.", valueName: "feed"))
    var feeds: [String]

    @Option(help: ArgumentHelp("The database file to create or replace.", valueName: "file"))
    var db: String

    @Option(help: ArgumentHelp("Prefix a feed's agency, route, trip, service, shape and block ids (not stop ids).",
                               valueName: "name=B:"))
    var prefix: [String] = []

    @Flag(help: "Fail on the first row that breaks a reference instead of skipping and counting it.")
    var strict = false

    @OptionGroup(title: "Service clock (the date a feed's validity is checked against)")
    var clock: ClockOptions

    func validate() throws {
        guard !feeds.isEmpty else { throw ValidationError("name at least one feed to import") }
    }

    func run() throws {
        var options = ImportOptions(
            feeds: feeds.map { ImportOptions.Feed(argument: $0) }, databasePath: db, strict: strict,
            progress: TerminalProgress.standardErrorIfTerminal())
        do {
            try options.applyPrefixes(prefix)
            let summary = try GTFSImporter(options: options).run()
            print(summary.description)
            warnOutsideValidity(summary)
        } catch {
            printError("import failed: \(error)")
            printError("the previous database (if any) at \(db) is unchanged")
            throw ExitCode.failure
        }
    }

    /// One warning line per feed whose validity dates do not cover the clock's date (the import goes ahead).
    private func warnOutsideValidity(_ summary: ImportSummary) {
        let now = clock.serviceClock.unixSeconds
        for feed in summary.feeds {
            if let warning = feed.validityWarning(atUnix: now) { printError("warning: \(warning)") }
        }
    }
}
