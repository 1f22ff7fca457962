import TransitModel
import TransitProto

/// One REP request's bytes to the response's bytes. Never throws, never traps on bad input: bytes that are
/// not a `RealtimeRequest` get BAD_REQUEST (request id 0), bad arguments INVALID_ARGUMENT.
public struct RealtimeRequestHandler: Sendable {
    public let hub: RealtimeHub

    public init(hub: RealtimeHub) { self.hub = hub }

    public func handle(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        let request: RealtimeRequest
        do {
            request = try RealtimeCodec.decodeRequest(bytes)
        } catch {
            return RealtimeCodec.encode(
                RealtimeResponse(requestId: 0, result: .failure(ServiceError(.badRequest, error.description))))
        }
        return RealtimeCodec.encode(RealtimeResponse(requestId: request.requestId, result: hub.answer(request.query)))
    }

    public func handle(_ bytes: Span<UInt8>) -> [UInt8] {
        bytes.withUnsafeBytes { handle($0) }
    }
}
