/// Which database version a client of several replicas answers with, while a rollout puts the replicas on
/// different versions (each answer names the version it was read from), and which replica to ask.
///
/// The rule:
/// - The first answer that names a version pins it.
/// - Requests go to connected replicas that may be on the pinned version first (on it, or not known yet:
///   not answered since they connected; one answer tells), then to connected ones on another version, then
///   to the disconnected (they may come back within the request's deadline). Each group in turn, rotated by
///   the caller's turn so the load spreads.
/// - The pin moves to version V when every connected replica whose version is known reports V. A replica
///   that is down (no connection) does not count, so one that stays down cannot hold the move back; one
///   that is connected but has not answered yet does not count either (it is asked in the background).
/// - If no connected replica is on the pinned version any more (they went away) while others report
///   several versions, the pin moves to the version of the latest answer, so requests are not left with no
///   replica to ask.
/// - A request that carries a cursor (the static service's board cursor names rows of one import) is asked
///   only of replicas that may be on the cursor's version, and only an answer from that version is used
///   (`VersionPinnedRequester`'s `onlyVersion`): no other version's answer is taken for it.
/// - A replica that disconnects is forgotten (it may come back on another version).
public struct VersionPin: Sendable, Equatable {
    /// What the client knows of one replica.
    public struct Replica: Sendable, Equatable {
        /// It has a connection (nng pipe).
        public var connected = false
        /// The version its latest answer named, since it connected.
        public var version: String?
    }

    /// A change of the pinned version.
    public struct Move: Sendable, Equatable, CustomStringConvertible {
        public var from: String
        public var to: String
        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }
        public var description: String { "\(from) → \(to)" }
    }

    public private(set) var replicas: [Replica]
    /// The version answers are taken from; nil until the first answer.
    public private(set) var pinned: String?
    /// How often the pin moved.
    public private(set) var moves = 0

    public init(replicas count: Int) {
        precondition(count > 0, "VersionPin needs a replica")
        replicas = Array(repeating: Replica(), count: count)
    }

    /// Replica `index` got a connection. Its version is unknown until it answers.
    public mutating func connected(_ index: Int) {
        replicas[index] = Replica(connected: true, version: nil)
    }

    /// Replica `index` lost its connection; the pin may move (it no longer holds the move back).
    public mutating func disconnected(_ index: Int) -> Move? {
        replicas[index] = Replica(connected: false, version: nil)
        return settle(latest: nil)
    }

    /// Replica `index` answered from `version` (nil: it did not say). Answers of a replica that is not
    /// connected (arriving after its disconnection) are not counted.
    public mutating func answered(_ index: Int, version: String?) -> Move? {
        guard let version, replicas[index].connected else { return nil }
        replicas[index].version = version
        return settle(latest: version)
    }

    /// An answer from `version` is the pinned version's (or says nothing, or nothing is pinned yet).
    public func isPinned(_ version: String?) -> Bool {
        version == nil || pinned == nil || version == pinned
    }

    /// Replica `index` is worth asking for an answer on the pinned version: on it, or not known yet.
    public func mayBePinned(_ index: Int) -> Bool {
        replicas[index].version == nil || isPinned(replicas[index].version)
    }

    /// Replica `index` is worth asking for an answer read from `version` (a request carrying a cursor of that
    /// version): on it, or not known yet.
    public func mayBeOn(_ version: String, _ index: Int) -> Bool {
        replicas[index].version == nil || replicas[index].version == version
    }

    /// A connected replica is known to be on another version than `version`.
    public func someConnectedReplicaIsNotOn(_ version: String) -> Bool {
        replicas.contains { $0.connected && $0.version != nil && $0.version != version }
    }

    /// Every replica, the ones to ask first first (see the rule above); `turn` rotates each group.
    public func order(turn: Int) -> [Int] {
        var groups: [[Int]] = [[], [], []]
        for (index, replica) in replicas.enumerated() {
            groups[!replica.connected ? 2 : mayBePinned(index) ? 0 : 1].append(index)
        }
        return groups.flatMap { group -> [Int] in
            guard !group.isEmpty else { return [] }
            let start = ((turn % group.count) + group.count) % group.count
            return Array(group[start...] + group[..<start])
        }
    }

    private mutating func settle(latest: String?) -> Move? {
        guard let pinned else {
            self.pinned = latest
            return nil
        }
        let known = replicas.compactMap { $0.connected ? $0.version : nil }
        guard let first = known.first else { return nil }
        if first != pinned, known.allSatisfy({ $0 == first }) { return move(to: first) }
        if !known.contains(pinned), let latest, latest != pinned { return move(to: latest) }
        return nil
    }

    private mutating func move(to version: String) -> Move {
        let move = Move(from: pinned ?? "", to: version)
        pinned = version
        moves += 1
        return move
    }
}
