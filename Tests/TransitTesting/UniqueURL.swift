import Foundation

/// nng URLs no other test uses.
public enum UniqueURL {
    /// An ipc URL under /tmp (short: Unix socket paths are limited to 107 bytes).
    public static func ipc(_ label: String) -> String {
        "ipc:///tmp/\(label)-\(UUID().uuidString.prefix(8)).sock"
    }

    /// An in-process URL.
    public static func inproc(_ label: String) -> String {
        "inproc://\(label)-\(UUID().uuidString)"
    }
}
