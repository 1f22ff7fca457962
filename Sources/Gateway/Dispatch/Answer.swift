import GatewayProtocol

/// One answer line and what the statistics record about it.
package struct Answer: Sendable {
    package var bytes: [UInt8]
    /// nil when the line was not a request with a known op (BAD_JSON, UNKNOWN_OP, LINE_TOO_LONG …).
    package var op: GatewayOpKind?
    package var error: GatewayErrorCode?
    package var micros: Int64

    package static func failure(
        id: RawJSON, op: GatewayOpKind?, _ error: GatewayError, received: ContinuousClock.Instant
    )
        -> Answer
    {
        Answer(
            bytes: GatewayResponse.error(id: id, error), op: op, error: error.code, micros: received.microsecondsElapsed
        )
    }

    /// A success line; `data` writes the `data` value. `elapsed_us` is taken just before encoding.
    static func success(
        id: RawJSON, op: GatewayOpKind, live: LiveMeta? = nil, note: String? = nil, epoch: UInt64?? = nil,
        received: ContinuousClock.Instant, capacity: Int = 2048, data: (inout JSONWriter) -> Void
    ) -> Answer {
        let micros = received.microsecondsElapsed
        let meta = ResponseMeta(op: op, elapsedMicros: micros, live: live, note: note, epoch: epoch)
        return Answer(
            bytes: GatewayResponse.success(id: id, meta: meta, capacity: capacity, data: data), op: op, error: nil,
            micros: micros)
    }
}
