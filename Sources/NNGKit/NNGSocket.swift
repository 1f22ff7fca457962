// NNGKit: the project's only door to nng (1.5.x). Everything that crosses a process boundary goes through
// these types, as bytes; encoding is the callers' business.
//
// Threading model
// - nng is thread-safe: socket and aio functions may be called from any thread. The types that only hold
//   nng handles (`NNGSocket`, `NNGRequester`, `NNGPublisher`, `NNGSubscriber`) are therefore `Sendable`
//   and may be shared by many threads and tasks at once. After `close()`, calls fail with an `NNGError`
//   whose `isClosed` is true (nng looks sockets up by id, so a closed one is never touched).
// - `NNGReplyServer` runs N worker threads (nng threads, named "nng-rep"), each owning one REP context.
//   The handler is called on those threads, up to N calls at once, so it must be `@Sendable`; it may block
//   (SQLite, or even a blocking `NNGRequester.request` to another service) because it never occupies nng's
//   own small callback thread pool, so it cannot starve or deadlock nng's I/O.
// - `NNGRequester.request(_:timeout:) async` never blocks a thread: a per-request context and an aio whose
//   callback (on an nng thread) sends, then receives, then resumes a CheckedContinuation (AioOperation).
//   Task cancellation aborts the aio. The blocking variant runs the same steps and waits on a condition.
// - Every request has a deadline (no hang when no server is there), and dials are non-blocking by default:
//   nng keeps reconnecting in the background, so a client may start before its server.
//
// nng 1.5.2 pitfalls this module works around (details where they are handled)
// - Closing a socket while a call on one of its contexts is under way, or while nng's expire thread is
//   timing out a receive or request on it, can use freed memory and abort the process ("pthread_mutex_lock:
//   Invalid argument" in thread nng:aio:expire): NNGRequester and NNGSubscriber (OperationGate) and
//   NNGReplyServer (stop, and no timeouts) never let the two overlap.
// - `nng_close` can block forever after some connection churn: closes wait at most 2 s (BoundedClose).
// - Not fixable from outside nng: nng's internal reaper thread can wedge while it tears down a connection
//   that nng dropped for an oversized message (without nng's symbols, most likely a wait on an aio task that
//   was prepared and never run, which upstream fixed in 1.8). From then on the process can neither close
//   sockets nor reconnect dialers. Seen in about 1 of 9 runs of each test that sends an oversized message,
//   and in 3 CI runs so far. Closes give up after 2 s and are counted (`UnfinishedCloses`, BoundedClose.swift;
//   each service's metrics publish the count), which can also end the process for a supervisor to restart;
//   scripts/test runs those tests in processes of their own and runs a wedged test process again. The
//   services set generous size limits (protocol/README.md), so they do not drop messages this way.

import CNNG

/// One nng socket (REQ, REP, PUB or SUB). Closed on `close()` or when the last reference goes away.
///
/// Sendable: its only state is nng's socket id, and nng's socket functions are thread-safe.
public final class NNGSocket: Sendable {
    let handle: nng_socket
    /// "req", "rep", "pub" or "sub", for error messages.
    public let protocolName: String

    private init(_ protocolName: String, _ open: (UnsafeMutablePointer<nng_socket>) -> Int32) throws(NNGError) {
        var socket = nng_socket()
        try check("open \(protocolName) socket", open(&socket))
        handle = socket
        self.protocolName = protocolName
    }

    public static func req() throws(NNGError) -> NNGSocket { try NNGSocket("req", nng_req0_open) }
    public static func rep() throws(NNGError) -> NNGSocket { try NNGSocket("rep", nng_rep0_open) }
    public static func pub() throws(NNGError) -> NNGSocket { try NNGSocket("pub", nng_pub0_open) }
    public static func sub() throws(NNGError) -> NNGSocket { try NNGSocket("sub", nng_sub0_open) }

    deinit { _ = closeSocket(handle, waitingAtMost: Self.closeTimeout) }

    /// How long `close()` (and deinit) wait for nng to finish closing.
    public static let closeTimeout: Duration = .seconds(2)

    /// Closes the socket: pending operations on it fail with `isClosed`. Closing twice is harmless.
    /// Returns false if nng did not finish within `timeout`: nng 1.5.2 can block forever in `nng_close`
    /// (see BoundedClose.swift); the socket is unusable either way, only some of its memory may stay.
    @discardableResult
    public func close(timeout: Duration = NNGSocket.closeTimeout) -> Bool {
        closeSocket(handle, waitingAtMost: timeout)
    }

    // MARK: Endpoints

    /// Listens on `url`; a `tls+tcp://` URL with the process's TLS settings (`NNGTLS.process`).
    public func listen(_ url: String) throws(NNGError) {
        if NNGTLS.isTLS(url), let tls = NNGTLS.process { return try listenTLS(url, tls) }
        try check("\(protocolName) listen \(url)", nng_listen(handle, url, nil, 0))
    }

