/// A CSV or value error with its place: file, physical line (1-based) and column (1-based field number,
/// with the header name when known).
public struct CSVError: Error, CustomStringConvertible, Sendable, Equatable {
    public let file: String
    public let line: Int
    public let column: Int?
    public let columnName: String?
    public let reason: String
    /// Set when a cap of `CSVLimits` refused the file.
    public let exceededLimit: CSVLimits.Kind?
    /// How to get past the refusal (e.g. the flag that raises the cap), appended to the description.
    public var hint: String?

    public init(
        file: String, line: Int, column: Int? = nil, columnName: String? = nil, reason: String,
        exceededLimit: CSVLimits.Kind? = nil
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.columnName = columnName
        self.reason = reason
        self.exceededLimit = exceededLimit
    }

    /// `stops.txt:12:3 (stop_lat): bad number "abc"`
    public var description: String {
        var place = "\(file):\(line)"
        if let column { place += ":\(column)" }
        if let columnName { place += " (\(columnName))" }
        return "\(place): \(reason)" + (hint.map { " (\($0))" } ?? "")
    }
}
