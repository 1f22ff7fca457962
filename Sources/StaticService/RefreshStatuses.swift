import FeedRefresh
import Foundation
import Synchronization
import TransitModel

/// The refresher's state file beside the served database (`<db>.refresh/state.json`, protocol/README.md flow
/// 9), read into `feed_info`'s feeds. Read again only when the file changed (feed_info is asked every second
/// per client with several replicas).
final class RefreshStatuses: Sendable {
    private let databasePath: String
    private let cache = Mutex<(stamp: [Int64]?, statuses: [String: FeedRefreshStatus])>((nil, [:]))

    init(databasePath: String) {
        self.databasePath = databasePath
    }

    /// `info` with each URL feed's refresh status.
    func annotate(_ info: FeedInfo) -> FeedInfo {
        let statuses = current()
        guard !statuses.isEmpty else { return info }
        var info = info
        for index in info.feeds.indices { info.feeds[index].refresh = statuses[info.feeds[index].name] }
        return info
    }

    private func current() -> [String: FeedRefreshStatus] {
        let path = RefreshState.file(forDatabase: databasePath)
        var info = stat()
        guard stat(path, &info) == 0 else { return [:] }
        let stamp = [
            Int64(info.st_ino), Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec),
        ]
        if let cached = cache.withLock({ $0.stamp == stamp ? $0.statuses : nil }) { return cached }
        let state = RefreshState.load(forDatabase: databasePath)
        let statuses = Dictionary(state.feeds.map { ($0.name, $0.refresh) }, uniquingKeysWith: { _, last in last })
        cache.withLock { $0 = (stamp, statuses) }
        return statuses
    }
}
