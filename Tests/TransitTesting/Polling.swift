/// Checks `condition` every `interval` until it holds; false when `timeout` passes first (or the task is
/// cancelled). The condition is checked once more at the end, so a last-moment change still counts.
public func eventually(
    timeout: Duration = .seconds(5), interval: Duration = .milliseconds(5), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        do { try await Task.sleep(for: interval) } catch { break }
    }
    return try await condition()
}
