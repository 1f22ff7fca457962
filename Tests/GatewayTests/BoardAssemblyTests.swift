import GatewayProtocol
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// The pure steps of a board in predicted time: cursors, the static/live merge, candidates and the page cut.
@Suite struct BoardAssemblyTests {
    private let at: Int64 = 1_766_394_000
    private let route = Route(routeId: "R", routeType: 3, mode: "bus", section: "#")

    private func departure(_ trip: String, _ offset: Int64, stop: String = "p1", sequence: UInt32 = 2) -> Departure {
        Departure(
            tripId: trip, route: route, headsign: nil, stopId: stop, stopSequence: sequence, stopIndex: 1,
            serviceDate: 20_251_222, scheduledSecs: Int32(72_000 + offset), scheduledUnix: at + offset)
    }

    @Test func cursorsRoundTripAndRejectForeignText() throws {
        let key = BoardKey(
            time: at, tripId: "odd|trip id", serviceDate: 20_251_222, startTime: "25:10:00", stopSequence: 7)
        for cursor in [
            GatewayBoardCursor(direction: .future, position: .after(key)),
            GatewayBoardCursor(direction: .past, position: .before(.timeOnly(at))),
        ] {
            let text = cursor.encode()
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(GatewayBoardCursor.decode(text) == cursor)
        }
        #expect(GatewayBoardCursor.decode("") == nil)
        #expect(GatewayBoardCursor.decode("not a cursor!") == nil)
        // A static service cursor (another format) is not one of the gateway's.
        #expect(GatewayBoardCursor.decode("MXxMfDE3NjYzOTYyMjB8MzkwfDJ8NzM4MDB8YXwxMDhjNmU4") == nil)
        #expect(GatewayBoardCursor.decode(String(repeating: "A", count: 5000)) == nil)
    }

    @Test func positionsSplitTheBoardWithoutGapsOrRepeats() {
        let k1 = BoardKey(time: at, tripId: "a", serviceDate: 1, startTime: "", stopSequence: 1)
        let k2 = BoardKey(time: at, tripId: "b", serviceDate: 1, startTime: "", stopSequence: 1)
        #expect(BoardKey.timeOnly(at) < k1 && k1 < k2)
        #expect(BoardPosition.after(k1).precedes(k2) && !BoardPosition.after(k1).precedes(k1))
        #expect(BoardPosition.before(k1).precedes(k1) && BoardPosition.before(k2).follows(k1))
        #expect(!BoardPosition.before(k1).follows(k1) && BoardPosition.after(k1).follows(k1))
    }

    @Test func mergeMovesRowsByPredictionAndDropsDeletedInstances() {
        let state = RealtimeState(
            trips: [
                TripPrediction(
                    LiveFixtures.trip(
                        "late", stops: [("p1", at + 60, at + 400), ("x", at + 500, at + 800)], firstSequence: 2)),
                TripPrediction(LiveFixtures.trip("gone", relationship: .deleted, stops: [])),
                TripPrediction(
                    LiveFixtures.trip(
                        "off", relationship: .canceled, stops: [("p1", at + 120, nil), ("x", at + 600, nil)],
                        firstSequence: 2)),
            ], sources: [RealtimeSourceStatus(name: "tu", kind: .tripUpdates)])
        let merged = BoardAssembly.merge(
            [departure("late", 60), departure("off", 120), departure("gone", 180), departure("plain", 240)],
            state: state)
        #expect(merged.rows.map(\.departure.tripId) == ["late", "off", "plain"])
        #expect(merged.rows.map(\.time) == [at + 400, at + 120, at + 240])
        #expect(
            merged.rows[0].status == .veryLate && merged.rows[1].status == .cancelled
                && merged.rows[2].status == .scheduled)

