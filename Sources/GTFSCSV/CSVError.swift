/// A CSV or value error with its place: file, physical line (1-based) and column (1-based field number,
/// with the header name when known).
public struct CSVError: Error, CustomStringConvertible, Sendable, Equatable {
    public let file: String
    public let line: Int
    public let column: Int?
    public let columnName: String?
    public let reason: String

    public init(file: String, line: Int, column: Int? = nil, columnName: String? = nil, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.columnName = columnName
        self.reason = reason
    }

    /// `stops.txt:12:3 (stop_lat): bad number "abc"`
    public var description: String {
        var place = "\(file):\(line)"
        if let column { place += ":\(column)" }
        if let columnName { place += " (\(columnName))" }
        return "\(place): \(reason)"
    }
}
