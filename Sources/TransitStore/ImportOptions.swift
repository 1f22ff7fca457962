import Foundation
import GTFSCSV

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
    /// Caps on the size of files, records and fields and on the compression ratio of zip entries.
    public var limits: ImportLimits

    public init(
        feeds: [Feed], databasePath: String, strict: Bool = false,
        progress: (@Sendable (ImportProgress) -> Void)? = nil, handleInterrupts: Bool = true,
        limits: ImportLimits = ImportLimits()
    ) {
        self.feeds = feeds
        self.databasePath = databasePath
        self.strict = strict
        self.progress = progress
        self.handleInterrupts = handleInterrupts
        self.limits = limits
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

/// Caps that refuse a broken or hostile feed before it costs gigabytes (a zip bomb, a 100 MB stop name). Each
/// refusal names the file, the cap and the `transit-static import` flag that raises it (`flag(for:)`); the
/// previous database stays in place.
public struct ImportLimits: Sendable, Equatable {
    /// Uncompressed bytes per file (`--max-file-size`, default 4 GiB). Checked against a zip's declared sizes
    /// before anything is read, and against the bytes actually read.
    public var maxFileBytes: Int
    /// Uncompressed / compressed size per zip entry (`--max-compression-ratio`, default 100). Real GTFS text
    /// deflates about 5–10×; a zip bomb thousands of times. Entries that inflate to less than
    /// `ratioExemptBytes` are not checked (a ratio says nothing about a few kilobytes).
    public var maxCompressionRatio: Int
    /// Bytes per record (`--max-line-size`, default 1 MiB).
    public var maxLineBytes: Int
    /// Bytes per field (`--max-field-size`, default 64 KiB).
    public var maxFieldBytes: Int

    public static let ratioExemptBytes = 1 << 20

    public init(
        maxFileBytes: Int = 4 << 30, maxCompressionRatio: Int = 100, maxLineBytes: Int = 1 << 20,
        maxFieldBytes: Int = 64 << 10
    ) {
        self.maxFileBytes = maxFileBytes
        self.maxCompressionRatio = maxCompressionRatio
        self.maxLineBytes = maxLineBytes
        self.maxFieldBytes = maxFieldBytes
    }

    var csv: CSVLimits {
        CSVLimits(maxFileBytes: maxFileBytes, maxLineBytes: maxLineBytes, maxFieldBytes: maxFieldBytes)
    }

    public static let fileSizeFlag = "--max-file-size"
    public static let compressionRatioFlag = "--max-compression-ratio"
    public static let lineSizeFlag = "--max-line-size"
    public static let fieldSizeFlag = "--max-field-size"

    static func flag(for kind: CSVLimits.Kind) -> String {
        switch kind {
        case .fileBytes: fileSizeFlag
        case .lineBytes: lineSizeFlag
        case .fieldBytes: fieldSizeFlag
        }
    }

    /// Parses a size flag: bytes (`65536`) or a number with a binary unit, `K`/`KiB`, `M`/`MiB`, `G`/`GiB`,
    /// `T`/`TiB` (case-insensitive, `64KiB`, `1.5G`); nil when not a positive size.
    public static func parseSize(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        var unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        if unit.hasSuffix("ib") { unit.removeLast(2) } else if unit.hasSuffix("b") { unit.removeLast() }
        let scales: [String: Double] = ["": 1, "k": 0x1p10, "m": 0x1p20, "g": 0x1p30, "t": 0x1p40]
        guard let number = Double(digits), let scale = scales[unit] else { return nil }
        let bytes = (number * scale).rounded()
        guard bytes >= 1, bytes < 9.0e18 else { return nil }
        return Int(bytes)
    }
}
