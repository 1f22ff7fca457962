/// A place between the entries of a list in `Key` order: just before or just after a key. A page going
/// forward lists the entries after it, a page going back those before it, so consecutive pages neither
/// repeat nor skip. Boards use it twice: the static service over its rows' keys, the gateway over the
/// merged board's keys (each with its own `BoardKey`).
public struct OrderedPosition<Key: Comparable & Sendable>: Equatable, Sendable {
    public var key: Key
    public var afterKey: Bool

    public init(key: Key, afterKey: Bool) {
        self.key = key
        self.afterKey = afterKey
    }

    public static func before(_ key: Key) -> Self { Self(key: key, afterKey: false) }
    public static func after(_ key: Key) -> Self { Self(key: key, afterKey: true) }

    /// Is an entry with key `k` after this position?
    public func precedes(_ k: Key) -> Bool { afterKey ? key < k : key <= k }
    /// Is an entry with key `k` before this position?
    public func follows(_ k: Key) -> Bool { afterKey ? k <= key : k < key }
}
