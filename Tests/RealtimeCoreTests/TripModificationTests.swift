// Trip modifications (detours), one crafted fixture per rule of the spec's trip-modifications section
// (https://gtfs.org/realtime/feed-entities/trip-modifications/ and the reference's TripModifications,
// Modification, ReplacementStop, StopSelector, SelectedTrips and ModifiedTripSelector), then bad input.
//
// Rules:
//  1. A TripModifications is in effect for its selected trips on its service_dates only.
//  2. On one service date a trip is assigned to one TripModifications: a second one selecting it is left out.
//  3. start_times limit it to those runs of a frequency-based trip (two entities may take different runs).
//  4. A modified trip replaces its trip_id (no copy): an update about it resolves to the trip's own instance.
//  5. The modified trip's stop_sequence values are 1...n along its served stops.
//  6. A modification replaces the stops from start_stop_selector to end_stop_selector, inclusive.
//  7. start and end selecting the same stop replace that one stop.
//  8. Without end_stop_selector nothing is replaced: the replacement stops go before the start stop.
//  9. The replacement stops may be fewer or more than the replaced ones (3 by 0, 3 by 4).
// 10. A replacement stop arrives travel_time_to_stop after the reference stop, the stop before the start.
// 11. When the modification starts at the first stop, that stop is the reference; the time may be negative.
// 12. Without travel_time_to_stop the time is interpolated over the modification's duration in the
//     original trip.
// 13. A replacement stop's departure equals its arrival.
// 14. A replacement stop's optional stop_times fields are the defaults (regular pickup and drop-off); kept
//     stops keep theirs.
// 15. propagated_modification_delay is added to every time after the modification.
// 16. With several modifications the propagated delays accumulate (a later reference stop carries them).
// 17. Spans must not overlap, and touching spans must be merged: otherwise the trip keeps its schedule.
// 18. A TripUpdate with a ModifiedTripSelector: its stop_sequence / stop_id refer to the modified trip and
//     its times to the modified schedule.
// 19. A replacement stop is a Stop entity of the feed or a static stop.
// 20. Without such a TripUpdate, the original trip's update applies: the shared stops get its predictions
//     on the original schedule, the replacement stops none.
// 21. A StopSelector names its stop by stop_sequence or by stop_id (an end by stop_id: at or after the start).
// 22. SelectedTrips.shape_id names the modified trips' shape (a Shape entity's encoded polyline).
// Bad input (each left out with a counted reason, the rest applied): unknown selected trips; replacement
// stops without coordinates (unknown id, Stop entity without lat/lon); overlapping modifications; an
// unparsable shape; a selector naming no stop; decreasing or misplaced negative travel times; bad service
// dates; an update naming modifications not in the feed or not in effect on its date.
import GTFSRealtime
import Testing
import TransitCore
import TransitModel

@testable import RealtimeCore

@Suite struct TripModificationTests {
    // The default trip: S1…S6, stop_sequence 10…60, arriving k·300 s after 08:00, departing 30 s later
    // (S1 at once).
    let stops = Fixture.pattern(6).stops
    let applier = TripModificationApplier(
        feedStops: ["R1", "R2", "R3", "R4"].map { RealtimeStop(stopId: $0, stopLat: -33.87, stopLon: 151.2) }
            + [RealtimeStop(stopId: "NOLOC", stopName: TranslatedText([.init(text: "Nowhere")]))],
        staticStops: ["S9": GeoPoint(latitude: -33.9, longitude: 151.1)])

    static func seq(_ sequence: UInt32) -> StopSelector { StopSelector(stopSequence: sequence) }

    static func modification(
        _ start: StopSelector, _ end: StopSelector?, _ replacements: [(String, Int32?)] = [], delay: Int32? = nil
    ) -> TripModifications.Modification {
        TripModifications.Modification(
            startStopSelector: start, endStopSelector: end, propagatedModificationDelay: delay,
            replacementStops: replacements.map { ReplacementStop(travelTimeToStop: $0.1, stopId: $0.0) })
    }

    static func modifications(
        _ list: [TripModifications.Modification], trips: [String] = ["T1"], dates: [String] = [Fixture.dayText],
        startTimes: [String] = [], shapeId: String? = nil
    ) -> TripModifications {
        TripModifications(
            selectedTrips: [.init(tripIds: trips, shapeId: shapeId)], startTimes: startTimes, serviceDates: dates,
            modifications: list)
    }