    /// Dials `url` (a `tls+tcp://` URL with the process's TLS settings, `NNGTLS.process`). Non-blocking by default: succeeds even if nobody listens yet, and nng keeps
    /// (re)connecting in the background. `blocking: true` fails at once if the first attempt fails.
    public func dial(_ url: String, blocking: Bool = false) throws(NNGError) {
        let flags = blocking ? 0 : Int32(NNG_FLAG_NONBLOCK)
        if NNGTLS.isTLS(url), let tls = NNGTLS.process { return try dialTLS(url, tls, flags: flags) }
        try check("\(protocolName) dial \(url)", nng_dial(handle, url, nil, flags))
    }

    // MARK: Options (set them before listen/dial where they concern connections)

    /// Timeout of `send`; `nil` = wait forever (nng's default).
    public func setSendTimeout(_ timeout: Duration?) throws(NNGError) {
        try check(
            "set \(protocolName) send timeout", nng_socket_set_ms(handle, NNG_OPT_SENDTIMEO, nngDuration(timeout)))
    }

    /// Timeout of `receive`; `nil` = wait forever (nng's default).
    public func setReceiveTimeout(_ timeout: Duration?) throws(NNGError) {
        try check(
            "set \(protocolName) receive timeout", nng_socket_set_ms(handle, NNG_OPT_RECVTIMEO, nngDuration(timeout)))
    }

    /// Largest message accepted from a peer, in bytes; 0 = no limit. Larger messages are dropped silently
    /// (the receiver just sees nothing; nng closes that connection and the dialer reconnects). Set it
    /// explicitly: nng documents 1 MiB as the default, while Debian's 1.5.2 build starts at 0 (no limit).
    public func setMaxReceiveSize(_ bytes: Int) throws(NNGError) {
        try check("set \(protocolName) max receive size", nng_socket_set_size(handle, NNG_OPT_RECVMAXSZ, max(0, bytes)))
    }

    /// Messages queued for sending (0…8192). PUB drops what does not fit, so size it for bursts.
    public func setSendBuffer(messages: Int) throws(NNGError) {
        try check(
            "set \(protocolName) send buffer", nng_socket_set_int(handle, NNG_OPT_SENDBUF, Int32(clamping: messages)))
    }

    /// Messages queued after receipt (0…8192).
    public func setReceiveBuffer(messages: Int) throws(NNGError) {
        try check(
            "set \(protocolName) receive buffer", nng_socket_set_int(handle, NNG_OPT_RECVBUF, Int32(clamping: messages))
        )
    }

    /// How soon a dialer retries after a failed or lost connection: starting at `min`, doubling up to `max`
    /// (`nil` = no backoff, always `min`). nng's default is 100 ms without backoff.
    public func setReconnectInterval(min: Duration, max: Duration? = nil) throws(NNGError) {
        try check(
            "set \(protocolName) reconnect min", nng_socket_set_ms(handle, NNG_OPT_RECONNMINT, min.nngMilliseconds))
        try check(
            "set \(protocolName) reconnect max",
            nng_socket_set_ms(handle, NNG_OPT_RECONNMAXT, max?.nngMilliseconds ?? 0))
    }

    /// SUB only: receive messages starting with `prefix` (empty = everything). The prefix is passed with its
    /// exact byte count; `nng_socket_set_string` would add the C string's NUL and then match nothing.
    public func subscribe(prefix: [UInt8]) throws(NNGError) {
        try setPrefixOption(NNG_OPT_SUB_SUBSCRIBE, prefix, "subscribe")
    }

    public func unsubscribe(prefix: [UInt8]) throws(NNGError) {
        try setPrefixOption(NNG_OPT_SUB_UNSUBSCRIBE, prefix, "unsubscribe")
    }

    private func setPrefixOption(_ option: String, _ prefix: [UInt8], _ what: String) throws(NNGError) {
        let rv = prefix.withUnsafeBytes { nng_socket_set(handle, option, $0.baseAddress, $0.count) }
        try check("\(protocolName) \(what) \(String(decoding: prefix, as: UTF8.self).debugDescription)", rv)
    }

    // MARK: Plain send/receive (REQ/REP without contexts, PUB, SUB); they obey the socket timeouts.

    public func send(_ bytes: [UInt8]) throws(NNGError) {
        try sendMessage(NNGMessage.make(bytes, operation: "\(protocolName) send"))
    }

    public func send(_ bytes: UnsafeRawBufferPointer) throws(NNGError) {
        try sendMessage(NNGMessage.make(bytes, operation: "\(protocolName) send"))
    }

    /// Sends and takes ownership of `msg` (freed here if nng refuses it).
    func sendMessage(_ msg: OpaquePointer) throws(NNGError) {
        let rv = nng_sendmsg(handle, msg, 0)
        if rv != 0 {
            nng_msg_free(msg)
            throw NNGError(operation: "\(protocolName) send", code: rv)
        }
    }

    /// The next message's bytes (one copy out of nng's message, which is then freed). With a receive timeout
    /// set, do not close the socket while a receive may be under way (see OperationGate); NNGSubscriber's
    /// receive is safe to close under.
    public func receive() throws(NNGError) -> [UInt8] {
        var msg: OpaquePointer?
        try check("\(protocolName) receive", nng_recvmsg(handle, &msg, 0))
        return NNGMessage.consume(msg!)
    }
}
