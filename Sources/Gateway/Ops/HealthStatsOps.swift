import GatewayProtocol
import NNGKit
import ProcessSupport
import TransitModel

// health (each service's status; never an error for a service being down) and stats.

extension RequestDispatcher {
    func health(_ request: GatewayRequest, received: ContinuousClock.Instant) async -> Answer {
        let started = ContinuousClock.now
        let ping = await staticClient.query(.feedInfo)
        let latency = started.microsecondsElapsed
        var info: FeedInfo?
        var staticError: String?
        switch ping {
        case .success(.feedInfo(let answer)): info = answer
        case .success(let other): staticError = "the static service answered feed_info with \(other.kindName)"
        case .failure(let error): staticError = error.message
        }
        let outage = info == nil ? staticClient.availability.outage : nil
        let reading = realtime.read()
        let now = clock.unixSeconds

        var (status, reasons) = HealthJudgement.judge(
            feedInfo: info, staticError: staticError, realtime: reading.status, heartbeatAge: reading.heartbeatAge,
            sources: reading.sources, now: now)
        if stats.draining {
            status = "draining"
            reasons.insert(
                .init(
                    source: nil, code: .draining,
                    message: "this gateway is shutting down (SIGTERM): connect to another one; it still answers "
                        + "until it drains"), at: 0)
        }
        let uptime = stats.uptimeSeconds
        let connections = stats.connections
        let subscriptions = stats.subscriptionCount

        let epoch = realtime.epoch, leader = realtime.leader
        return .success(id: request.id, op: .health, epoch: .some(epoch), received: received) { w in
            w.beginObject()
            w.key("status"); w.string(status)
            w.key("reasons"); w.beginArray()
            for reason in reasons {
                w.beginObject()
                w.key("source"); w.string(reason.source)
                w.key("code"); w.string(reason.code.rawValue)
                w.key("message"); w.string(reason.message)
                w.endObject()
            }
            w.endArray()
            w.key("static"); w.beginObject()
            w.key("status"); w.string(info == nil ? "unavailable" : "ok")
            w.key("down_since_unix"); w.int(outage?.sinceUnix)
            w.key("error"); w.string(staticError)
            w.key("database_version"); w.string(info?.databaseVersion)
            w.key("latency_us"); w.int(info == nil ? nil : latency)
            w.key("feeds"); w.beginArray()
            for feed in info?.feeds ?? [] {
                w.beginObject()
                w.key("name"); w.string(feed.name)
                w.key("version"); w.string(feed.version)
                w.key("start_date"); w.serviceDate(feed.startDate)
                w.key("end_date"); w.serviceDate(feed.endDate)
                w.key("refresh"); w.feedRefresh(feed.refresh)
                w.endObject()
            }
            w.endArray()
            w.endObject()
            w.key("realtime"); w.beginObject()
            w.key("status"); w.string(reading.status.rawValue)
            w.key("last_heartbeat_age_s"); w.int(reading.heartbeatAge.map { $0.components.seconds })
            w.key("epoch"); w.int(epoch.map { Int64(clamping: $0) })
            w.key("leader"); w.leader(leader, epoch: epoch)
            w.key("sources"); w.beginArray()
            for source in reading.sources {
                w.beginObject()
                w.key("name"); w.string(source.name)
                w.key("kind"); w.string(source.kind.rawValue)
                w.key("age_s"); w.int(source.feedTimestamp.map { max(0, now - $0) })
                w.key("stale"); w.bool(source.stale)
                w.key("last_success_unix"); w.int(source.lastSuccessUnix)
                w.key("errors"); w.int(source.errors)
                w.key("last_error"); w.string(source.lastError)
                w.key("last_error_unix"); w.int(source.lastErrorUnix)
                w.key("consecutive_errors"); w.int(source.consecutiveErrors)
                w.key("recovered_unix"); w.int(source.recoveredUnix)
                w.key("entities"); w.int(source.entities)
                w.key("feed_version"); w.string(source.feedVersion)
                w.key("match"); w.timetableMatch(source.match)
                w.key("stop_mismatch"); w.beginObject()
                w.key("count"); w.int(source.stopMismatches)
                w.key("first"); w.string(source.firstStopMismatch)
                w.endObject()
                w.key("drops"); w.beginObject()
                for (reason, count) in source.drops.sorted(by: { $0.key < $1.key }) { w.key(reason); w.int(count) }
                w.endObject()
                w.key("skipped_fields"); w.beginArray()
                for field in source.skippedFields {
                    w.beginObject()
                    w.key("path"); w.string(field.path)
                    w.key("count"); w.int(field.count)
                    w.key("first"); w.string(field.first)
                    w.endObject()
                }
                w.endArray()
                w.endObject()
            }
            w.endArray()
            w.endObject()
            w.key("gateway"); w.beginObject()
            w.key("version"); w.string(TransitVersion.current)
            w.key("uptime_s"); w.int(uptime)
            w.key("connections"); w.int(connections)
            w.key("subscriptions"); w.int(subscriptions)
            w.endObject()
            w.endObject()
        }
    }

