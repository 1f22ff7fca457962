import NNGKit
import ProcessSupport

/// What `serve --metrics` publishes at scrape time beyond what `GatewayStats.record` counts as it answers:
/// values the gateway keeps anyway (`stats`, `health`), read when Prometheus asks. The main turns each into
/// a gauge, or a counter for totals (`isTotal`).
public struct GatewayMetricValue: Sendable {
    public var name: String
    public var dimensions: [(String, String)]
    public var value: Double
    /// A running total (exported as a counter), else a level (a gauge).
    public var isTotal: Bool
}

extension GatewayServer {
    /// The scrape-time values: connections, in flight, subscriptions, board cache, the static service as the
    /// breaker sees it and its answers per replica, realtime heartbeat and feed ages, RSS.
    public func metricValues() -> [GatewayMetricValue] {
        func level(_ name: String, _ value: Double, _ dimensions: [(String, String)] = []) -> GatewayMetricValue {
            GatewayMetricValue(name: name, dimensions: dimensions, value: value, isTotal: false)
        }
        func total(_ name: String, _ value: Double, _ dimensions: [(String, String)] = []) -> GatewayMetricValue {
            GatewayMetricValue(name: name, dimensions: dimensions, value: value, isTotal: true)
        }
        let s = services.stats.summary()
        let cache = services.dispatcher.boardCache.counts
        let availability = services.staticClient.availability
        var values = [
            level("transit_gateway_connections_open", Double(s.openConnections)),
            total("transit_gateway_connections_total", Double(s.totalConnections)),
            total("transit_gateway_connections_refused_per_address_total", Double(s.refusedPerAddress)),
            total("transit_gateway_connections_closed_idle_total", Double(s.idleClosed)),
            total("transit_gateway_connections_closed_to_make_room_total", Double(s.closedToMakeRoom)),
            total("transit_gateway_connections_closed_auth_timeout_total", Double(s.closedAuthTimeout)),
            total("transit_gateway_connections_closed_line_timeout_total", Double(s.closedLineTimeout)),
            total("transit_gateway_connections_closed_unread_events_total", Double(s.closedUnreadEvents)),
            level("transit_gateway_client_addresses", Double(s.clientAddresses)),
            total("transit_gateway_auth_failures_total", Double(services.authThrottle.counts.failures)),
            total("transit_gateway_auth_refused_total", Double(services.authThrottle.counts.refusals)),
            level("transit_gateway_requests_in_flight", Double(s.inFlight)),
            level("transit_gateway_subscriptions", Double(s.subscriptions)),
            level("transit_gateway_unwritten_bytes", Double(s.unwrittenBytes)),
            level("transit_gateway_board_cache_stops", Double(cache.stops)),
            level("transit_gateway_board_cache_windows", Double(cache.windows)),
            level("transit_gateway_board_cache_bytes", Double(services.dispatcher.boardCache.heldBytes)),
            total("transit_gateway_board_cache_hits_total", Double(cache.hits)),
            total("transit_gateway_board_cache_misses_total", Double(cache.misses)),
            total("transit_gateway_board_cache_evictions_total", Double(cache.evictions)),
            level("transit_gateway_static_up", availability.outage == nil ? 1 : 0),
            total("transit_gateway_static_fast_failures_total", Double(availability.counts.fastFailures)),
            total(
                "transit_gateway_trips_from_held_instance_total", Double(services.dispatcher.cache.heldTripAnswers)),
            total("transit_gateway_nng_unfinished_closes_total", Double(UnfinishedCloses.count)),
        ]
        for (replica, answers) in services.staticClient.replicaAnswers {
            values.append(total("transit_gateway_static_answers_total", Double(answers), [("replica", replica)]))
        }
        let live = realtime.metricsReading()
        values.append(level("transit_gateway_realtime_live", live.live ? 1 : 0))
        if let age = live.heartbeatAge {
            values.append(level("transit_gateway_realtime_heartbeat_age_seconds", Double(age.milliseconds) / 1000))
        }
        let now = config.clock.unixSeconds
        for source in live.sources {
            if let success = source.lastSuccessUnix {
                values.append(
                    level("transit_realtime_feed_age_seconds", Double(now - success), [("source", source.name)]))
            }
            values.append(total("transit_realtime_feed_errors_total", Double(source.errors), [("source", source.name)]))
            for (reason, count) in source.drops {
                values.append(
                    total(
                        "transit_realtime_drops_total", Double(count), [("source", source.name), ("reason", reason)]))
            }
            if let match = source.match {
                for (kind, count) in [("trip_updates", match.tripUpdates), ("vehicles", match.vehicles)] {
                    let labels = [("source", source.name), ("kind", kind)]
                    values.append(level("transit_realtime_match_considered", Double(count.considered), labels))
                    values.append(level("transit_realtime_match_matched", Double(count.matched), labels))
                }
                if let rate = match.ratePermille {
                    values.append(level("transit_realtime_match_rate", Double(rate) / 1000, [("source", source.name)]))
                }
                values.append(
                    level("transit_realtime_match_mismatch", match.mismatch ? 1 : 0, [("source", source.name)]))
            }
        }
        if let rss = ProcessMemory.residentBytes() {
            values.append(level("transit_gateway_resident_bytes", Double(rss)))
        }
        if let rss = live.publisherResidentBytes {
            values.append(level("transit_realtime_resident_bytes", Double(rss)))
        }
        return values
    }
}
