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

            Broken or hostile feeds are refused by caps, each refusal naming the file, the cap and the flag \
            that raises it, with the previous database left in place: --max-file-size (uncompressed bytes per \
            file, default 4GiB), --max-compression-ratio (per zip entry, default 100; real GTFS deflates about \
            5-10x), --max-line-size (per record, default 1MiB), --max-field-size (per field, default 64KiB). \
            Sizes take K, M, G (binary: KiB, MiB, GiB) or plain bytes.

            Rows with a NUL byte are skipped, text that is not UTF-8 is kept with U+FFFD, and a byte-order \
            mark inside a file is removed; each is counted in the summary with where it was first seen, and \
            --strict fails on it. A header naming a column twice and a UTF-16 file are errors.
            """
    )

    @Argument(help: ArgumentHelp("GTFS feeds: feed.zip, a folder, or name=path.", valueName: "feed"))
    var feeds: [String]

    @Option(help: ArgumentHelp("The database file to create or replace.", valueName: "file"))
    var db: String

    @Option(
        help: ArgumentHelp(
            "Prefix a feed's agency, route, trip, service, shape and block ids (not stop ids).",
            valueName: "name=B:"))
    var prefix: [String] = []

    @Flag(
        help: """
            Fail on the first row that breaks a reference, holds a NUL byte, text that is not UTF-8 or a stray \
            byte-order mark, instead of skipping (or repairing) and counting it.
            """)
    var strict = false

    @Option(help: ArgumentHelp("Refuse a file larger than this, uncompressed.", valueName: "size"))
    var maxFileSize = "4GiB"

    @Option(
        help: ArgumentHelp(
            "Refuse a zip entry that inflates to more than this many times its compressed size "
                + "(entries under 1 MiB are not checked).", valueName: "ratio"))
    var maxCompressionRatio = 100

    @Option(help: ArgumentHelp("Refuse a record (line) longer than this.", valueName: "size"))
    var maxLineSize = "1MiB"

    @Option(help: ArgumentHelp("Refuse a field longer than this.", valueName: "size"))
    var maxFieldSize = "64KiB"

    @OptionGroup(title: "Service clock (the date a feed's validity is checked against)")
    var clock: ClockOptions

    func validate() throws {
        guard !feeds.isEmpty else { throw ValidationError("name at least one feed to import") }
        _ = try limits()
    }

    /// The caps from the size flags (`4GiB`, `512M`, `65536`).
    func limits() throws -> ImportLimits {
        func size(_ text: String, _ flag: String) throws -> Int {
            guard let bytes = ImportLimits.parseSize(text) else {
                throw ValidationError("\(flag) expects a size such as 65536, 64KiB, 1MiB or 4GiB, got \"\(text)\"")
            }
            return bytes
        }
        guard maxCompressionRatio >= 1 else {
            throw ValidationError("\(ImportLimits.compressionRatioFlag) expects a ratio of at least 1")
        }
        return ImportLimits(
            maxFileBytes: try size(maxFileSize, ImportLimits.fileSizeFlag),
            maxCompressionRatio: maxCompressionRatio,
            maxLineBytes: try size(maxLineSize, ImportLimits.lineSizeFlag),
            maxFieldBytes: try size(maxFieldSize, ImportLimits.fieldSizeFlag))
    }

    func run() throws {
        var options = ImportOptions(
            feeds: feeds.map { ImportOptions.Feed(argument: $0) }, databasePath: db, strict: strict,
            progress: TerminalProgress.standardErrorIfTerminal(), limits: try limits())
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
