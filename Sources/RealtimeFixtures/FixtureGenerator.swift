import Foundation
import GTFSRealtime
import TransitCore
import TransitModel

/// The three GTFS-Realtime feeds of one fixture moment.
public struct FixtureFeeds: Sendable {
    public var tripUpdates: FeedMessage
    public var vehiclePositions: FeedMessage
    public var alerts: FeedMessage
    /// Which trip instance plays which case ("late", "cancelled", "added", ...), for the summary and tests.
    public var cases: [(name: String, tripId: String, serviceDate: ServiceDate)]
}

/// Builds GTFS-Realtime feeds that fit a static schedule around a moment: trips late and early, delays
/// that change along a trip, a cancelled trip, a skipped stop, a NO_DATA stop, a time-only update, a
/// trip-level delay, an added (NEW) trip, a vehicle without a trip update, occupancy, vehicles between their
/// stops, and alerts on a station, a route, a route type and a trip. Deterministic: the same schedule and moments give the same bytes.
///
/// Replay step `step` (0 for a single snapshot) moves the clock to `at` and the delays along a fixed cycle,
/// so a sequence of snapshots shows predictions changing.
public struct FixtureGenerator: Sendable {
    public let schedule: FixtureSchedule

    public init(schedule: FixtureSchedule) { self.schedule = schedule }

    /// The cases given to the first instances, in order; the rest get varied delays with occupancy.
    enum Role: String, CaseIterable {
        case late, early, changingDelays = "changing_delays", cancelled, skippedStop = "skipped_stop",
            timeOnly = "time_only", noData = "no_data", tripDelay = "trip_delay", vehicleOnly = "vehicle_only", varied
    }

    public func feeds(step: Int = 0, at: Int64? = nil) throws -> FixtureFeeds {
        guard !schedule.instances.isEmpty else {
            throw FixtureError(schedule.noTripsExplanation)
        }
        let now = at ?? schedule.at
        let drift = Self.drift[step % Self.drift.count]
        var tu: [FeedEntity] = []
        var vp: [FeedEntity] = []
        var cases: [(String, String, ServiceDate)] = []
        let roles = assignRoles()
        for (index, instance) in schedule.instances.enumerated() {
            let role = roles[index]
            let hash = Self.fnv(instance.trip.tripId) &+ UInt64(instance.serviceDate)
            let next = nextStop(instance, now)
            // A vehicle with no trip update: the realtime service estimates its delays from the position.
            if role != .vehicleOnly {
                let update = tripUpdate(instance, role: role, next: next, drift: drift, hash: hash)
                tu.append(FeedEntity(id: "tu-\(index + 1)", tripUpdate: update))
            }
            if role != .varied { cases.append((role.rawValue, instance.trip.tripId, instance.serviceDate)) }
            if role != .cancelled, instance.first <= now,
                let vehicle = vehiclePosition(
                    instance, index: index, next: next, delay: Self.delay(role, hash) + drift, hash: hash, now: now)
            {
                vp.append(FeedEntity(id: "vp-\(index + 1)", vehicle: vehicle))
            }
        }
        let added = addedTrip(drift: drift)
        tu.append(FeedEntity(id: "tu-added", tripUpdate: added.update))
        cases.append(("added", added.update.trip.tripId ?? "", added.serviceDate))

        let header = FeedHeader(
            gtfsRealtimeVersion: "2.0", incrementality: .fullDataset, timestamp: UInt64(max(0, now)))
        return FixtureFeeds(
            tripUpdates: FeedMessage(header: header, entities: tu),
            vehiclePositions: FeedMessage(header: header, entities: vp),
            alerts: FeedMessage(header: header, entities: alerts()),
            cases: cases)
    }

    // MARK: trip updates

    /// The stop a vehicle heads for at `now` on the instance (its count when the trip is over).
    private func nextStop(_ i: RunningInstance, _ now: Int64) -> Int {
        i.stops.indices.first { i.departure($0) >= now } ?? i.stops.count
    }

