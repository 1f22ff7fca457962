extension RandomAccessCollection where Index == Int {
    /// The first index whose element satisfies `predicate`, which must be false then true along the
    /// collection (binary search; `endIndex` when none does). Used to split work between threads.
    package func partitionPoint(_ predicate: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let mid = low + (high - low) / 2
            if predicate(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
