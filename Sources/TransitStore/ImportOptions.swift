/// What `GTFSImporter` imports, and how.
public struct ImportOptions: Sendable {
    /// One feed on the command line: `path`, or `name=path`.
    public struct Feed: Sendable, Equatable {
        /// Names the feed in the database, the summary and error messages (default: the file name without
        /// its extension, e.g. `sydneytrains` for `feeds/sydneytrains.zip`).
        public var name: String
        /// A zip archive or a folder holding the feed's .txt files.
        public var path: String
        /// Prepended to the feed's agency, route, trip, service, shape and block ids (not stop ids), e.g. `B:`.
        public var prefix: String?

        public init(path: String, name: String? = nil, prefix: String? = nil) {
            self.path = path
            self.name = name ?? Feed.defaultName(for: path)
            self.prefix = prefix
        }

        /// Parses a command-line argument `name=path` or `path`.
        public init(argument: String) {
            if let eq = argument.firstIndex(of: "="), eq != argument.startIndex, !argument[..<eq].contains("/") {
                self.init(path: String(argument[argument.index(after: eq)...]), name: String(argument[..<eq]))
            } else {
                self.init(path: argument)
            }
        }

        /// `feeds/sydneytrains.zip` -> `sydneytrains`; `data/sample-gtfs/` -> `sample-gtfs`.
        public static func defaultName(for path: String) -> String {
            let last = path.split(separator: "/").last.map(String.init) ?? path
            if let dot = last.lastIndex(of: "."), dot != last.startIndex { return String(last[..<dot]) }
            return last
        }
    }

    public var feeds: [Feed]
    /// The database file to create or replace (atomically).
    public var databasePath: String
    /// Fail with the first row that breaks a reference instead of skipping and counting it.
    public var strict: Bool
    /// Receives progress about every 0.1 s; nil for none (see `TerminalProgress`).
    public var progress: (@Sendable (ImportProgress) -> Void)?
    /// Turn SIGINT/SIGTERM during the import into a clean failure (temp file removed, old database kept).
    public var handleInterrupts: Bool

    public init(feeds: [Feed], databasePath: String, strict: Bool = false,
                progress: (@Sendable (ImportProgress) -> Void)? = nil, handleInterrupts: Bool = true) {
        self.feeds = feeds
        self.databasePath = databasePath
        self.strict = strict
        self.progress = progress
        self.handleInterrupts = handleInterrupts
    }

    /// Applies `--prefix name=B:` arguments to the feeds they name; an unknown name is an error.
    public mutating func applyPrefixes(_ arguments: [String]) throws {
        for argument in arguments {
            guard let eq = argument.firstIndex(of: "=") else {
                throw ImportError("--prefix expects name=PREFIX, got \"\(argument)\"")
            }
            let name = String(argument[..<eq])
            let prefix = String(argument[argument.index(after: eq)...])
            guard let index = feeds.firstIndex(where: { $0.name == name }) else {
                let known = feeds.map(\.name).joined(separator: ", ")
                throw ImportError("--prefix names feed \"\(name)\", but the feeds are: \(known)")
            }
            feeds[index].prefix = prefix
        }
    }
}

/// A progress report: which file of which feed, how far, how fast.
public struct ImportProgress: Sendable {
    public var feed: String
    public var file: String
    public var rows: Int
    public var rowsPerSecond: Double
    /// 0…1 when the file's size is known.
    public var fraction: Double?
    /// True once, when the import is over (a terminal printer clears its line).
    public var finished = false
}

/// Why an import failed (CSV problems are reported as `GTFSCSV.CSVError` with file, line and column).
public struct ImportError: Error, CustomStringConvertible, Sendable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
