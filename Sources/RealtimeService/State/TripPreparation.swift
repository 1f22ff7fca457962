import Dispatch
import Foundation
import GTFSRealtime
import RealtimeCore
import TransitModel

/// A trip update resolved (and, when resolved, turned into its live value) before the live state is
/// touched.
enum PreparedTrip {
    case live(LiveTrip, key: TripInstanceKey, unmatchedStopUpdates: Int, mismatches: Int, firstMismatch: String?)
    /// Deleted or dropped: applied as the resolution says.
    case other(TripResolution)
}

extension SourceState {
    /// Feeds with fewer trip updates are prepared on the calling thread only.
    static let parallelPreparationMinimum = 512

    /// Resolves every trip update of `feed` this source takes and builds the live values, indexed like
    /// `feed.entities` (nil for entities without one). Resolution reads only the feed and the schedules, so
    /// a big feed (a buses feed: 3,000 trips × 40 stops, ~40 % of an update's time) is split between two
    /// threads; the state is then changed sequentially from the results.
    mutating func prepareTrips(
        _ feed: FeedMessage, full: Bool, schedules: ScheduleCache, modifications: [TripModificationSet], now: Int64
    ) -> [PreparedTrip?] {
        let entities = feed.entities
        guard settings.accepts(.tripUpdates), !entities.isEmpty else { return [] }
        let workers =
            entities.count >= Self.parallelPreparationMinimum ? min(2, ProcessInfo.processInfo.activeProcessorCount) : 1
        var resolvers = [TripUpdateResolver](repeating: resolver, count: workers)
        let source = settings.name
        var prepared = [PreparedTrip?](repeating: nil, count: entities.count)
        prepared.withUnsafeMutableBufferPointer { out in
            resolvers.withUnsafeMutableBufferPointer { resolvers in
                entities.withUnsafeBufferPointer { entities in
                    let job = PreparationJob(
                        out: out, resolvers: resolvers, entities: entities, full: full, source: source,
                        schedules: schedules, modifications: modifications, now: now, workers: workers)
                    if workers == 1 {
                        job.run(worker: 0)
                    } else {
                        DispatchQueue.concurrentPerform(iterations: workers) { job.run(worker: $0) }
                    }
                }
            }
        }
        resolver = resolvers[0]  // keeps the zones it looked up
        return prepared
    }

    /// One trip update, resolved and converted. An update naming a modified trip (TripDescriptor.modified_trip)
    /// is resolved against it (`resolve(_:resolver:schedules:modifications:now:)`).
    static func prepare(
        _ update: TripUpdate, entityId: String, source: String, resolver: inout TripUpdateResolver,
        schedules: ScheduleCache, modifications: [TripModificationSet] = [], now: Int64
    ) -> PreparedTrip {
        let (resolution, modificationsId) = resolve(
            update, resolver: &resolver, schedules: schedules, modifications: modifications, now: now)
        guard case .resolved(let resolved) = resolution else { return .other(resolution) }
        var live = TripConversion.liveTrip(resolved, update: update, source: source, entityId: entityId)
        live.modificationsId = modificationsId
        if !schedules.stations.isEmpty {
            for i in live.stops.indices where live.stops[i].assignedStopId != nil {
                live.stops[i].assignedPlatform = schedules.stations.platformCode(ofStop: live.stops[i].assignedStopId!)
            }
        }
        return .live(
            live, key: resolved.key, unmatchedStopUpdates: resolved.unmatchedStopUpdates,
            mismatches: resolved.stopMismatches, firstMismatch: resolved.firstStopMismatch)
    }
}

extension SourceState {
    /// `update` resolved; one naming a modified trip (TripDescriptor.modified_trip: a trip update, or a vehicle's
    /// descriptor) against the modified trip of the first of `modifications` that has it, its stops then
    /// numbered as the modified trip's, with the TripModifications entity's id returned (for
    /// `LiveTrip.modificationsId`).
    static func resolve(
        _ update: TripUpdate, resolver: inout TripUpdateResolver, schedules: ScheduleCache,
        modifications: [TripModificationSet], now: Int64
    ) -> (TripResolution, modificationsId: String?) {
        guard let selector = update.trip.modifiedTrip else {
            return (resolver.resolve(update, schedules: schedules, now: now), nil)
        }
        let tripId = resolver.options.idPrefix + (selector.affectedTripId ?? "")
        let set =
            modifications.first { set in
                selector.modificationsId.map { set.modifiedTrip(modificationsId: $0, tripId: tripId) != nil } ?? false
            } ?? modifications.first ?? TripModificationSet()
        let resolution = resolver.resolveModified(update, modifications: set, schedules: schedules, now: now)
        return (resolution.resolution, selector.modificationsId)
    }
}

/// One `prepareTrips` run, shared by its workers. Each worker reads the feed and the schedules, writes only
/// its own slice of `out` and uses only its own resolver, so no two threads touch the same memory.
private struct PreparationJob: @unchecked Sendable {
    let out: UnsafeMutableBufferPointer<PreparedTrip?>
    let resolvers: UnsafeMutableBufferPointer<TripUpdateResolver>
    let entities: UnsafeBufferPointer<FeedEntity>
    let full: Bool
    let source: String
    let schedules: ScheduleCache
    let modifications: [TripModificationSet]
    let now: Int64
    let workers: Int

    func run(worker w: Int) {
        let chunk = (entities.count + workers - 1) / workers
        for i in min(entities.count, w * chunk)..<min(entities.count, (w + 1) * chunk) {
            let entity = entities.baseAddress! + i
            if !full, entity.pointee.isDeleted == true { continue }
            guard let update = entity.pointee.tripUpdate else { continue }
            out[i] = SourceState.prepare(
                update, entityId: entity.pointee.id, source: source, resolver: &resolvers[w],
                schedules: schedules, modifications: modifications, now: now)
        }
    }
}
