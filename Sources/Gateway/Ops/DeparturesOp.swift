import TransitJSON
import TransitModel

// departures and trip: the static answer for the asked time, merged with the live state.

extension RequestDispatcher {
    func departures(_ request: GatewayRequest, _ query: DeparturesQuery, received: ContinuousClock.Instant) async -> Answer {
        switch await board(query) {
        case .failure(let error):
            return failure(request, error, received: received)
        case .success(let (answer, live)):
            return .success(id: request.id, op: .departures, live: live, received: received, capacity: 1024 + 900 * answer.rows.count) {
                $0.departuresData(answer, at: live.at)
            }
        }
    }

    /// A departure board merged with the live state. `at` defaults to now, pinned here so the static window,
    /// the countdowns and `meta.at` agree; with a cursor `at` still sets the countdowns' origin.
    func board(_ query: DeparturesQuery) async -> Result<(DeparturesAnswer, LiveMeta), GatewayError> {
        let now = UnixClock.now()
        var query = query
        let at = query.at ?? now
        query.at = at
        switch await staticClient.query(.departures(query)) {
        case .failure(let error):
            return .failure(error)
        case .success(.departures(let board)):
            return .success(LiveMerge.departures(board, reading: realtime.read(), at: at, now: now))
        case .success(let other):
            return .failure(GatewayError(.internal, "the static service answered departures with \(other.kindName)"))
        }
    }

    func trip(_ request: GatewayRequest, _ query: TripQuery, received: ContinuousClock.Instant) async -> Answer {
        let now = UnixClock.now()
        var query = query
        let at = query.at ?? now
        query.at = at
        switch await staticClient.query(.trip(query)) {
        case .failure(let error):
            return failure(request, error, received: received)
        case .success(.trip(let trip)):
            let (realtime, live) = LiveMerge.trip(trip, reading: self.realtime.read(), at: at, now: now)
            return .success(id: request.id, op: .trip, live: live, received: received, capacity: 1024 + 700 * trip.stops.count) {
                $0.tripData(trip, realtime: realtime, at: at)
            }
        case .success(let other):
            return unexpected(request, other, received: received)
        }
    }
}
