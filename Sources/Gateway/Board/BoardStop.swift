import Synchronization
import TransitModel

/// The stop a board is asked for: its static answer (station, platforms, routes) with the stop ids a board of
/// it covers (a station: its platforms too), worked out once when the answer is cached (`StaticCache`), and
/// the live state's visits at those stops, by stop and by board time, for the live state version last asked.
/// Every board reads them: making the set per board was 1.9 % of the gateway's CPU on departures, looking
/// up each platform's visits (a station has up to ~80) 2.8 %, and checking every visit against the board's
/// window 5.8 %. A class: handing it out is one retain, where a copy of the answer was one per field.
final class BoardStop: Sendable {
    let result: StopResult
    let stopIds: Set<String>
    /// Not counted in `StaticCache`'s bytes: the lists per stop are the live state's own arrays (shared; an
    /// idle stop holds its last ones until its entry expires), and the list by time takes about 80 bytes per
    /// live visit at the stop's platforms (estimated from the layout, not measured).
    private let liveVisits = Mutex<(version: UInt64, visits: BoardAssembly.StopVisits)?>(nil)

    init(_ result: StopResult) {
        self.result = result
        var ids: Set<String> = [result.stop.stopId]
        for platform in result.platforms { ids.insert(platform.stopId) }
        stopIds = ids
    }

    /// `BoardAssembly.visits` at `stopIds` in `state` (by time too), which `RealtimeView` handed out as
    /// `version`.
    func visits(in state: RealtimeState, version: UInt64) -> BoardAssembly.StopVisits {
        if let held = liveVisits.withLock({ $0?.version == version ? $0?.visits : nil }) { return held }
        let found = BoardAssembly.visits(state: state, boardStops: stopIds, timed: true)
        liveVisits.withLock { held in
            if (held?.version ?? 0) <= version { held = (version, found) }
        }
        return found
    }
}
