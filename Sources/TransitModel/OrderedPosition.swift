/// A place between the entries of a list in `Key` order: just before or just after a key. A page going
/// forward lists the entries after it, a page going back those before it, so consecutive pages neither
/// repeat nor skip. Boards use it twice: the static service over its rows' keys, the gateway over the
/// merged board's keys (each with its own `BoardKey`).
public struct OrderedPosition<Key: Comparable & Sendable>: Equatable, Sendable {
    /// The key the position is next to.
    public var key: Key
    /// true: just after `key`; false: just before it.
    public var afterKey: Bool

    /// The position just after (`afterKey`) or just before `key`.
    public init(key: Key, afterKey: Bool) {
        self.key = key
        self.afterKey = afterKey
    }

    /// The position just before `key`: an entry with that key comes after it.
    public static func before(_ key: Key) -> Self { Self(key: key, afterKey: false) }
    /// The position just after `key`: an entry with that key comes before it.
    public static func after(_ key: Key) -> Self { Self(key: key, afterKey: true) }

    /// Is an entry with key `k` after this position?
    public func precedes(_ k: Key) -> Bool { afterKey ? key < k : key <= k }
    /// Is an entry with key `k` before this position?
    public func follows(_ k: Key) -> Bool { afterKey ? k <= key : k < key }
}
