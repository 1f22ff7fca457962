import Foundation

/// The temporary files in which imports build a database next to its target: `.NAME.importing-PID-RANDOM`.
///
/// An import holds an exclusive `flock` on its file for as long as it runs (the kernel drops it when the
/// process dies, however it dies). A file is stale — its import is really dead — only when both hold: no
/// process has it locked, and no process with the id in its name is alive. The lock alone would misjudge an
/// import between creating its file and locking it (the file is created under another name and renamed once
/// locked, so that window does not exist); the id alone would misjudge a reused id or an import in another
/// PID namespace sharing the folder. Either doubt keeps the file.
struct StaleImportFiles {
    let directory: String
    let target: String

    static let suffixes = ["", "-journal", "-wal", "-shm"]

    var prefix: String { ".\(target).importing-" }

    /// A new temporary file, created and locked: its path and the descriptor that holds the lock (close it
    /// once the file is renamed over the target or removed).
    func createLocked() throws -> (path: String, lockDescriptor: Int32) {
        let name = "\(prefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let path = (directory as NSString).appendingPathComponent(name)
        let creating = (directory as NSString).appendingPathComponent(".\(name).creating")
        let fd = open(creating, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw ImportError("cannot create a temporary database in \(directory): \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, rename(creating, path) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            unlink(creating)
            throw ImportError("cannot lock a temporary database in \(directory): \(reason)")
        }
        return (path, fd)
    }

    /// Removes the files of dead imports into the same target; returns their names.
    func removeDead() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var bases = Set<String>()
        for name in names where name.hasPrefix(prefix) {
            var base = name
            for suffix in Self.suffixes where !suffix.isEmpty && base.hasSuffix(suffix) {
                base.removeLast(suffix.count)
            }
            bases.insert(base)
        }
        var removed: [String] = []
        for base in bases.sorted() {
            let path = (directory as NSString).appendingPathComponent(base)
            guard let pid = processID(in: base), !isAlive(pid), !isLocked(path) else { continue }
            Self.remove(path)
            removed.append(base)
        }
        return removed
    }

    /// The process id in `.NAME.importing-PID-RANDOM`.
    private func processID(in name: String) -> pid_t? {
        let rest = name.dropFirst(prefix.count)
        guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0 else { return nil }
        return pid
    }

    private func isAlive(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }

    /// True when another open file description holds a lock on `path` (a missing file is not locked).
    private func isLocked(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return flock(fd, LOCK_EX | LOCK_NB) != 0
    }

    static func remove(_ path: String) {
        for suffix in suffixes { unlink(path + suffix) }
    }
}
