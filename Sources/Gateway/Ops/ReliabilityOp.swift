import GatewayProtocol
import RealtimeFollowing
import TransitModel

// reliability: the recorded departure delays of a route, a stop or a route at a stop (GATEWAY.md
// "reliability"), asked from the realtime service every time (the op is rare; boards use the cache).

extension RequestDispatcher {
    func reliability(_ request: GatewayRequest, _ query: DelaySlice, received: ContinuousClock.Instant) async
        -> Answer
    {
        guard let realtimeClient else {
            return failure(
                request, GatewayError(.realtimeUnavailable, "the gateway runs without realtime (no --realtime URL)"),
                received: received)
        }
        let window: DelayWindowHistogram
        switch await realtimeClient.query(.delayHistograms([query]), requestId: RequestTrace.id) {
        case .success(.delayHistograms(let answer)) where answer.count == 1:
            window = answer[0]
        case .success:
            return failure(
                request, GatewayError(.internal, "the realtime service answered delay_histograms with something else"),
                received: received)
        case .failure(.cancelled):
            return failure(
                request, GatewayError(.timeout, "cancelled while waiting for the realtime service"), received: received)
        case .failure(.refused(let error)) where error.status == .invalidArgument:
            return failure(request, GatewayError(.invalidArgument, error.message), received: received)
        case .failure(let error):
            return failure(request, GatewayError(.realtimeUnavailable, "\(error)"), received: received)
        }
        let now = clock.unixSeconds
        let reading = realtime.read()
        let live = LiveMeta(
            at: now, source: .staticAndRealtime, stale: false,
            feedAgeSeconds: LiveMerge.feedAge(reading.state, kind: .tripUpdates, now: now), epoch: reading.epoch)
        return .success(id: request.id, op: .reliability, live: live, received: received, capacity: 4096) {
            $0.reliabilityData(ReliabilityAnswer(query: query, window: window))
        }
    }
}
