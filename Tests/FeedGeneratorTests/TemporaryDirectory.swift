import Foundation

/// A fresh directory under the system temp folder, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init(_ label: String) throws {
        path = NSTemporaryDirectory() + "feedgen-test-\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    func bytes(_ file: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path + "/" + file))
    }
}
