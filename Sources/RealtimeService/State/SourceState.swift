import GTFSRealtime
import RealtimeCore
import TransitModel

/// Everything the live state holds for one source: what its feeds said (raw, to resolve again after a
/// new static import, and resolved), and its bookkeeping for the status.
struct SourceState {
    let settings: SourceSettings
    var resolver: TripUpdateResolver

    // MARK: content (entity ids are the feed's; keys as published)

    /// The trip updates of the current state by entity id, as received.
    var rawTripUpdates: [String: TripUpdate] = [:]
    /// The instance each trip-update entity resolved to.
    var tripKeyByEntity: [String: TripInstanceKey] = [:]
    var trips: [TripInstanceKey: LiveTrip] = [:]
    /// Vehicle positions by entity id, as received (their trip instance is resolved again too).
    var rawVehicles: [String: VehiclePosition] = [:]
    /// By key ("<source>/<entity id>").
    var vehicles: [String: LiveVehicle] = [:]
    /// Trip instances estimated from vehicle positions (`StopPredictions.vehicleEstimate`), and the instance
    /// each vehicle key estimated. The merged view uses one only where no trip update predicts the stop.
    var vehicleTrips: [TripInstanceKey: LiveTrip] = [:]
    var vehicleTripKey: [String: TripInstanceKey] = [:]
    var alerts: [String: LiveAlert] = [:]
    /// The detour entities of the current state (TripModifications, Shape, Stop), in feed order, as received
    /// (applied again after a new static import); what they make of the static trips; and the published
    /// detours by key ("<source>/<modifications id>/<trip id>").
    var detourEntities: [FeedEntity] = []
    var modifications = TripModificationSet()
    var detours: [String: LiveDetour] = [:]

    // MARK: bookkeeping

    var lastHeaderTimestamp: UInt64?
    var lastBodyHash: Int?
    /// When the applied data was current: the header timestamp (never later than its fetch), else the fetch.
    var dataUnix: Int64?
    var detected: Set<LiveSourceKind> = []
    var lastFetchUnix: Int64?
    var lastSuccessUnix: Int64?
    var updatesApplied: UInt64 = 0
    var notModified: UInt64 = 0
    var olderIgnored: UInt64 = 0
    var errors: UInt64 = 0
    var lastError: String?
    var lastErrorUnix: Int64?
    /// Failures since the last success, and the first success after the last failure.
    var consecutiveErrors: UInt64 = 0
    var recoveredUnix: Int64?
    /// The last body fetched was refused (it did not decode, or its header is unusable): "not modified"
    /// answers mean that body is still there, so they stay failures until a body that decodes arrives.
    var refusedBodyHeld = false
    var drops: [DropReason: UInt64] = [:]
    var lastDrop: String?
    var stopMismatches: UInt64 = 0
    var firstStopMismatch: String?
    /// Known fields the decoder skipped for their wire type, by path: occurrences in applied feeds, and the
    /// first feed's account of them.
    var skippedFields: [String: LiveSkippedField] = [:]
    /// The stale flag last reported, to notice when it flips.
    var reportedStale = true
    /// FeedHeader.feed_version of the last applied feed.
    var feedVersion: String?
    /// The timetable match being counted (`beginMatchTally` … `finishMatchTally`), the last judgement, and the
    /// judged rates of the last hour (SourceState+Match.swift).
    var matchTally = (tripUpdates: LiveMatchCount(), vehicles: LiveMatchCount())
    var match: LiveTimetableMatch?
    var matchHistory = MatchHistory()

    init(settings: SourceSettings) {
        self.settings = settings
        resolver = TripUpdateResolver(options: .init(timeZone: settings.timeZone, idPrefix: settings.idPrefix))
    }

    var name: String { settings.name }

    mutating func drop(_ reason: DropReason, _ message: String, count: UInt64 = 1) {
        drops[reason, default: 0] += count
        lastDrop = "\(reason.rawValue): \(message)"
    }

    mutating func countSkipped(_ skipped: [SkippedField]) {
        for field in skipped {
            let count = UInt64(clamping: field.count)
            if skippedFields[field.path] != nil {
                skippedFields[field.path]!.count += count
            } else {
                skippedFields[field.path] = LiveSkippedField(path: field.path, count: count, first: field.description)
            }
        }
    }

    mutating func fail(_ message: String, at unix: Int64) {
        errors += 1
        consecutiveErrors += 1
        recoveredUnix = nil
        lastError = message
        lastErrorUnix = unix
        lastFetchUnix = unix
    }

    /// A fetched body that cannot be used: a failure, and one that lasts while the source answers "not
    /// modified" (`unchanged`).
    mutating func refuse(_ message: String, at unix: Int64) {
        fail(message, at: unix)
        refusedBodyHeld = true
    }

    /// The source answered "not modified" (HTTP 304, an unchanged file). After a refused body that is the
    /// same broken body again: one more failure in the run, keeping the first failure's message and time
    /// (the broken file was found then). Otherwise the feed held is a good one: a success.
    mutating func unchanged(at unix: Int64) {
        notModified += 1
        lastFetchUnix = unix
        guard refusedBodyHeld else {
            succeed(at: unix)
            return
        }
        errors += 1
        consecutiveErrors += 1
    }

    /// A body that decoded (applied, unchanged or ignored as older): ends a run of failures.
    mutating func succeed(at unix: Int64) {
        refusedBodyHeld = false
        lastSuccessUnix = unix
        if consecutiveErrors > 0 {
            consecutiveErrors = 0
            recoveredUnix = unix
        }
    }

    func isStale(now: Int64) -> Bool {
        guard let dataUnix else { return true }
        return now - dataUnix > settings.staleLimit(detected: detected)
    }

    func status(now: Int64) -> LiveSourceStatus {
        var drops: [String: UInt64] = [:]
        for (reason, count) in self.drops { drops[reason.rawValue] = count }
        var status = LiveSourceStatus(
            name: settings.name, kind: settings.kind,
            detectedKinds: LiveSourceKind.allCases.filter { detected.contains($0) },
            feedTimestamp: lastHeaderTimestamp, lastFetchUnix: lastFetchUnix, lastSuccessUnix: lastSuccessUnix,
            stale: isStale(now: now), staleAfterSecs: UInt32(clamping: settings.staleLimit(detected: detected)),
            updatesApplied: updatesApplied, notModified: notModified, olderIgnored: olderIgnored, errors: errors,
            lastError: lastError, lastErrorUnix: lastErrorUnix,
            entities: UInt64(trips.count + vehicles.count + alerts.count), drops: drops, lastDrop: lastDrop,
            statusUnix: now, skippedFields: skippedFields.values.sorted { $0.path < $1.path })
        status.stopMismatches = stopMismatches
        status.firstStopMismatch = firstStopMismatch
        status.consecutiveErrors = consecutiveErrors
        status.recoveredUnix = recoveredUnix
        status.match = match
        status.feedVersion = feedVersion
        status.idPrefix = settings.idPrefix
        return status
    }
}
