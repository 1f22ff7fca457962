import Synchronization

/// The id of the client request being answered, carried (as a task local) into the static and realtime
/// requests made for it: they send it as their `request_id`, and each service logs it, so one id follows a
/// gateway request through the three services' logs (`--log-level debug`).
enum RequestTrace {
    @TaskLocal static var id: UInt64?

    /// Ids of one gateway process: a random start, so two gateways' ids do not collide in practice.
    private static let next = Atomic<UInt64>(UInt64.random(in: 1...(1 << 48)))

    static func newId() -> UInt64 { next.add(1, ordering: .relaxed).newValue }
}
