import Foundation
import GatewayProtocol

/// What one request asks: the gateway's ops the workload mixes, and `echo` for the floors (the TCP line echo
/// and the nng echo answer the request itself). The map ops (`shape`, `route`, `stops_in_bbox`) and
/// `reliability` are in no default mix: they are asked for by name (`--mix route`) or by weight. Ordered as
/// declared (reports list ops in this order).
public enum LoadOp: CaseIterable, Sendable, Comparable {
    case departures, trip, alerts, search, stop, shape, route, stopsInBBox, reliability, echo

    /// The gateway's op this asks; nil for `echo`, which no gateway op is.
    public var gatewayOp: GatewayOpKind? {
        switch self {
        case .departures: .departures
        case .trip: .trip
        case .alerts: .alerts
        case .search: .search
        case .stop: .stop
        case .shape: .shape
        case .route: .route
        case .stopsInBBox: .stopsInBBox
        case .reliability: .reliability
        case .echo: nil
        }
    }

    /// The name in `--mix`, `--target`, workload files, request lines and reports: the gateway op's, or `echo`.
    public var name: String { gatewayOp?.name ?? "echo" }

    /// The op called `name`; nil when none is.
    public init?(name: String) {
        guard let op = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = op
    }

    /// Every op's name, comma-separated (error messages list them).
    static var nameList: String { allCases.map(\.name).joined(separator: ", ") }
}

/// The op mix: weights per op, drawn with the run's seeded generator.
public struct OpMix: Sendable, Equatable {
    public private(set) var weights: [(op: LoadOp, weight: Double)]

    /// 60 % departures, 15 % trip, 10 % alerts, 10 % search, 5 % stop: riders mostly look at boards.
    public static let standard = try! OpMix(parsing: "departures=60,trip=15,alerts=10,search=10,stop=5")

    public init(_ weights: [(LoadOp, Double)]) throws(WorkloadError) {
        var merged: [(op: LoadOp, weight: Double)] = []
        for (op, weight) in weights {
            guard weight >= 0, weight.isFinite else { throw WorkloadError("op mix: weight of \(op) must be ≥ 0") }
            guard !merged.contains(where: { $0.op == op }) else { throw WorkloadError("op mix: \(op) given twice") }
            if weight > 0 { merged.append((op, weight)) }
        }
        guard !merged.isEmpty else { throw WorkloadError("op mix: no op has a weight above 0") }
        self.weights = merged
    }

    /// "departures=60,trip=15" (weights need not add up to 100), or one op name alone ("departures": all of it).
    public init(parsing text: String) throws(WorkloadError) {
        var pairs: [(LoadOp, Double)] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let item = part.trimmingCharacters(in: .whitespaces)
            let pieces = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard let name = pieces.first, let op = LoadOp(name: name) else {
                throw WorkloadError("op mix: unknown op \"\(item)\" (ops: \(LoadOp.nameList))")
            }
            if pieces.count == 1 {
                pairs.append((op, 1))
            } else {
                guard let weight = Double(pieces[1]) else {
                    throw WorkloadError("op mix: weight of \(name) must be a number, got \"\(pieces[1])\"")
                }
                pairs.append((op, weight))
            }
        }
        try self.init(pairs)
    }

    public var ops: [LoadOp] { weights.map(\.op) }

    /// The op for a uniform draw `u` in [0, 1).
    public func op(at u: Double) -> LoadOp {
        let total = weights.reduce(0) { $0 + $1.weight }
        var edge = 0.0
        for (op, weight) in weights {
            edge += weight / total
            if u < edge { return op }
        }
        return weights.last!.op
    }

    public static func == (a: OpMix, b: OpMix) -> Bool {
        a.weights.map(\.op) == b.weights.map(\.op) && a.weights.map(\.weight) == b.weights.map(\.weight)
    }

    public var description: String {
        weights.map { "\($0.op.name)=\(formatWeight($0.weight))" }.joined(separator: ",")
    }

    private func formatWeight(_ w: Double) -> String { w == w.rounded() ? String(Int(w)) : String(w) }
}

/// A workload that cannot be built: what, and why.
public struct WorkloadError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// splitmix64: a seeded generator, so one `--seed` asks the same questions in every run.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }
}

extension Duration {
    /// Whole nanoseconds.
    public var nanos: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
}
