import Foundation
import Synchronization
import TransitStore

/// The database being served, replaced whole on reload.
///
/// Queries take the current `StaticStore` (a strong reference) and run on it; `reopen()` opens the file at
/// `path` again (an import renames a new file into place) and swaps the reference. Queries already running
/// keep the old store alive and finish on it; its connections close when the last of them lets go.
public final class ReloadableStore: Sendable {
    public let path: String
    public let connections: Int
    private let current: Mutex<Opened>
    /// Serializes reopens (SIGHUP and the file watch may ask at the same time).
    private let reopening = Mutex<Void>(())

    private struct Opened: Sendable {
        var store: StaticStore
        /// The file that store reads, as it was identified just before opening it.
        var file: FileIdentity?
    }

    /// Opens `path`; a missing or unreadable database throws (the service cannot start without one).
    public init(path: String, connections: Int) throws(StoreError) {
        self.path = path
        self.connections = connections
        current = Mutex(try Self.open(path, connections))
    }

    /// The store to answer a query with.
    public var store: StaticStore { current.withLock { $0.store } }

    /// Opens the file at `path` again and serves it from now on. On failure the old store keeps serving
    /// and the error is thrown. Returns the new store.
    @discardableResult
    public func reopen() throws(StoreError) -> StaticStore {
        try reopening.withLock { _ throws(StoreError) in
            let opened = try Self.open(path, connections)
            current.withLock { $0 = opened }
            return opened.store
        }
    }

    /// True when the file at `path` is no longer the one being served (replaced by an import, or removed).
    public var fileWasReplaced: Bool {
        let served = current.withLock { $0.file }
        return FileIdentity(path: path) != served
    }

    private static func open(_ path: String, _ connections: Int) throws(StoreError) -> Opened {
        // Identify the file before opening it: if an import renames a new file in between, the identity is
        // the old one and the next check sees the replacement (the other order could miss it).
        let file = FileIdentity(path: path)
        let store = try StaticStore(path: path, connections: connections)
        try store.prepareSearch()
        return Opened(store: store, file: file)
    }
}

/// Which file a path names: device and inode (a rename over the path changes them), plus size and
/// modification time (in case a file is rewritten in place).
struct FileIdentity: Sendable, Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedNanos: Int64

    /// nil when nothing is at `path`.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedNanos = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }
}
