/// Ids drawn by weight (routes by their trips, stops by their board's departures): the ids and the running
/// total of their weights, so a draw is one binary search.
public struct WeightedIds: Sendable, Equatable {
    public private(set) var ids: [String] = []
    /// Cumulative weights of `ids` (same length; the last is the total).
    public private(set) var cumulative: [Double] = []

    public init() {}

    public var isEmpty: Bool { ids.isEmpty }
    public var count: Int { ids.count }

    /// Adds `id`; a weight at or below 0 makes it never drawn (but still written to an ids file).
    public mutating func add(_ id: String, weight: Double) {
        ids.append(id)
        cumulative.append((cumulative.last ?? 0) + max(weight, 0))
    }

    /// The weight `ids[k]` was added with.
    public func weight(at k: Int) -> Double { cumulative[k] - (k > 0 ? cumulative[k - 1] : 0) }

    /// An id drawn by weight (`u` uniform in [0, 1)); nil when empty.
    public func pick(at u: Double) -> String? {
        guard !ids.isEmpty else { return nil }
        return ids[Self.index(in: cumulative, at: u)]
    }

    /// The index a draw `u` (uniform in [0, 1)) lands on in running totals of weights (not empty).
    static func index(in cumulative: [Double], at u: Double) -> Int {
        let target = u * cumulative[cumulative.count - 1]
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let mid = (low + high) / 2
            if cumulative[mid] > target { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
