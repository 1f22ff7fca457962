import Foundation

/// What a generator run wrote.
public struct FeedSummary: Sendable, CustomStringConvertible {
    public struct File: Sendable {
        public var name: String
        public var rows: Int
        public var bytes: Int
    }

    /// A station ranked by how many distinct stop patterns serve it and its children.
    public struct BusyStation: Sendable {
        public var stopId: String
        public var name: String
        public var children: Int
        public var patterns: Int
    }

    public var directory: String
    public var files: [File]
    public var patterns: Int
    public var busiestStations: [BusyStation]
    public var seconds: Double

    /// Rows written to one file (`"stop_times.txt"`), 0 if it was not written.
    public func rows(_ fileName: String) -> Int {
        files.first { $0.name == fileName }?.rows ?? 0
    }

    public var totalBytes: Int { files.reduce(0) { $0 + $1.bytes } }

    public var description: String {
        var lines = ["wrote \(directory) in \(String(format: "%.2f", seconds)) s, \(megabytes(totalBytes))"]
        for file in files {
            lines.append(
                "  \(file.name.padding(toLength: 20, withPad: " ", startingAt: 0)) \(String(file.rows).leftPadded(11)) rows  \(megabytes(file.bytes).leftPadded(10))"
            )
        }
        lines.append("  stop patterns        \(String(patterns).leftPadded(11))")
        for station in busiestStations {
            lines.append(
                "  busy station \(station.stopId) \(station.name): \(station.children) children, \(station.patterns) patterns"
            )
        }
        return lines.joined(separator: "\n")
    }

    private func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