    /// Each special case goes to the first instance (in order) with enough stops left at the fixture moment
    /// (a skipped stop needs a stop after the next one, changing delays three); the rest are `varied`.
    func assignRoles() -> [Role] {
        var roles = [Role](repeating: .varied, count: schedule.instances.count)
        var taken = Set<Int>()
        for role in Role.allCases where role != .varied {
            let needed =
                switch role {
                case .changingDelays: 3
                case .skippedStop, .noData: 2
                case .cancelled, .tripDelay: 0
                case .vehicleOnly: 2
                default: 1
                }
            let found = schedule.instances.indices.first { i in
                !taken.contains(i)
                    && schedule.instances[i].stops.count - nextStop(schedule.instances[i], schedule.at) >= needed
                    // a vehicle on its way: started, and past its first stop
                    && (role != .vehicleOnly || nextStop(schedule.instances[i], schedule.at) > 0)
            }
            if let found {
                roles[found] = role
                taken.insert(found)
            }
        }
        return roles
    }

    /// Delay changes along the replay cycle (seconds), same for every trip.
    static let drift: [Int32] = [0, 30, 60, 90, 60, 30, 0, -30]

    static func delay(_ role: Role, _ hash: UInt64) -> Int32 {
        switch role {
        case .late: 300
        case .early: -120
        case .changingDelays: 60
        case .cancelled: 0
        case .skippedStop: 120
        case .timeOnly: 240
        case .noData: 90
        case .tripDelay: 150
        case .vehicleOnly: 180
        case .varied: Int32(hash % 9) * 60 - 120  // −2 … +6 minutes
        }
    }

    private func descriptor(_ i: RunningInstance, relationship: TripScheduleRelationship? = nil) -> TripDescriptor {
        TripDescriptor(
            tripId: i.trip.tripId, routeId: i.trip.routeId, directionId: i.trip.directionId.map { UInt32($0) },
            startTime: i.frequencyStart.map { GTFSTime.format(Int($0)) }, startDate: String(i.serviceDate),
            scheduleRelationship: relationship ?? (i.inexactFrequency ? .unscheduled : .scheduled))
    }

    private func tripUpdate(_ i: RunningInstance, role: Role, next: Int, drift: Int32, hash: UInt64) -> TripUpdate {
        let delay = Self.delay(role, hash) + drift
        let timestamp = UInt64(max(0, schedule.at))
        var update = TripUpdate(trip: descriptor(i), vehicle: VehicleDescriptor(id: vehicleId(i)), timestamp: timestamp)
        func stu(_ k: Int, delay d: Int32, occupancy: OccupancyStatus? = nil) -> StopTimeUpdate? {
            guard k < i.stops.count else { return nil }
            return StopTimeUpdate(
                stopSequence: i.stops[k].stopSequence, stopId: i.stops[k].stopId,
                arrival: k == 0 ? nil : StopTimeEvent(delay: d), departure: StopTimeEvent(delay: d),
                departureOccupancyStatus: occupancy)
        }
        switch role {
        case .cancelled:
            update.trip.scheduleRelationship = .canceled
        case .tripDelay:
            update.delay = delay  // no stop time updates: applies to every stop
        case .changingDelays:
            update.stopTimeUpdates = [
                stu(next, delay: delay), stu(next + 1, delay: delay + 120), stu(next + 2, delay: delay + 240),
            ].compactMap { $0 }
        case .skippedStop:
            var updates = [stu(next, delay: delay)].compactMap { $0 }
            if next + 1 < i.stops.count {
                updates.append(
                    StopTimeUpdate(
                        stopSequence: i.stops[next + 1].stopSequence, stopId: i.stops[next + 1].stopId,
                        scheduleRelationship: .skipped))
            }
            update.stopTimeUpdates = updates
        case .noData:
            var updates = [stu(next, delay: delay)].compactMap { $0 }
            if next + 1 < i.stops.count {
                updates.append(
                    StopTimeUpdate(stopSequence: i.stops[next + 1].stopSequence, scheduleRelationship: .noData))
            }
            update.stopTimeUpdates = updates
        case .timeOnly:
            if next < i.stops.count {
                update.stopTimeUpdates = [
                    StopTimeUpdate(
                        stopSequence: i.stops[next].stopSequence,
                        arrival: next == 0 ? nil : StopTimeEvent(time: i.arrival(next) + Int64(delay)),
                        departure: StopTimeEvent(time: i.departure(next) + Int64(delay)))
                ]
            } else {
                update.delay = delay
            }
        case .late, .early, .varied, .vehicleOnly:
            let occupancy = role == .varied ? Self.occupancy(hash).status : nil
            if let first = stu(next, delay: delay, occupancy: occupancy) {
                update.stopTimeUpdates = [first]
            } else {
                update.delay = delay
            }
        }
        return update
    }

