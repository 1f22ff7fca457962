import CNNG

/// A failed nng call: what was attempted (including the URL where there is one), nng's error code and
/// nng's own explanation of it (`nng_strerror`).
public struct NNGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was attempted, e.g. `"dial ipc:///tmp/static.ipc"` or `"request to tcp://127.0.0.1:5555"`.
    public let operation: String
    /// nng's error number (`NNG_ETIMEDOUT`, `NNG_ECLOSED`, …).
    public let code: Int32

    public init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// nng's text for `code`.
    public var reason: String { String(cString: nng_strerror(code)) }

    /// The operation's timeout (or the socket's send/receive timeout) expired.
    public var isTimedOut: Bool { code == Int32(NNG_ETIMEDOUT.rawValue) }

    /// The socket (or context) was closed, e.g. a server was stopped.
    public var isClosed: Bool { code == Int32(NNG_ECLOSED.rawValue) }

    public var description: String { "\(operation) failed: \(reason) (nng error \(code))" }
}

/// Throws `result` (what an nng function returned: 0 or an error number) as an `NNGError` unless it is 0.
@inline(__always)
func check(_ operation: @autoclosure () -> String, _ result: Int32) throws(NNGError) {
    if result != 0 { throw NNGError(operation: operation(), code: result) }
}