    func apply(_ list: [TripModifications.Modification], stops: [PatternStop]? = nil) -> TripModificationApplier.Outcome
    {
        applier.apply(Self.modifications(list), entityId: "M1", tripId: "T1", stops: stops ?? self.stops)
    }

    func modified(_ list: [TripModifications.Modification]) throws -> ModifiedTrip {
        let outcome = apply(list)
        #expect(outcome.problems == [])
        return try #require(outcome.modifiedTrip)
    }

    /// The served stops as (stop id, sequence, arrival offset, departure offset).
    func served(_ trip: ModifiedTrip) -> [String] {
        trip.servedStops.map { "\($0.stopId)#\($0.stopSequence) \($0.arrivalOffset)/\($0.departureOffset)" }
    }

    // MARK: the modified stop list

    /// Rules 5, 6, 10, 13: S2…S4 replaced by R1, R2; times from the reference stop S1; renumbered 1...n.
    @Test func spanReplacedByReplacementStops() throws {
        let trip = try modified([Self.modification(Self.seq(20), Self.seq(40), [("R1", 200), ("R2", 500)])])
        #expect(served(trip) == ["S1#1 0/0", "R1#2 200/200", "R2#3 500/500", "S5#4 1200/1230", "S6#5 1500/1530"])
        #expect(trip.detouredStops.map(\.stopId) == ["S2", "S3", "S4"])
        #expect(trip.detouredStops.map(\.stopSequence) == [nil, nil, nil])
        #expect(trip.detouredStops[0].role == .detoured(originalSequence: 20, modification: 0))
        #expect(trip.stops.map(\.stopId) == ["S1", "S2", "S3", "S4", "R1", "R2", "S5", "S6"])
        #expect(trip.stops[4].role == .replacement(modification: 0))
        #expect(trip.stops[4].location == GeoPoint(latitude: Double(Float(-33.87)), longitude: Double(Float(151.2))))
        #expect(trip.stops[6].role == .kept(originalSequence: 50))
    }

    /// Rules 7, 10: one stop replaced; the reference is the stop before it (S2, arriving at 300).
    @Test func sameStartAndEndReplaceOneStop() throws {
        let trip = try modified([Self.modification(Self.seq(30), Self.seq(30), [("R1", 120)])])
        #expect(served(trip).prefix(4) == ["S1#1 0/0", "S2#2 300/330", "R1#3 420/420", "S4#4 900/930"])
        #expect(trip.detouredStops.map(\.stopId) == ["S3"])
    }

