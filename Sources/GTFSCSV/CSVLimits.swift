/// Caps on what one file may hold, so that a broken or hostile file is refused before it costs gigabytes of
/// memory or database. Each is checked with an integer compare per chunk or per record; the refusal is a
/// `CSVError` whose `exceededLimit` says which cap was hit.
public struct CSVLimits: Sendable, Equatable {
    /// Bytes read from the source (uncompressed) per file.
    public var maxFileBytes: Int
    /// Bytes per record, line end excluded (a quoted field's line breaks are part of its record).
    public var maxLineBytes: Int
    /// Bytes per field, as found in the file (quotes and escapes included).
    public var maxFieldBytes: Int

    public init(maxFileBytes: Int = 4 << 30, maxLineBytes: Int = 1 << 20, maxFieldBytes: Int = 64 << 10) {
        self.maxFileBytes = maxFileBytes
        self.maxLineBytes = maxLineBytes
        self.maxFieldBytes = maxFieldBytes
    }

    /// 4 GiB per file, 1 MiB per line, 64 KiB per field.
    public static let `default` = CSVLimits()

    /// No caps (tests and trusted input).
    public static let none = CSVLimits(maxFileBytes: .max, maxLineBytes: .max, maxFieldBytes: .max)

    public enum Kind: Sendable, Equatable {
        case fileBytes, lineBytes, fieldBytes
    }

    /// `4 GiB`, `64 KiB`, `2000 bytes (2.0 KiB)`, `300 bytes`; `approximately`: `2.0 KiB`.
    public static func describe(bytes: Int, approximately: Bool = false) -> String {
        let units: [(Int, String)] = [(1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        for (size, name) in units where bytes >= size {
            if bytes % size == 0 { return "\(bytes / size) \(name)" }
            let tenths = Int((Double(bytes) * 10 / Double(size)).rounded())
            let rounded = "\(tenths / 10).\(tenths % 10) \(name)"
            return approximately ? rounded : "\(bytes) bytes (\(rounded))"
        }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}

/// A problem in a record that the reader can read past: the handler given to `CSVReader` decides (throw to
/// fail, return to go on); `CSVReader` says what going on means for each kind.
public struct CSVIssue: Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// A NUL byte (0x00) in a record; going on skips the record.
        case nulByte
        /// A field read as text that is not valid UTF-8; going on reads it with U+FFFD in place of bad bytes.
        case invalidUTF8
        /// A UTF-8 byte-order mark (EF BB BF) after the start of the file, e.g. where two files were joined;
        /// going on removes it from the field.
        case strayByteOrderMark
    }

    public let kind: Kind
    /// Where (file, line, column) and what.
    public let error: CSVError

    public init(kind: Kind, error: CSVError) {
        self.kind = kind
        self.error = error
    }

    public var description: String { error.description }
}
