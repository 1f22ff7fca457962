import ArgumentParser
import FeedRefresh
import Foundation
import HTTPFetching
import ServiceSupport
import TransitStore

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import GTFS feeds into a new database, renamed over --db only when complete.",
        discussion: """
            Feeds are zip archives or folders; name=path names a feed (default: its file name). \
            An http(s) URL (or name=URL) is downloaded first (at most --max-download bytes, streamed to a \
            file beside --db; an answer that is not a zip is refused), with --header 'Name: value' request \
            headers; $VAR / ${VAR} in URLs and header values are expanded from the environment (sent over https \
            only, or http to localhost). `transit-static refresh` keeps such feeds current. \
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

    @Argument(
        help: ArgumentHelp(
            "GTFS feeds: feed.zip, a folder, an http(s) URL, or name=path / name=URL.", valueName: "feed"))
    var feeds: [String]

    @Option(help: ArgumentHelp("A request header for the URL feeds, `Name: value`; repeatable.", valueName: "header"))
    var header: [String] = []

    @Option(help: ArgumentHelp("Refuse a URL feed's download larger than this.", valueName: "size"))
    var maxDownload = "1GiB"

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

    func run() async throws {
        var downloads: [String] = []
        defer { for path in downloads { unlink(path) } }
        var importFeeds: [ImportOptions.Feed] = []
        for argument in feeds {
            guard RemoteFeed.isURL(argument) else {
                importFeeds.append(ImportOptions.Feed(argument: argument))
                continue
            }
            let path = try await download(argument, into: &downloads)
            importFeeds.append(ImportOptions.Feed(path: path, name: try remote(argument).name))
        }
        var options = ImportOptions(
            feeds: importFeeds, databasePath: db, strict: strict,
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

    private func remote(_ argument: String) throws -> RemoteFeed {
        do {
            return try RemoteFeed(argument: argument, headers: header, environment: ProcessInfo.processInfo.environment)
        } catch {
            printError("import failed: \(error)")
            throw ExitCode.failure
        }
    }

    /// Downloads a URL feed to a file beside --db (removed after the import); its path.
    private func download(_ argument: String, into downloads: inout [String]) async throws -> String {
        let feed = try remote(argument)
        guard let maxBytes = ImportLimits.parseSize(maxDownload) else {
            printError("import failed: --max-download expects a size such as 1GiB, got \"\(maxDownload)\"")
            throw ExitCode.failure
        }
        let folder = (db as NSString).deletingLastPathComponent
        let path = (folder.isEmpty ? "." : folder) + "/.\(feed.name).download-\(getpid())"
        downloads.append(path)
        let request = HTTPFetchRequest(
            url: feed.url, headers: feed.headers, maxBytes: maxBytes,
            timeout: RefreshConfiguration.Defaults.downloadTimeout)
        let failure: String?
        switch await HTTPFetchClient.shared.fetch(request, to: .file(path)) {
        case .failure(let error): failure = "\(error)"
        case .success(let (response, _)) where !response.isSuccess: failure = "HTTP \(response.status)"
        case .success:
            failure = RefreshValidation.notZip(FeedRefresher.prefix(of: path)).map {
                "the answer is not a zip archive (it looks like \($0))"
            }
        }
        if let failure {
            printError("import failed: \(feed.name) from \(feed.redactedURL): \(failure)")
            printError("the previous database (if any) at \(db) is unchanged")
            throw ExitCode.failure
        }
        return path
    }

    /// One warning line per feed whose validity dates do not cover the clock's date (the import goes ahead).
    private func warnOutsideValidity(_ summary: ImportSummary) {
        let now = clock.serviceClock.unixSeconds
        for feed in summary.feeds {
            if let warning = feed.validityWarning(atUnix: now) { printError("warning: \(warning)") }
        }
    }
}