    /// A NEW trip ten minutes after the fixture moment over the stops of the first instance, with its own
    /// scheduled and predicted times. The same trip in every replay step.
    private func addedTrip(drift: Int32) -> (update: TripUpdate, serviceDate: ServiceDate) {
        let model = schedule.instances[0]
        let zone = try? ServiceTimeZone(identifier: schedule.timeZone)
        let start = (schedule.at / 60 + 10) * 60  // whole minute, ten minutes on
        let day = zone?.localDate(atUnix: start) ?? GTFSDate(dayNumber: Int(start / 86_400))
        let reference = zone?.referenceUnix(of: day) ?? Int64(day.dayNumber) * 86_400
        let startSecs = Int(start - reference)
        let tripId = "NEW.\(model.trip.tripId).\(String(format: "%02d%02d", startSecs / 3600, startSecs / 60 % 60))"
        let offset = start - model.first
        var updates: [StopTimeUpdate] = []
        for k in model.stops.indices {
            let arrival = model.arrival(k) + offset, departure = model.departure(k) + offset
            updates.append(
                StopTimeUpdate(
                    stopSequence: UInt32(k + 1), stopId: model.stops[k].stopId,
                    arrival: StopTimeEvent(time: arrival + Int64(drift), scheduledTime: arrival),
                    departure: StopTimeEvent(time: departure + Int64(drift), scheduledTime: departure)))
        }
        let update = TripUpdate(
            trip: TripDescriptor(
                tripId: tripId, routeId: model.trip.routeId, directionId: model.trip.directionId.map { UInt32($0) },
                startTime: GTFSTime.format(startSecs), startDate: String(day.yyyymmdd), scheduleRelationship: .new),
            vehicle: VehicleDescriptor(id: "V-NEW", label: "Extra service"), stopTimeUpdates: updates,
            timestamp: UInt64(max(0, schedule.at)),
            tripProperties: TripProperties(tripHeadsign: "Extra service"))
        return (update, ServiceDate(day.yyyymmdd))
    }

    // MARK: vehicles

    private func vehicleId(_ i: RunningInstance) -> String {
        String(format: "V%05llu", Self.fnv(i.trip.tripId + "@\(i.serviceDate)") % 100_000)
    }

    static func occupancy(_ hash: UInt64) -> (status: OccupancyStatus, percent: UInt32) {
        let options: [(OccupancyStatus, UInt32)] = [
            (.manySeatsAvailable, 25), (.fewSeatsAvailable, 60), (.standingRoomOnly, 85),
            (.crushedStandingRoomOnly, 110), (.empty, 3),
        ]
        return options[Int(hash / 9 % UInt64(options.count))]
    }

    /// Between the stop it left and `next`, at the position the delayed schedule puts it at `now`.
    private func vehiclePosition(_ i: RunningInstance, index: Int, next: Int, delay: Int32, hash: UInt64, now: Int64)
        -> VehiclePosition?
    {
        guard next < i.stops.count, let to = schedule.stops[i.stops[next].stopId] else { return nil }
        let from = next > 0 ? schedule.stops[i.stops[next - 1].stopId] : nil
        var lat = to.lat, lon = to.lon
        var status: VehicleStopStatus = .stoppedAt
        var bearing: Float?
        if let from, next > 0 {
            let leave = i.departure(next - 1) + Int64(delay), arrive = i.arrival(next) + Int64(delay)
            let fraction = arrive > leave ? min(1, max(0, Double(now - leave) / Double(arrive - leave))) : 1
            lat = from.lat + (to.lat - from.lat) * fraction
            lon = from.lon + (to.lon - from.lon) * fraction
            status = fraction >= 0.9 ? .incomingAt : .inTransitTo
            let degrees = atan2(to.lon - from.lon, to.lat - from.lat) * 180 / .pi
            bearing = Float((degrees + 360).truncatingRemainder(dividingBy: 360))
        }
        let occupancy = Self.occupancy(hash)
        let label = schedule.routes[i.trip.routeId]?.shortName.map { "\($0) \(index + 1)" } ?? "Vehicle \(index + 1)"
        return VehiclePosition(
            trip: descriptor(i), vehicle: VehicleDescriptor(id: vehicleId(i), label: label),
            position: Position(
                latitude: Float(lat), longitude: Float(lon), bearing: bearing, speed: status == .stoppedAt ? 0 : 9.5),
            currentStopSequence: i.stops[next].stopSequence, stopId: i.stops[next].stopId, currentStatus: status,
            timestamp: UInt64(max(0, now - 5)), congestionLevel: index == 0 ? .congestion : nil,
            occupancyStatus: occupancy.status, occupancyPercentage: occupancy.percent)
    }

