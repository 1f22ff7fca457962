import Logging
import TransitModel
import TransitProto

/// One REP request's bytes to the response's bytes. Never throws, never traps on bad input: bytes that are
/// not a `RealtimeRequest` get BAD_REQUEST (request id 0), bad arguments INVALID_ARGUMENT.
public struct RealtimeRequestHandler: Sendable {
    public let hub: RealtimeHub
    /// Each request at debug level, with its `request_id` (the gateway's: one id across the services' logs).
    public let logger: Logger?

    public init(hub: RealtimeHub, logger: Logger? = nil) {
        self.hub = hub
        self.logger = logger
    }

    public func handle(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        let request: RealtimeRequest
        do {
            request = try RealtimeCodec.decodeRequest(bytes)
        } catch {
            return RealtimeCodec.encode(
                RealtimeResponse(requestId: 0, result: .failure(ServiceError(.badRequest, error.description))))
        }
        let result = hub.answer(request.query)
        logger?.debug(
            "request",
            metadata: [
                "request_id": "\(request.requestId)", "query": "\(request.query.logName)",
                "status": "\(Self.statusName(result))",
            ])
        return RealtimeCodec.encode(RealtimeResponse(requestId: request.requestId, result: result))
    }

    private static func statusName<T>(_ result: Result<T, ServiceError>) -> String {
        switch result {
        case .success: "ok"
        case .failure(let error): "\(error.status)"
        }
    }

    public func handle(_ bytes: Span<UInt8>) -> [UInt8] {
        bytes.withUnsafeBytes { handle($0) }
    }
}

extension RealtimeQuery {
    /// The query's kind, for log lines.
    fileprivate var logName: String {
        switch self {
        case .snapshot(let topic): "snapshot \(topic)"
        case .trip: "trip"
        case .stop: "stop"
        case .vehicles: "vehicles"
        case .alerts: "alerts"
        case .sources: "sources"
        case .delayHistograms: "delay_histograms"
        }
    }
}
