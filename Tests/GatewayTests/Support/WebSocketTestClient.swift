import Foundation

/// A WebSocket client for tests (RFC 6455, text frames only), over `LineClient`'s socket: the upgrade request
/// is written by hand, so a test sees the status and every frame as sent.
struct WebSocketTestClient {
    let socket: LineClient
    /// The upgrade's status line and headers (names lower-cased).
    let status: Int
    let headers: [String: String]

    /// Sends the upgrade request for `path`; `status` tells whether it was accepted (101).
    init(port: Int, path: String = "/v1/ws", headers extra: [String: String] = [:]) async throws {
        socket = try LineClient(port: port)
        var request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in extra { request += "\(name): \(value)\r\n" }
        try socket.send(request + "\r\n")
        let answer = try await HTTPConnection(socket).readHead()
        status = answer.status
        headers = answer.headers
    }

    enum Opcode: UInt8 {
        case continuation = 0, text = 1, binary = 2, close = 8, ping = 9, pong = 10
    }

    /// One frame, masked as a client must (a zero mask when `zeroMask`, so tests can write the bytes).
    func send(_ opcode: Opcode, _ payload: [UInt8], fin: Bool = true) throws {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode.rawValue]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((UInt64(payload.count) >> (8 * UInt64($0))) & 0xFF) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try socket.send(frame)
    }

    func sendText(_ text: String) throws { try send(.text, Array(text.utf8)) }

    /// The next frame from the server (servers do not mask).
    func readFrame(timeout: Duration = .seconds(5)) async throws -> (opcode: UInt8, payload: [UInt8]) {
        let head = try await socket.readBytes(2, timeout: timeout)
        var length = Int(head[1] & 0x7F)
        if length == 126 {
            let extended = try await socket.readBytes(2, timeout: timeout)
            length = Int(extended[0]) << 8 | Int(extended[1])
        } else if length == 127 {
            length = try await socket.readBytes(8, timeout: timeout).reduce(0) { $0 << 8 | Int($1) }
        }
        return (head[0] & 0x0F, try await socket.readBytes(length, timeout: timeout))
    }

    /// Text frames until one satisfies `until` (that one included); other frames are skipped.
    func texts(until: (String) -> Bool, timeout: Duration = .seconds(5)) async throws -> [String] {
        var texts: [String] = []
        while true {
            let frame = try await readFrame(timeout: timeout)
            guard frame.opcode == Opcode.text.rawValue else { continue }
            let text = String(decoding: frame.payload, as: UTF8.self)
            texts.append(text)
            if until(text) { return texts }
        }
    }
}
