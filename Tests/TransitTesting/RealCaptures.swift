import Foundation

/// Feeds recorded from real producers, kept outside the repository in ../shared/realdata/ (beside the project
/// folder, never committed). Tests that read them are skipped, with a message, when the folder is absent (a
/// fresh clone); crafted fixtures cover each quirk in the committed tests.
public enum RealCaptures {
    /// The project root's sibling folder shared/realdata.
    public static let folder = Repository.url("../shared/realdata").standardizedFileURL

    /// Whether the folder is there.
    public static var available: Bool { FileManager.default.fileExists(atPath: folder.path) }

    /// Why the real-capture tests were skipped (for `.enabled(if:_:)`).
    public static let absentReason = "../shared/realdata/ is absent: the real-capture tests are skipped"

    /// The path of `relativePath` (e.g. "tfnsw-sydney-2026-06-11-rtonly/tripupdates_sydneytrains.pb").
    public static func path(_ relativePath: String) -> String { folder.appendingPathComponent(relativePath).path }

    /// The bytes of `relativePath`.
    public static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(relativePath)))
    }

    /// Every .pb file below the folder, as paths relative to it, sorted.
    public static func captures() -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".pb") }.sorted()
    }
}