    func statsAnswer(_ request: GatewayRequest, received: ContinuousClock.Instant) -> Answer {
        let s = stats.summary()
        let windows = boardCache.counts
        let availability = staticClient.availability
        let pin = staticClient.versionPin
        return .success(id: request.id, op: .stats, received: received, capacity: 1024 + 160 * s.ops.count) { w in
            w.beginObject()
            w.key("uptime_s"); w.int(s.uptimeSeconds)
            w.key("connections"); w.beginObject()
            w.key("open"); w.int(s.openConnections)
            w.key("total"); w.int(s.totalConnections)
            w.key("client_addresses"); w.int(s.clientAddresses)
            w.key("refused_per_address"); w.int(s.refusedPerAddress)
            w.key("closed_idle"); w.int(s.idleClosed)
            w.key("closed_to_make_room"); w.int(s.closedToMakeRoom)
            w.key("closed_auth_timeout"); w.int(s.closedAuthTimeout)
            w.key("closed_line_timeout"); w.int(s.closedLineTimeout)
            w.key("closed_unread_events"); w.int(s.closedUnreadEvents)
            w.key("unwritten_bytes"); w.int(s.unwrittenBytes)
            w.endObject()
            w.key("limits"); w.beginObject()
            for (name, value) in stats.limits {
                w.key(name); w.int(value)
            }
            for (name, on) in stats.switches {
                w.key(name); w.bool(on)
            }
            w.endObject()
            w.key("requests"); w.int(s.requests)
            w.key("in_flight"); w.int(s.inFlight)
            w.key("errors"); w.beginObject()
            for (code, count) in s.errors {
                w.key(code.rawValue); w.int(count)
            }
            w.endObject()
            w.key("ops"); w.beginObject()
            for (op, o) in s.ops {
                w.key(op.name); w.beginObject()
                w.key("count"); w.int(o.count)
                w.key("errors"); w.int(o.errors)
                w.key("p50_us"); w.int(o.p50)
                w.key("p95_us"); w.int(o.p95)
                w.key("p99_us"); w.int(o.p99)
                w.key("max_us"); w.int(o.max)
                w.endObject()
            }
            w.endObject()
            w.key("board_cache"); w.beginObject()
            w.key("stops"); w.int(windows.stops)
            w.key("windows"); w.int(windows.windows)
            w.key("hits"); w.int(windows.hits)
            w.key("misses"); w.int(windows.misses)
            w.key("evictions"); w.int(windows.evictions)
            w.key("bytes"); w.int(boardCache.heldBytes)
            w.endObject()
            // Each part of --max-cache-bytes as counted (RELIABILITY.md "Cache bytes" compares them with the RSS).
            w.key("cache_bytes"); w.beginObject()
            w.key("board_windows"); w.int(boardCache.heldBytes)
            w.key("typical_delays"); w.int(typicalDelays.heldBytes)
            w.key("static_details"); w.int(cache.heldBytes)
            w.key("kept_answers"); w.int(staticAnswers.heldBytes)
            w.key("static_results"); w.int(staticResults.heldBytes)
            w.endObject()
            let trims = heapTrimmer?.trims ?? HeapTrimmer.Counts()
            w.key("heap_trim"); w.beginObject()
            w.key("trims"); w.int(trims.trims)
            w.key("released_bytes"); w.int(trims.releasedBytes)
            w.key("max_us"); w.int(trims.maxMicroseconds)
            w.endObject()
            w.key("static"); w.beginObject()
            w.key("status"); w.string(availability.outage == nil ? "up" : "down")
            w.key("down_since_unix"); w.int(availability.outage?.sinceUnix)
            w.key("trips"); w.int(availability.counts.trips)
            w.key("probes"); w.int(availability.counts.probes)
            w.key("fast_failures"); w.int(availability.counts.fastFailures)
            w.key("urls"); w.beginArray()
            for url in staticClient.urls { w.string(url) }
            w.endArray()
            w.key("replicas"); w.beginObject()
            for (name, count) in staticClient.replicaAnswers.sorted(by: { $0.key < $1.key }) {
                w.key(name); w.int(count)
            }
            w.endObject()
            w.key("pinned_version"); w.string(pin.pinned)
            w.key("version_moves"); w.int(pin.moves)
            w.key("replica_versions"); w.beginArray()
            for (url, replica) in zip(staticClient.urls, pin.replicas) {
                w.beginObject()
                w.key("url"); w.string(url)
                w.key("connected"); w.bool(replica.connected)
                w.key("version"); w.string(replica.version)
                w.endObject()
            }
            w.endArray()
            w.endObject()
            w.key("rss_bytes"); w.int(ProcessMemory.residentBytes().map(Int.init))
            w.key("realtime_rss_bytes"); w.int(realtime.publisherResidentBytes.map(Int.init))
            let epoch = realtime.epoch
            w.key("realtime_epoch"); w.int(epoch.map { Int64(clamping: $0) })
            w.key("realtime_lower_epoch_dropped"); w.int(realtime.lowerEpochDropped)
            w.key("realtime_leader"); w.leader(realtime.leader, epoch: epoch)
            w.endObject()
        }
    }
}

extension JSONWriter {
    /// The elected realtime leader as its last heartbeat described itself (`health` and `stats`): null without
    /// election or before such a heartbeat.
    mutating func leader(_ leader: LiveLeadership?, epoch: UInt64?) {
        guard let leader else { return null() }
        beginObject()
        key("name"); string(leader.name)
        key("epoch"); int(epoch.map { Int64(clamping: $0) })
        key("lease_remaining_ms"); int(leader.leaseRemainingMs)
        key("etcd"); beginArray()
        for endpoint in leader.etcd {
            beginObject()
            key("url"); string(endpoint.url)
            key("reachable"); bool(endpoint.reachable)
            key("last_error"); string(endpoint.lastError)
            endObject()
        }
        endArray()
        endObject()
    }
}
