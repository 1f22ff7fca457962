import Foundation
import Synchronization

/// The epoch of an instance without etcd: it must only increase across restarts (the gateways follow only the
/// highest epoch they have seen), so it is one more than the last start's, kept in a file.
public enum EpochCounter {
    /// Reads the file's number (absent: 0), writes number + 1 (to a temporary file renamed over it, so a crash
    /// leaves the old or the new number) and returns it. Never less than `floor`.
    public static func next(file: String, floor: UInt64 = 1) throws -> UInt64 {
        var last: UInt64 = 0
        if let data = FileManager.default.contents(atPath: file) {
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let value = UInt64(text) else {
                throw EpochFileError(path: file, message: "holds \"\(text.prefix(40))\", not an epoch number")
            }
            last = value
        }
        guard last < UInt64.max else { throw EpochFileError(path: file, message: "is at the largest epoch") }
        let next = max(last + 1, floor)
        let temporary = file + ".tmp"
        do {
            try Data("\(next)\n".utf8).write(to: URL(fileURLWithPath: temporary))
            if rename(temporary, file) != 0 {
                throw EpochFileError(path: file, message: "cannot be replaced: \(String(cString: strerror(errno)))")
            }
        } catch let error as EpochFileError {
            throw error
        } catch {
            throw EpochFileError(path: file, message: "cannot be written: \(error.localizedDescription)")
        }
        return next
    }

    private static let lastFromClock = Mutex<UInt64>(0)

    /// The epoch of a start without `--epoch-file` (and of a hub made without one): the machine clock's unix
    /// milliseconds, and within one process always more than the last one given (a service restarted in the same
    /// process, as tests do, gets a higher epoch). Increasing across starts while the clock does not go back.
    public static func fromClock() -> UInt64 {
        let now = UInt64(max(1, Int64(Date().timeIntervalSince1970 * 1000)))
        return lastFromClock.withLock { last in
            last = max(now, last + 1)
            return last
        }
    }
}

public struct EpochFileError: Error, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "epoch file \(path) \(message)" }
}

extension RealtimeServiceConfiguration {
    /// The epoch of a start without etcd: `epochFile`'s next, else the machine clock's unix milliseconds.
    public func nextEpochWithoutElection() throws -> UInt64 {
        if let epochFile { return try EpochCounter.next(file: epochFile) }
        return EpochCounter.fromClock()
    }
}