        // Without a usable state: the schedule as is.
        #expect(BoardAssembly.merge([departure("gone", 180)], state: nil).rows.count == 1)
    }

    @Test func candidatesAreVisitsMovedIntoTheWindowOrAdded() {
        let state = RealtimeState(
            trips: [
                // Scheduled before the window, delayed into it: a candidate.
                TripPrediction(
                    LiveFixtures.trip("delayedIn", stops: [("p1", at - 120, at + 200), ("x", at, at + 320)])),
                // Scheduled after the window, early into it: a candidate.
                TripPrediction(
                    LiveFixtures.trip("earlyIn", stops: [("p2", at + 1000, at + 500), ("x", at + 1100, at + 600)])),
                // Scheduled inside the window: the static rows have it (or left it out on purpose).
                TripPrediction(
                    LiveFixtures.trip("inside", stops: [("p1", at + 100, at + 150), ("x", at + 300, at + 350)])),
                // Delayed but still before the window; its last stop (x) offers no departure anyway.
                TripPrediction(
                    LiveFixtures.trip("stillBefore", stops: [("p1", at - 600, at - 300), ("x", at - 100, at + 100)])),
                // Added at the stop.
                TripPrediction(
                    LiveFixtures.trip("new", relationship: .new, stops: [("p2", nil, at + 50), ("x", nil, at + 400)])),
                // Another board's stop.
                TripPrediction(
                    LiveFixtures.trip("elsewhere", stops: [("q", at - 100, at + 100), ("x", at, at + 200)])),
                // A stale source's prediction is not used.
                TripPrediction(
                    LiveFixtures.trip("stale", stops: [("p1", at - 100, at + 100), ("x", at, at + 200)], source: "old")),
            ],
            sources: [
                RealtimeSourceStatus(name: "tu", kind: .tripUpdates),
                RealtimeSourceStatus(name: "old", kind: .tripUpdates, stale: true),
            ])
        let found = BoardAssembly.candidates(
            state: state, boardStops: ["p1", "p2", "station"], known: at..<at + 900, present: [], staticRows: true)
        #expect(Set(found.visits.map(\.trip.key.tripId)) == ["delayedIn", "earlyIn", "new"])
        #expect(found.usedStale && found.before)
        #expect(!found.beyond)
        // Already a row: not a candidate again.
        let present = DepartureIdentity(TripInstanceKey(tripId: "delayedIn", serviceDate: 20_251_222), stopSequence: 1)
        let again = BoardAssembly.candidates(
            state: state, boardStops: ["p1", "p2"], known: at..<at + 900, present: [present], staticRows: true)
        #expect(Set(again.visits.map(\.trip.key.tripId)) == ["earlyIn", "new"])
        // Without static rows (rt_only) every live visit in the window counts.
        let alone = BoardAssembly.candidates(
            state: state, boardStops: ["p1", "p2"], known: at..<at + 900, present: [], staticRows: false)
        #expect(Set(alone.visits.map(\.trip.key.tripId)) == ["delayedIn", "earlyIn", "inside", "new"])
        // A shorter window: the early one lies beyond it.
        let short = BoardAssembly.candidates(
            state: state, boardStops: ["p2"], known: at..<at + 300, present: [], staticRows: true)
        #expect(short.visits.map(\.trip.key.tripId) == ["new"] && short.beyond)
    }

    /// A `BoardStop` keeps its stops' live visits by board time, and a board then reads only those in its
    /// window: it must find what checking every visit finds, for any window, with and without static rows.
    @Test func candidatesByTimeAreThoseOfEveryVisitChecked() {
        var rng = SplitMix64(seed: 21)
        for round in 0..<40 {
            var trips: [TripPrediction] = []
            for t in 0..<Int.random(in: 1...25, using: &rng) {
                var stops: [(stopId: String, scheduled: Int64?, predicted: Int64?)] = []
                var time = at + Int64.random(in: -3_600...3_600, using: &rng)
                for _ in 0..<Int.random(in: 2...5, using: &rng) {
                    let scheduled: Int64? = Int.random(in: 0..<8, using: &rng) == 0 ? nil : time
                    let predicted: Int64? =
                        Bool.random(using: &rng) ? time + Int64.random(in: -300...900, using: &rng) : nil
                    stops.append((["p1", "p2", "station", "x"].randomElement(using: &rng)!, scheduled, predicted))
                    time += Int64.random(in: 30...600, using: &rng)
                }
                let relationship: LiveTripRelationship = [
                    .scheduled, .scheduled, .scheduled, .new, .canceled, .deleted,
                ]
                .randomElement(using: &rng)!
                let skipped: Set<String> = Bool.random(using: &rng) ? ["p2"] : []
                trips.append(
                    TripPrediction(
                        LiveFixtures.trip("t\(t)", relationship: relationship, stops: stops, skipped: skipped)))
            }
            let state = RealtimeState(trips: trips, sources: [RealtimeSourceStatus(name: "tu", kind: .tripUpdates)])
            let stops: Set<String> = round % 2 == 0 ? ["p1", "p2", "station"] : ["p2"]
            let timed = BoardAssembly.visits(state: state, boardStops: stops, timed: true)
            #expect(timed.byTime != nil)
            for _ in 0..<10 {
                // Windows starting or ending at a visit's time too (the bounds' edge cases).
                let edge = timed.byTime?.randomElement(using: &rng)?.time
                var start = at + Int64.random(in: -4_000...4_000, using: &rng)
                var length = Int64.random(in: 0...3_600, using: &rng)
                if let edge, Bool.random(using: &rng) {
                    if Bool.random(using: &rng) { start = edge } else { length = max(0, edge - start) }
                }
                let known = start..<start + length
                for staticRows in [true, false] {
                    let checked = BoardAssembly.candidates(
                        state: state, boardStops: stops, known: known, present: [], staticRows: staticRows)
                    let byTime = BoardAssembly.candidates(
                        state: state, visits: timed, known: known, present: [], staticRows: staticRows)
                    #expect(Set(byTime.visits.map(\.identity)) == Set(checked.visits.map(\.identity)))
                    #expect(byTime.visits.count == checked.visits.count)
                    #expect(byTime.before == checked.before && byTime.beyond == checked.beyond)
                    #expect(!byTime.usedStale && !checked.usedStale)
                }
            }
        }
    }

    /// The late visits a board counts come from the stop index, which must follow a visit becoming late or on
    /// time when an update changes only its times.
    @Test func delayedCountFollowsUpdatesThatOnlyChangeTimes() {
        func delayed(_ state: RealtimeState, _ stops: Set<String>, from: Int64) -> Int {
            BoardAssembly.delayedCount(visits: BoardAssembly.visits(state: state, boardStops: stops), from: from)
        }
        func trip(_ id: String, _ p1: Int64?, _ x: Int64?) -> TripPrediction {
            TripPrediction(LiveFixtures.trip(id, stops: [("p1", at + 60, p1), ("x", at + 500, x)], firstSequence: 2))
        }
        var state = RealtimeState(
            trips: [trip("late", at + 400, at + 800), trip("onTime", at + 60, at + 500)],
            sources: [RealtimeSourceStatus(name: "tu", kind: .tripUpdates)])
        #expect(delayed(state, ["p1"], from: at) == 1)
        #expect(delayed(state, ["p1", "x"], from: at) == 2)
        #expect(delayed(state, ["p1", "x"], from: at + 61) == 1)
        #expect(delayed(state, ["elsewhere"], from: at) == 0)

        var changed = Set<String>()
        state.apply(
            trips: [trip("late", at + 60, at + 500), trip("onTime", at + 90, nil)], removed: [], changedStops: &changed)
        #expect(delayed(state, ["p1"], from: at) == 1)
        #expect(delayed(state, ["x"], from: at) == 0)
        state.apply(trips: [trip("onTime", at + 30, nil)], removed: [], changedStops: &changed)
        #expect(delayed(state, ["p1", "x"], from: at) == 0)
        state.apply(
            trips: [], removed: [TripInstanceKey(tripId: "late", serviceDate: 20_251_222)], changedStops: &changed)
        #expect(delayed(state, ["p1", "x"], from: at) == 0)
        #expect(state.tripsByStop["x"]?.map(\.key.tripId) == ["onTime"])
    }

    /// `mayBeLive` rules rows out before the trip and vehicle dictionaries are asked: it must hold every
    /// instance they hold after each kind of change, and the merge must still find vehicle-only rows.
    @Test func everyLiveInstanceMayBeLiveAfterEachKindOfChange() {
        func trip(_ id: String) -> TripPrediction {
            TripPrediction(
                LiveFixtures.trip(id, stops: [("p1", at + 60, at + 90), ("x", at + 500, nil)], firstSequence: 2))
        }
        func check(_ state: RealtimeState, _ label: String) {
            for key in state.trips.keys { #expect(state.mayBeLive(key), "\(label): trip \(key)") }
            for key in state.vehicleByTrip.keys { #expect(state.mayBeLive(key), "\(label): vehicle \(key)") }
        }
        var state = RealtimeState(
            trips: [trip("a"), trip("b")], sources: [RealtimeSourceStatus(name: "tu", kind: .tripUpdates)])
        check(state, "start")
        var changed = Set<String>()
        state.apply(
            trips: [trip("c")], removed: [TripInstanceKey(tripId: "a", serviceDate: 20_251_222)], changedStops: &changed
        )
        check(state, "trips applied")
        state.apply(trips: [trip("e")], removed: [], changedStops: &changed)
        check(state, "a trip added alone")
        #expect(state.mayBeLive(TripInstanceKey(tripId: "e", serviceDate: 20_251_222)))
        #expect(!state.mayBeLive(TripInstanceKey(tripId: "a", serviceDate: 20_251_222)))
        let vehicleTrip = TripInstanceKey(tripId: "v", serviceDate: 20_251_222)
        state.apply(
            vehicles: [
                (
                    "bus",
                    VehicleEntry(
                        vehicle: VehicleSnapshot(vehicleId: "bus", tripId: "v", occupancyStatus: "FULL"),
                        instance: vehicleTrip)
                )
            ],
            removed: [], changedStops: &changed)
        check(state, "vehicles applied")
        #expect(state.mayBeLive(vehicleTrip))
        let merged = BoardAssembly.merge([departure("v", 30), departure("none", 40)], state: state)
        #expect(merged.rows.map { $0.realtime?.occupancyStatus } == ["FULL", nil])
        state.apply(vehicles: [], removed: ["bus"], changedStops: &changed)
        check(state, "vehicle removed")
        #expect(!state.mayBeLive(vehicleTrip))
        state.setTrips([trip("d")])
        check(state, "trips replaced")
        #expect(!state.mayBeLive(TripInstanceKey(tripId: "c", serviceDate: 20_251_222)))
    }

    @Test func pagesCutInBoardOrderOnEitherSideOfThePosition() {
        let rows = (0..<6).map { DepartureRow(departure: departure("t\($0)", Int64($0) * 60)) }
        let known = at..<at + 1000
        let first = BoardAssembly.page(
            rows.shuffled(), known: known, direction: .future, position: .before(.timeOnly(at)), limit: 4)
        #expect(first.rows.map(\.departure.tripId) == ["t0", "t1", "t2", "t3"])
        #expect(first.more && !first.behind)
        let next = BoardAssembly.page(
            rows, known: known, direction: .future, position: .after(BoardKey(first.rows[3])), limit: 4)
        #expect(next.rows.map(\.departure.tripId) == ["t4", "t5"] && !next.more && next.behind)
        let back = BoardAssembly.page(
            rows, known: known, direction: .past, position: .before(BoardKey(next.rows[0])), limit: 4)
        #expect(back.rows.map(\.departure.tripId) == first.rows.map(\.departure.tripId))
        // Rows outside the known window are never cut into a page.
        let narrow = BoardAssembly.page(
            rows, known: at..<at + 120, direction: .future, position: .before(.timeOnly(at)), limit: 4)
        #expect(narrow.rows.map(\.departure.tripId) == ["t0", "t1"])
    }

    @Test func pageCountIsTheSizeOfThePageWithoutBuildingIt() {
        let rows = (0..<6).map { DepartureRow(departure: departure("t\($0)", Int64($0) * 60)) }
        let middle = BoardKey(rows[2])
        let positions: [BoardPosition] = [.before(.timeOnly(at)), .after(middle), .before(middle)]
        for known in [at..<at + 1000, at..<at + 120, at + 60..<at + 200] {
            for position in positions {
                for direction in [BoardDirection.future, .past] {
                    for limit in [0, 1, 2, 4, 10] {
                        let page = BoardAssembly.page(
                            rows.shuffled(), known: known, direction: direction, position: position, limit: limit)
                        let count = BoardAssembly.pageCount(
                            rows.shuffled(), known: known, direction: direction, position: position, limit: limit)
                        #expect(count == page.rows.count, "\(known) \(direction) \(limit)")
                    }
                }
            }
        }
    }
}
