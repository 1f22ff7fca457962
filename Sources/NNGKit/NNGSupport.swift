import CNNG

// Small internal helpers shared by the NNGKit types: durations, messages, synchronous aio.

extension Duration {
    /// Milliseconds for nng: rounded up (so 0.2 ms never becomes "poll"), clamped to nng's range.
    var nngMilliseconds: nng_duration {
        let (seconds, attoseconds) = components
        if seconds < 0 || (seconds == 0 && attoseconds <= 0) { return 0 }
        let ms = seconds.multipliedReportingOverflow(by: 1000)
        let total =
            ms.overflow
            ? Int64.max
            : ms.partialValue.addingReportingOverflow((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
                .partialValue
        return nng_duration(clamping: min(total, Int64(Int32.max - 1)))
    }
}

/// `nil` means "wait forever" where nng allows it.
func nngDuration(_ timeout: Duration?) -> nng_duration {
    timeout?.nngMilliseconds ?? NNG_DURATION_INFINITE
}

enum NNGMessage {
    /// A new nng message holding the given byte ranges back to back (one copy each, no concatenation).
    static func make(_ parts: UnsafeRawBufferPointer..., operation: @autoclosure () -> String) throws(NNGError)
        -> OpaquePointer
    {
        var total = 0
        for part in parts { total += part.count }
        var msg: OpaquePointer?
        try check(operation(), nng_msg_alloc(&msg, total))
        guard let msg else { throw NNGError(operation: operation(), code: Int32(NNG_ENOMEM.rawValue)) }
        var offset = 0
        let body = nng_msg_body(msg)!
        for part in parts where part.count > 0 {
            (body + offset).copyMemory(from: part.baseAddress!, byteCount: part.count)
            offset += part.count
        }
        return msg
    }

    static func make(_ bytes: [UInt8], operation: @autoclosure () -> String) throws(NNGError) -> OpaquePointer {
        // withUnsafeBytes only rethrows untyped errors, so carry the result out instead of throwing inside.
        let made = bytes.withUnsafeBytes { raw in
            Result { () throws(NNGError) in try make(raw, operation: operation()) }
        }
        return try made.get()
    }

    /// Copies the body out and frees the message.
    static func consume(_ msg: OpaquePointer) -> [UInt8] {
        defer { nng_msg_free(msg) }
        let count = nng_msg_len(msg)
        guard count > 0, let body = nng_msg_body(msg) else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: body, byteCount: count)
            initialized = count
        }
    }
}
