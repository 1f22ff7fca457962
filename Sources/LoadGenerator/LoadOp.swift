import Foundation

/// What one request asks: the gateway's ops the workload mixes, and `echo` for the floors (the TCP line echo
/// and the nng echo answer the request itself). The map ops (`shape`, `route`, `stops_in_bbox`) and
/// `reliability` are in no default mix: they are asked for by name (`--mix route`) or by weight.
public enum LoadOp: String, CaseIterable, Sendable, Codable, Comparable {
    case departures, trip, alerts, search, stop, shape, route
    case stopsInBBox = "stops_in_bbox"
    case reliability, echo

    public static func < (a: LoadOp, b: LoadOp) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
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
            guard let name = pieces.first, let op = LoadOp(rawValue: name) else {
                throw WorkloadError(
                    "op mix: unknown op \"\(item)\" (ops: \(LoadOp.allCases.map(\.rawValue).joined(separator: ", ")))")
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
        weights.map { "\($0.op.rawValue)=\(formatWeight($0.weight))" }.joined(separator: ",")
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
