import Foundation

/// Files of this repository that tests read: the bundled sample feed, protocol/ documents, config/.
public enum Repository {
    /// The package root (Tests/TransitTesting/<this file> -> three levels up).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `relative` (e.g. "protocol/GATEWAY.md") under the package root.
    public static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// The path of `relative` under the package root.
    public static func path(_ relative: String) -> String { url(relative).path }
}
