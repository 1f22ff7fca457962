// Request lines of the gateway's protocol (protocol/GATEWAY.md) for a workload: the op drawn from the mix, the
// id from the pool, `at` from the window. Ids are the connection's request counter (integers), which the
// gateway echoes byte for byte, so an answer names its request.

/// What one connection sends: an immutable description shared by all connections; each draws with its own
/// seeded generator.
public struct LineWorkload: Sendable {
    public var mix: OpMix
    public var pool: IdPool
    public var window: TimeWindow
    /// `limit` of departures and search.
    public var limit: Int

    public init(mix: OpMix, pool: IdPool, window: TimeWindow, limit: Int = 10) throws(WorkloadError) {
        guard (1...100).contains(limit) else { throw WorkloadError("--limit must be 1…100, got \(limit)") }
        try pool.check(for: mix)
        self.mix = mix
        self.pool = pool
        self.window = window
        self.limit = limit
    }

    /// The request line (with its `\n`) for request `id`.
    public func request(id: UInt64, rng: inout SeededRandom) -> (op: LoadOp, line: [UInt8]) {
        let op = mix.op(at: rng.unit())
        var s = "{\"id\":\(id),\"op\":\"\(op.rawValue)\""
        switch op {
        case .departures:
            s +=
                ",\"stop_id\":\(Self.quoted(pool.station(at: rng.unit()))),\"at\":\(window.at(rng.unit())),\"limit\":\(limit)"
        case .trip:
            s += ",\"trip_id\":\(Self.quoted(pick(pool.trips, &rng))),\"at\":\(window.at(rng.unit()))"
        case .alerts:
            s += ",\"stop_id\":\(Self.quoted(pick(pool.stops, &rng))),\"at\":\(window.at(rng.unit()))"
        case .search:
            s += ",\"q\":\(Self.quoted(pick(pool.searchTerms, &rng))),\"limit\":\(limit)"
        case .stop:
            s += ",\"stop_id\":\(Self.quoted(pick(pool.stops, &rng)))"
        case .echo:
            s += ",\"pad\":\"0123456789abcdef0123456789\""
        }
        s += "}\n"
        return (op, Array(s.utf8))
    }

    private func pick(_ list: [String], _ rng: inout SeededRandom) -> String {
        list[Int(rng.next() % UInt64(list.count))]
    }

    /// A JSON string literal.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