    /// Rules 8, 15: no end selector: R1 goes between S3 and S4, nothing is removed, S4 on is 60 s later.
    @Test func noEndSelectorInsertsBeforeTheStartStop() throws {
        let trip = try modified([Self.modification(Self.seq(40), nil, [("R1", 100)], delay: 60)])
        #expect(
            served(trip) == [
                "S1#1 0/0", "S2#2 300/330", "S3#3 600/630", "R1#4 700/700", "S4#5 960/990", "S5#6 1260/1290",
                "S6#7 1560/1590",
            ])
        #expect(trip.detouredStops.isEmpty)
        #expect(trip.stops[4].propagatedDelay == 60)
    }

    /// Rule 9: three stops replaced by none, and by four.
    @Test(arguments: [0, 4])
    func replacementCountIsFree(count: Int) throws {
        let replacements: [(String, Int32?)] = ["R1", "R2", "R3", "R4"].prefix(count).enumerated().map { k, id in
            (id, Int32(100 * (k + 1)))
        }
        let trip = try modified([Self.modification(Self.seq(20), Self.seq(40), replacements)])
        #expect(trip.servedStops.count == 3 + count)
        #expect(trip.detouredStops.count == 3)
        #expect(trip.servedStops.map(\.stopSequence) == Array(1...UInt32(3 + count)))  // renumbered
    }

    /// Rule 11: the modification starts at S1: S1 is the reference (and replaced); a negative time puts R1
    /// before S1's original arrival.
    @Test func firstStopIsItsOwnReference() throws {
        let trip = try modified([Self.modification(Self.seq(10), Self.seq(10), [("R1", -60)])])
        #expect(served(trip).prefix(2) == ["R1#1 -60/-60", "S2#2 300/330"])
        #expect(trip.detouredStops.map(\.stopId) == ["S1"])
    }

    /// Rule 12: without times, R1…R3 share the original S1→S5 duration (1,200 s) evenly; with one time
    /// given, the others are interpolated on either side of it.
    @Test func missingTravelTimesAreInterpolated() throws {
        let even = try modified([
            Self.modification(Self.seq(20), Self.seq(40), [("R1", nil), ("R2", nil), ("R3", nil)])
        ])
        #expect(even.servedStops.map(\.arrivalOffset) == [0, 300, 600, 900, 1200, 1500])
        let mixed = try modified([
            Self.modification(Self.seq(20), Self.seq(40), [("R1", nil), ("R2", 900), ("R3", nil)])
        ])
        #expect(mixed.servedStops.map(\.arrivalOffset) == [0, 450, 900, 1050, 1200, 1500])
        #expect(mixed.servedStops.map(\.departureOffset)[1...3] == [450, 900, 1050])
    }

    /// Rule 14: replacement stops get the defaults; kept stops keep their stop_times values.
    @Test func replacementStopsHaveDefaultStopTimeFields() throws {
        var stops = self.stops
        stops[4].pickupType = 1
        stops[4].timepoint = false
        let trip = try #require(
            apply([Self.modification(Self.seq(20), Self.seq(40), [("R1", 200)])], stops: stops).modifiedTrip)
        let served = trip.servedStops
        #expect(served[1].stopId == "R1")
        #expect((served[1].pickupType, served[1].dropOffType, served[1].timepoint) == (0, 0, true))
        #expect(served[2].stopId == "S5")
        #expect((served[2].pickupType, served[2].timepoint) == (1, false))
    }

    /// Rules 15, 16: +60 after the first modification, +180 after the second; the second's reference S3
    /// carries the first delay (660 + 100).
    @Test func propagatedDelaysAccumulate() throws {
        let trip = try modified([
            Self.modification(Self.seq(20), Self.seq(20), [("R1", 150)], delay: 60),
            Self.modification(Self.seq(40), Self.seq(40), [("R2", 100)], delay: 120),
        ])
        #expect(
            served(trip) == [
                "S1#1 0/0", "R1#2 150/150", "S3#3 660/690", "R2#4 760/760", "S5#5 1380/1410", "S6#6 1680/1710",
            ])
        #expect(trip.stops.map(\.propagatedDelay) == [0, 0, 0, 60, 0, 0, 180, 180])
    }

    struct OverlapCase: CustomTestStringConvertible, Sendable {
        let testDescription: String
        let first: ClosedRange<UInt32>
        let second: ClosedRange<UInt32>
        let message: String
    }

    /// Rule 17 (and bad input): overlapping or touching spans leave the trip on its schedule.
    @Test(arguments: [
        OverlapCase(
            testDescription: "overlap", first: 20...40, second: 30...50, message: "modifications 0 and 1 overlap"),
        OverlapCase(
            testDescription: "touch", first: 20...30, second: 40...40,
            message: "modifications 0 and 1 touch (the spec requires them merged)"),
    ])
    func overlappingModificationsKeepTheSchedule(_ overlap: OverlapCase) {
        let outcome = apply([
            Self.modification(Self.seq(overlap.first.lowerBound), Self.seq(overlap.first.upperBound), [("R1", 100)]),
            Self.modification(Self.seq(overlap.second.lowerBound), Self.seq(overlap.second.upperBound), [("R2", 100)]),
        ])
        #expect(outcome.modifiedTrip == nil)
        #expect(outcome.problems.map(\.reason) == [.overlappingModifications])
        #expect(outcome.problems.first?.message == overlap.message)
    }

    @Test func twoInsertionsAtOneStopOverlap() {
        let outcome = apply([Self.modification(Self.seq(30), nil, [("R1", 100)]), Self.modification(Self.seq(30), nil)])
        #expect(outcome.problems.map(\.reason) == [.overlappingModifications])
    }

    /// Rule 19: a static stop (S9) is a replacement stop as good as a Stop entity.
    @Test func staticStopAsReplacement() throws {
        let trip = try modified([Self.modification(Self.seq(20), Self.seq(20), [("S9", 100)])])
        #expect(trip.stops.first { $0.stopId == "S9" }?.location == GeoPoint(latitude: -33.9, longitude: 151.1))
    }

    /// Rule 21: selectors by stop_id; on a loop trip the end is the first visit at or after the start.
    @Test func selectorsByStopId() throws {
        let trip = try modified([
            Self.modification(StopSelector(stopId: "S2"), StopSelector(stopId: "S3"), [("R1", 100)])
        ])
        #expect(trip.detouredStops.map(\.stopId) == ["S2", "S3"])
        let loop = Fixture.pattern(5, stopIds: ["A", "B", "C", "B", "D"]).stops
        let outcome = apply(
            [Self.modification(StopSelector(stopSequence: 40), StopSelector(stopId: "B"), [("R1", 100)])], stops: loop)
        let looped = try #require(outcome.modifiedTrip)
        #expect(looped.detouredStops.map(\.role) == [.detoured(originalSequence: 40, modification: 0)])
    }

    // MARK: selection (TripModificationSet)

    static let day2: ServiceDate = 20250315

    static func set(
        _ entities: [FeedEntity], trips: [TripSchedule] = [Fixture.trip(dates: [Fixture.day, day2])]
    ) -> TripModificationSet {
        TripModificationSet(entities: entities, schedules: Fixture.index(trips, [Fixture.pattern(6)]))
    }

    static let detour = modification(seq(20), seq(40), [("R1", 200), ("R2", 500)])
    static let feedStops = ["R1", "R2"].map {
        FeedEntity(id: "stop-\($0)", stop: RealtimeStop(stopId: $0, stopLat: -33.87, stopLon: 151.2))
    }

    /// Rule 1: in effect on its service dates only.
    @Test func inEffectOnItsServiceDatesOnly() {
        let set = Self.set(
            Self.feedStops + [FeedEntity(id: "M1", tripModifications: Self.modifications([Self.detour]))])
        #expect(set.problems == [])
        #expect(
            set.modifiedTrip(tripId: "T1", serviceDate: Fixture.day, startSecs: Fixture.start)?.modificationsId == "M1")
        #expect(set.modifiedTrip(tripId: "T1", serviceDate: Self.day2, startSecs: Fixture.start) == nil)
        #expect(set.modifiedTrip(tripId: "T2", serviceDate: Fixture.day, startSecs: Fixture.start) == nil)
    }

    /// Rule 2: a second TripModifications selecting T1 on the same date is left out for T1 (counted); on its
    /// other date it applies.
    @Test func oneTripModificationsPerTripAndDate() {
        let set = Self.set(
            Self.feedStops + [
                FeedEntity(id: "M1", tripModifications: Self.modifications([Self.detour])),
                FeedEntity(
                    id: "M2",
                    tripModifications: Self.modifications(
                        [Self.modification(Self.seq(50), nil, [("R1", 60)])], dates: [Fixture.dayText, "20250315"])),
            ])
        #expect(set.problems.map(\.reason) == [.tripSelectedTwice])
        #expect(set.problems.first?.entityId == "M2")
        #expect(
            set.modifiedTrip(tripId: "T1", serviceDate: Fixture.day, startSecs: Fixture.start)?.modificationsId == "M1")
        #expect(
            set.modifiedTrip(tripId: "T1", serviceDate: Self.day2, startSecs: Fixture.start)?.modificationsId == "M2")
    }

    /// Rule 3: start_times pick runs of a frequency-based trip; two entities may take different runs.
    @Test func startTimesSelectFrequencyRuns() {
        let frequent = Fixture.trip(
            "F1", frequencies: [FrequencyWindow(startSecs: 28_800, endSecs: 36_000, headwaySecs: 600, exactTimes: true)]
        )
        let set = Self.set(
            Self.feedStops + [
                FeedEntity(
                    id: "M1",
                    tripModifications: Self.modifications([Self.detour], trips: ["F1"], startTimes: ["08:00:00"])),
                FeedEntity(
                    id: "M2",
                    tripModifications: Self.modifications(
                        [Self.modification(Self.seq(50), nil, [("R1", 60)])], trips: ["F1"], startTimes: ["08:10:00"])),
            ], trips: [frequent])
        #expect(set.problems == [])
        #expect(set.modifiedTrip(tripId: "F1", serviceDate: Fixture.day, startSecs: 28_800)?.modificationsId == "M1")
        #expect(set.modifiedTrip(tripId: "F1", serviceDate: Fixture.day, startSecs: 29_400)?.modificationsId == "M2")
        #expect(set.modifiedTrip(tripId: "F1", serviceDate: Fixture.day, startSecs: 30_000) == nil)
    }

    /// Rule 22: the selected trips' shape from a Shape entity.
    @Test func shapeOfTheSelectedTrips() throws {
        let polyline = Polyline.encode([(-33.87, 151.2), (-33.88, 151.21), (-33.89, 151.2)])
        let set = Self.set(
            Self.feedStops + [
                FeedEntity(id: "sh", shape: RealtimeShape(shapeId: "SH1", encodedPolyline: polyline)),
                FeedEntity(id: "M1", tripModifications: Self.modifications([Self.detour], shapeId: "SH1")),
            ])
        let trip = try #require(set.modifiedTrip(modificationsId: "M1", tripId: "T1"))
        #expect(trip.shapeId == "SH1")
        #expect(trip.shapePoints?.count == 3)
        #expect(trip.shapePoints?.first == GeoPoint(latitude: -33.87, longitude: 151.2))
    }

    // MARK: trip updates

    static func modifiedUpdate(
        _ stops: [StopTimeUpdate], modificationsId: String = "M1", date: String? = Fixture.dayText
    ) -> TripUpdate {
        TripUpdate(
            trip: TripDescriptor(
                modifiedTrip: ModifiedTripSelector(
                    modificationsId: modificationsId, affectedTripId: "T1", startDate: date)),
            vehicle: VehicleDescriptor(id: "V7"), stopTimeUpdates: stops)
    }

    func resolveModified(_ update: TripUpdate, _ set: TripModificationSet) -> ModifiedTripResolution {
        var resolver = Fixture.resolver()
        return resolver.resolveModified(
            update, modifications: set,
            schedules: Fixture.index([Fixture.trip(dates: [Fixture.day, Self.day2])], [Fixture.pattern(6)]),
            now: Fixture.now)
    }

    static let standardSet = set(feedStops + [FeedEntity(id: "M1", tripModifications: modifications([detour]))])

    /// Rules 4, 5, 18: the update's stop_sequence 2 is R1 and stop_id R2 is the third served stop; delays
    /// are on the modified schedule; the instance is T1's own.
    @Test func updateOfTheModifiedTrip() throws {
        let result = resolveModified(
            Self.modifiedUpdate([Fixture.stu(seq: 2, arrivalDelay: 60), Fixture.stu(stop: "R2", arrivalDelay: 120)]),
            Self.standardSet)
        let trip = try #require(result.resolution.resolvedTrip, "\(result.resolution)")
        #expect(result.modifiedTrip?.modificationsId == "M1")
        #expect(trip.key == TripInstanceKey(tripId: "T1", serviceDate: Fixture.day))
        #expect(trip.staticTripId == "T1")
        #expect(trip.stops.map(\.stopId) == ["S1", "R1", "R2", "S5", "S6"])
        #expect(trip.stops.map(\.stopSequence) == [1, 2, 3, 4, 5])
        let base = Fixture.dayUnix + Int64(Fixture.start)
        #expect(trip.stops.map(\.scheduledArrival) == [base, base + 200, base + 500, base + 1200, base + 1500])
        #expect(trip.arrivalDelays == [nil, 60, 120, 120, 120])
        #expect(trip.unmatchedStopUpdates == 0)
        #expect(trip.vehicleId == "V7")
    }

    /// Rule 4 with inference: without start_date the date is inferred on the modified schedule.
    @Test func updateWithoutStartDate() throws {
        let base = Fixture.dayUnix + Int64(Fixture.start)
        let result = resolveModified(
            Self.modifiedUpdate([Fixture.stu(seq: 2, arrivalTime: base + 260)], date: nil), Self.standardSet)
        let trip = try #require(result.resolution.resolvedTrip, "\(result.resolution)")
        #expect(trip.key.serviceDate == Fixture.day)
        #expect(trip.stops[1].arrivalDelay == 60)
    }

    /// Rule 20: an update of the original trip, projected on the modified trip: S1, S5, S6 keep its
    /// predictions on the original schedule; R1 and R2 have their modified schedule and no prediction.
    @Test func originalTripUpdateProjected() throws {
        var resolver = Fixture.resolver()
        let original = try #require(
            resolver.resolve(
                Fixture.update([Fixture.stu(seq: 10, arrivalDelay: 60)]), schedules: Fixture.standard, now: Fixture.now
            )
            .resolvedTrip)
        let modified = try #require(Self.standardSet.modifiedTrip(modificationsId: "M1", tripId: "T1"))
        let projected = try #require(modified.projecting(original))
        let base = Fixture.dayUnix + Int64(Fixture.start)
        #expect(projected.stops.map(\.stopId) == ["S1", "R1", "R2", "S5", "S6"])
        #expect(projected.stops.map(\.stopSequence) == [1, 2, 3, 4, 5])
        #expect(projected.stops.map(\.scheduledArrival) == [base, base + 200, base + 500, base + 1200, base + 1500])
        #expect(projected.stops.map(\.status) == [.predicted, .noPrediction, .noPrediction, .predicted, .predicted])
        #expect(projected.arrivalDelays == [60, nil, nil, 60, 60])
        #expect(projected.key == original.key)
    }

    /// Rules 3, 4, 11 with an update: a frequency run whose first stop the detour replaces keeps its
    /// start_time at the original first departure (R1 is 60 s before it).
    @Test func updateOfAFrequencyRunWhoseFirstStopIsReplaced() throws {
        let frequent = Fixture.trip(
            "F1", frequencies: [FrequencyWindow(startSecs: 28_800, endSecs: 36_000, headwaySecs: 600, exactTimes: true)]
        )
        let schedules = Fixture.index([frequent], [Fixture.pattern(6)])
        let set = TripModificationSet(
            entities: Self.feedStops + [
                FeedEntity(
                    id: "M1",
                    tripModifications: Self.modifications(
                        [Self.modification(Self.seq(10), Self.seq(10), [("R1", -60)])], trips: ["F1"]))
            ], schedules: schedules)
        var update = Self.modifiedUpdate([Fixture.stu(seq: 2, arrivalDelay: 30)])
        update.trip.modifiedTrip = ModifiedTripSelector(
            modificationsId: "M1", affectedTripId: "F1", startTime: "08:10:00", startDate: Fixture.dayText)
        var resolver = Fixture.resolver()
        let result = resolver.resolveModified(update, modifications: set, schedules: schedules, now: Fixture.now)
        let trip = try #require(result.resolution.resolvedTrip, "\(result.resolution)")
        #expect(trip.key == TripInstanceKey(tripId: "F1", serviceDate: Fixture.day, startSecs: 29_400))
        let run = Fixture.dayUnix + 29_400
        #expect(trip.stops.map(\.stopId) == ["R1", "S2", "S3", "S4", "S5", "S6"])
        #expect(trip.stops.map(\.scheduledArrival).prefix(2) == [run - 60, run + 300])
        #expect(trip.stops[1].arrivalDelay == 30)
    }

    /// The static import's id prefix: selected trip ids and affected_trip_id are realtime ids.
    @Test func idPrefixAppliesToTripIds() throws {
        let schedules = Fixture.index([Fixture.trip("B:T1")], [Fixture.pattern(6)])
        let set = TripModificationSet(
            entities: Self.feedStops + [FeedEntity(id: "M1", tripModifications: Self.modifications([Self.detour]))],
            schedules: schedules, idPrefix: "B:")
        #expect(set.problems == [])
        #expect(set.modifiedTrip(tripId: "B:T1", serviceDate: Fixture.day, startSecs: Fixture.start) != nil)
        var resolver = Fixture.resolver(prefix: "B:")
        let result = resolver.resolveModified(
            Self.modifiedUpdate([Fixture.stu(seq: 2, arrivalDelay: 60)]), modifications: set, schedules: schedules,
            now: Fixture.now)
        #expect(result.resolution.resolvedTrip?.key.tripId == "B:T1")
    }

    // MARK: bad input

    @Test func unknownSelectedTripIsLeftOut() {
        let set = Self.set(
            Self.feedStops + [
                FeedEntity(id: "M1", tripModifications: Self.modifications([Self.detour], trips: ["TX", "T1"]))
            ])
        #expect(set.problems.map(\.reason) == [.unknownTrip])
        #expect(set.problems.first?.tripId == "TX")
        #expect(set.modifiedTrip(tripId: "T1", serviceDate: Fixture.day, startSecs: Fixture.start) != nil)
    }

    @Test func replacementStopsWithoutCoordinatesAreLeftOut() throws {
        let outcome = apply([
            Self.modification(Self.seq(20), Self.seq(40), [("R1", 100), ("NOLOC", 200), ("NOPE", 300)])
        ])
        #expect(
            outcome.problems.map(\.reason) == [.replacementStopWithoutCoordinates, .replacementStopWithoutCoordinates])
        #expect(
            outcome.problems.map(\.message) == [
                "replacement stop 1 (\"NOLOC\") of modification 0: its Stop entity has no stop_lat/stop_lon; left out",
                "replacement stop 2 (\"NOPE\") of modification 0: no Stop entity or static stop has that id; left out",
            ])
        let trip = try #require(outcome.modifiedTrip)
        #expect(served(trip) == ["S1#1 0/0", "R1#2 100/100", "S5#3 1200/1230", "S6#4 1500/1530"])
    }

    @Test func unparsableShapeIsCountedAndTheDetourStillApplies() throws {
        let set = Self.set(
            Self.feedStops + [
                FeedEntity(id: "sh", shape: RealtimeShape(shapeId: "SH1", encodedPolyline: "not a polyline !")),
                FeedEntity(id: "sh2", shape: RealtimeShape(shapeId: "SH2", encodedPolyline: Polyline.encode([(1, 2)]))),
                FeedEntity(id: "M1", tripModifications: Self.modifications([Self.detour], shapeId: "SH1")),
            ])
        #expect(set.problems.map(\.reason) == [.unparsableShape, .unparsableShape])
        #expect(set.problems.map(\.entityId) == ["sh", "sh2"])
        let trip = try #require(set.modifiedTrip(modificationsId: "M1", tripId: "T1"))
        #expect(trip.shapeId == "SH1")
        #expect(trip.shapePoints == nil)
    }

    @Test func selectorNamingNoStopKeepsTheSchedule() {
        let missing = apply([Self.modification(Self.seq(99), nil, [("R1", 100)])])
        #expect(missing.modifiedTrip == nil)
        #expect(missing.problems.map(\.reason) == [.stopNotInTrip])
        // The end before the start.
        let backwards = apply([Self.modification(Self.seq(40), StopSelector(stopId: "S2"))])
        #expect(backwards.problems.map(\.reason) == [.stopNotInTrip])
    }

    @Test func badTravelTimesKeepTheSchedule() {
        let decreasing = apply([Self.modification(Self.seq(20), Self.seq(40), [("R1", 300), ("R2", 200)])])
        #expect(decreasing.modifiedTrip == nil)
        #expect(decreasing.problems.map(\.reason) == [.badTravelTime])
        let negative = apply([Self.modification(Self.seq(30), Self.seq(40), [("R1", -10)])])
        #expect(negative.problems.map(\.reason) == [.badTravelTime])
    }

    @Test func badServiceDatesAreLeftOut() {
        let set = Self.set(
            Self.feedStops + [
                FeedEntity(
                    id: "M1",
                    tripModifications: Self.modifications([Self.detour], dates: ["2025-03-15", Fixture.dayText])),
                FeedEntity(id: "M2", tripModifications: Self.modifications([Self.detour], dates: ["tomorrow"])),
                FeedEntity(
                    id: "M3", isDeleted: true, tripModifications: Self.modifications([Self.detour], dates: ["x"])),
            ])
        #expect(set.problems.map(\.reason) == [.badDateOrTime, .badDateOrTime])
        #expect(set.problems.map(\.entityId) == ["M1", "M2"])
        #expect(
            set.modifiedTrip(tripId: "T1", serviceDate: Fixture.day, startSecs: Fixture.start)?.modificationsId == "M1")
    }

    @Test func updatesNamingOtherModificationsAreDropped() {
        let unknown = resolveModified(Self.modifiedUpdate([], modificationsId: "M9"), Self.standardSet)
        #expect(unknown.resolution.drop?.reason == .unknownTrip)
        #expect(unknown.modifiedTrip == nil)
        // T1 runs on day2 too, but M1 is in effect on `day` only.
        let otherDay = resolveModified(Self.modifiedUpdate([], date: "20250315"), Self.standardSet)
        #expect(otherDay.resolution.drop?.reason == .noMatchingInstance)
        let noIds = resolveModified(
            TripUpdate(trip: TripDescriptor(modifiedTrip: ModifiedTripSelector(modificationsId: "M1"))),
            Self.standardSet)
        #expect(noIds.resolution.drop?.reason == .malformed)
    }
}
