import RealtimeService

@testable import Gateway

/// Runs `body` with a gateway that follows the realtime hub behind `sockets` (subscribes to `pub`, asks `rep`),
/// once the gateway has heard it: heartbeats are sent until its realtime view is live.
func withGatewayFollowing<T>(
    _ sockets: RealtimeSockets, pub: String, rep: String, configure: (inout GatewayConfiguration) -> Void = { _ in },
    _ body: (GatewayFixture) async throws -> T
) async throws -> T {
    try await withGateway(configure: { config in
        config.subscribeURL = pub
        config.realtimeURL = rep
        configure(&config)
    }) { fixture in
        try await eventually("the gateway hears the publisher") {
            sockets.hub.heartbeat()
            return fixture.realtime.read().status == .ok
        }
        return try await body(fixture)
    }
}