    // MARK: alerts

    private func alerts() -> [FeedEntity] {
        let at = UInt64(max(0, schedule.at))
        let instances = schedule.instances
        var out: [FeedEntity] = []

        // A station: the first parent station of a stop the instances serve (else the first stop).
        let stopIds = instances.lazy.flatMap { $0.stops.map(\.stopId) }
        let station =
            stopIds.lazy.compactMap { self.schedule.stops[$0]?.parentStation }.first ?? instances[0].stops[0].stopId
        let stationName = schedule.stops[station]?.name ?? station
        out.append(
            FeedEntity(
                id: "alert-station",
                alert: Alert(
                    activePeriods: [TimeRange(start: at - 3600)], informedEntities: [EntitySelector(stopId: station)],
                    cause: .maintenance, effect: .accessibilityIssue,
                    headerText: TranslatedText([
                        .init(text: "Lifts out of service at \(stationName)", language: "en"),
                        .init(text: "\(stationName)：电梯停止服务", language: "zh-Hans"),
                    ]),
                    descriptionText: TranslatedText([
                        .init(text: "Allow extra time; staff can help.", language: "en")
                    ]),
                    severityLevel: .warning)))

        let roles = assignRoles()
        func instance(_ role: Role) -> RunningInstance {
            roles.firstIndex(of: role).map { instances[$0] } ?? instances[0]
        }

        // A route (the one of the trip whose delays change along the way).
        let routed = instance(.changingDelays)
        let routeName = schedule.routes[routed.trip.routeId]?.shortName ?? routed.trip.routeId
        out.append(
            FeedEntity(
                id: "alert-route",
                alert: Alert(
                    activePeriods: [TimeRange(start: at - 1800, end: at + 7200)],
                    informedEntities: [EntitySelector(routeId: routed.trip.routeId)], cause: .construction,
                    effect: .detour,
                    url: TranslatedText("https://example.org/alerts/route"),
                    headerText: TranslatedText("\(routeName) detours around roadworks"),
                    descriptionText: TranslatedText(
                        "Services run via the next street; stops in between are not served."),
                    severityLevel: .warning)))

        // A route type (the one of the last instance).
        let routeType = Int32(instances[instances.count - 1].trip.routeType)
        out.append(
            FeedEntity(
                id: "alert-route-type",
                alert: Alert(
                    activePeriods: [TimeRange(end: at + 86_400)],
                    informedEntities: [EntitySelector(routeType: routeType)],
                    cause: .weather, effect: .reducedService,
                    headerText: TranslatedText(
                        "Reduced service on every route of type \(routeType) because of the weather"),
                    severityLevel: .info)))

        // A trip (the cancelled one).
        let cancelled = instance(.cancelled)
        out.append(
            FeedEntity(
                id: "alert-trip",
                alert: Alert(
                    informedEntities: [EntitySelector(trip: descriptor(cancelled, relationship: nil))],
                    cause: .technicalProblem, effect: .noService,
                    headerText: TranslatedText(
                        "The \(GTFSTime.format(Int(cancelled.first - zoneReference(cancelled)))) service does not run"),
                    severityLevel: .severe)))
        return out
    }

    private func zoneReference(_ i: RunningInstance) -> Int64 {
        guard let zone = try? ServiceTimeZone(identifier: schedule.timeZone),
            let day = GTFSDate(yyyymmdd: Int(i.serviceDate))
        else {
            return i.baseUnix
        }
        return zone.referenceUnix(of: day)
    }

    /// FNV-1a: a stable hash (Swift's `Hasher` is seeded per process).
    static func fnv(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
