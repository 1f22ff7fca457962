// Plays one kind of a replay folder: the next snapshot's file on every tick, re-stamped with the current
// time so a demo never goes stale.
import Foundation

struct ReplayFetcher {
    let folder: String
    let kind: SourceKind
    let loop: Bool
    let maxBytes: Int
    let restamp: FeedRestamp?
    private var snapshots: [String] = []
    private var position = 0

    init(folder: String, kind: SourceKind, loop: Bool, maxBytes: Int, restamp: FeedRestamp?) {
        self.folder = folder
        self.kind = kind
        self.loop = loop
        self.maxBytes = maxBytes
        self.restamp = restamp
    }

    mutating func fetch(now: Date) -> FetchOutcome {
        if position >= snapshots.count {
            if !snapshots.isEmpty && !loop { return .finished }
            // Start (again): rescan, so snapshots added meanwhile join the next pass.
            position = 0
            do {
                snapshots = try ReplayFolder.snapshots(in: folder)
            } catch {
                snapshots = []
                return .failed(error, retryAfter: nil)
            }
            guard !snapshots.isEmpty else { return .failed(.replayEmpty(folder: folder), retryAfter: nil) }
        }
        let snapshot = snapshots[position]
        position += 1
        guard let path = ReplayFolder.file(of: kind, in: snapshot) else { return .nothing }
        let read: FileReader.Read
        switch FileReader.read(path: path, maxBytes: maxBytes) {
        case .failure(let error): return .failed(error, retryAfter: nil)
        case .success(nil): return .nothing
        case .success(let done?): read = done
        }
        guard let restamp else { return .fetched(bytes: read.bytes, httpDate: nil) }
        do {
            let stamped = try restamp(read.bytes, UInt64(max(0, now.timeIntervalSince1970)))
            return .fetched(bytes: stamped, httpDate: nil)
        } catch {
            return .failed(.restampFailed(path: path, reason: String(describing: error)), retryAfter: nil)
        }
    }
}
