import GTFSRealtime
import TransitModel

/// Finds the stop of a pattern each StopTimeUpdate talks about.
///
/// - By stop_sequence when given (it is unique within a trip): first at the position after the previous
///   match (updates are normally sorted and often consecutive), else by binary search (stop_sequence
///   increases along a GTFS trip), else by a scan (a pattern that is not sorted).
/// - Else by stop_id, searching forward from the stop after the previous match, so a loop trip visiting
///   a stop twice gets its updates in order (first update → first visit, next → second visit).
/// - An update whose stop_sequence is unknown falls back to its stop_id (it may be a producer mismatch);
///   one that matches nothing is counted and ignored.
/// - An update whose stop_sequence and stop_id name different stops of the trip (the spec requires them to
///   agree; real producers get the stop_sequence wrong while their times fit the stop_id) is matched by
///   stop_id when that stop occurs exactly once at or after the previously matched stop, else by
///   stop_sequence. Either way it is counted as a mismatch, the first one described.
/// - A stop_id naming another stop of the station of the stop it is matched to (`stations`) is no mismatch
///   but a platform change (`platformChanges`): matched by stop_sequence, or, without one, to the first stop
///   of that station after the previous match.
///
/// The result is the matched (stop index, update index) pairs sorted by stop index; when two updates name
/// the same stop, the later one in the feed wins. Works in a caller-owned buffer: no allocation once warm.
struct StopUpdateMatcher {
    /// Packed pairs: stopIndex << 32 | updateIndex.
    var pairs: [Int] = []
    var unmatched = 0
    /// Updates whose stop_sequence and stop_id name different stops of the trip.
    var mismatches = 0
    /// The first of them, described ("stop_sequence 20 is stop S2, stop_id S4 is stop_sequence 40: matched by
    /// stop_id").
    var firstMismatch: String?
    /// The updates (indices, ascending) whose stop_id is another platform of their stop's station.
    var platformChanges: [Int] = []
    var stations = StationIndex()

    mutating func match(_ updates: [StopTimeUpdate], stops: [PatternStop]) {
        pairs.removeAll(keepingCapacity: true)
        unmatched = 0
        mismatches = 0
        firstMismatch = nil
        platformChanges.removeAll(keepingCapacity: true)
        var cursor = 0
        var sorted = true
        var last = -1
        for updateIndex in updates.indices {
            var found: Int?
            if let sequence = updates[updateIndex].stopSequence {
                found = Self.index(ofSequence: sequence, in: stops, hint: cursor)
                if let bySequence = found, let stopId = updates[updateIndex].stopId.nonEmpty,
                    stops[bySequence].stopId != stopId
                {
                    if stations.areSiblings(stops[bySequence].stopId, stopId) {
                        platformChanges.append(updateIndex)
                    } else {
                        found = mismatch(
                            sequence: sequence, stopId: stopId, bySequence: bySequence, stops: stops,
                            from: max(last, 0))
                    }
                }
            }
            if found == nil, let stopId = updates[updateIndex].stopId.nonEmpty {
                var i = cursor
                while i < stops.count {
                    if stops[i].stopId == stopId { found = i; break }  // stop ids are never prefixed
                    i += 1
                }
                if found == nil, !stations.isEmpty, stations.station(ofStop: stopId) != nil {
                    i = cursor
                    while i < stops.count {
                        if stations.areSiblings(stops[i].stopId, stopId) {
                            found = i
                            platformChanges.append(updateIndex)
                            break
                        }
                        i += 1
                    }
                }
            }
            guard let stopIndex = found else {
                unmatched += 1
                continue
            }
            if stopIndex <= last { sorted = false }
            last = stopIndex
            cursor = stopIndex + 1
            pairs.append(stopIndex << 32 | updateIndex)
        }
        if !sorted {
            // Sorting the packed values orders by stop, then by update index (later update last).
            pairs.sort()
        }
        // Keep the last update of each stop.
        var write = 0
        for read in pairs.indices {
            if write > 0, pairs[write - 1] >> 32 == pairs[read] >> 32 {
                pairs[write - 1] = pairs[read]
            } else {
                pairs[write] = pairs[read]
                write += 1
            }
        }
        if write < pairs.count {
            unmatched += pairs.count - write
            pairs.removeLast(pairs.count - write)
        }
    }

    /// The stop an update whose stop_sequence (at `bySequence`) and stop_id disagree is matched to: the
    /// stop_id's only occurrence at or after `from`, else `bySequence`. A stop_id the trip does not visit at
    /// all is not counted (an assigned platform, or an id the trip does not know: the stop_sequence decides).
    private mutating func mismatch(
        sequence: UInt32, stopId: String, bySequence: Int, stops: [PatternStop], from: Int
    ) -> Int {
        var byStopId: Int?
        var occurrences = 0
        var visited = false
        for i in stops.indices where stops[i].stopId == stopId {
            visited = true
            guard i >= from else { continue }
            occurrences += 1
            if byStopId == nil { byStopId = i }
        }
        guard visited else { return bySequence }
        let chosen = occurrences == 1 ? byStopId! : bySequence
        mismatches += 1
        if firstMismatch == nil {
            let named = byStopId.map { "stop_sequence \(stops[$0].stopSequence)" } ?? "an earlier stop"
            firstMismatch =
                "stop_sequence \(sequence) is stop \(stops[bySequence].stopId), "
                + "stop_id \(stopId) is \(named): "
                + (chosen == bySequence ? "matched by stop_sequence" : "matched by stop_id")
        }
        return chosen
    }

    @inline(__always) static func stopIndex(_ pair: Int) -> Int { pair >> 32 }
    @inline(__always) static func updateIndex(_ pair: Int) -> Int { pair & 0xFFFF_FFFF }

    static func index(ofSequence sequence: UInt32, in stops: [PatternStop], hint: Int) -> Int? {
        if hint < stops.count, stops[hint].stopSequence == sequence { return hint }
        var low = 0, high = stops.count
        while low < high {
            let mid = (low + high) / 2
            if stops[mid].stopSequence < sequence { low = mid + 1 } else { high = mid }
        }
        if low < stops.count, stops[low].stopSequence == sequence { return low }
        return stops.firstIndex { $0.stopSequence == sequence }
    }
}
