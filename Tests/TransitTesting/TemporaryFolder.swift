import Foundation

/// A fresh folder under /tmp, removed with everything in it when the value is released. The path is kept
/// short: tests put ipc sockets in it, and Unix socket paths are limited to 107 bytes.
public final class TemporaryFolder: Sendable {
    public let url: URL

    /// The folder's path.
    public var path: String { url.path }

    /// `label` starts the folder's name, to tell which tests left a folder behind after a crash.
    public init(_ label: String = "test") throws {
        url = URL(fileURLWithPath: "/tmp/\(label)-\(UUID().uuidString.prefix(13))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The bytes of the file `name` inside the folder.
    public func contents(_ name: String) throws -> Data { try Data(contentsOf: url.appendingPathComponent(name)) }

    /// Writes `files` (name -> content) into a new folder `name` (replacing it) and returns its path.
    public func writeFeed(_ name: String, _ files: [String: String]) throws -> String {
        let folder = url.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (file, content) in files {
            try Data(content.utf8).write(to: folder.appendingPathComponent(file))
        }
        return folder.path
    }
}
