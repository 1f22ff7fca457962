import Foundation
import JourneyPlanner
import Testing
import TransitCore

/// One test per rule of the plan op, on hand-made feeds.
@Suite struct RuleTests {
    func query(_ from: Int, _ to: Int, _ at: String, day: Int = 0, radius: Double = 0) -> PlanQuery {
        var q = PlanQuery(from: .stops([from]), to: .stops([to]), time: .departAt(TinyFeed.at(at, day: day)))
        q.walkRadius = radius
        return q
    }

    @Test func boardsOnlyWherePickupAndAlightsOnlyWhereDropOffAllowed() throws {
        var feed = TinyFeed()
        let s = feed.line(6)
        feed.trip([(s[0], "08:00"), (s[1], "08:10"), (s[2], "08:20")], noPickup: [s[1]])
        feed.trip([(s[1], "09:00"), (s[2], "09:10")])
        feed.trip([(s[3], "08:00"), (s[4], "08:10"), (s[5], "08:20")], noDropOff: [s[4]])
        #expect(try feed.arrivals(query(s[1], s[2], "07:00")) == [0: TinyFeed.at("09:10")])
        #expect(try feed.arrivals(query(s[0], s[2], "07:00")) == [0: TinyFeed.at("08:20")])
        #expect(try feed.arrivals(query(s[3], s[4], "07:00")) == [:])
        #expect(try feed.arrivals(query(s[3], s[5], "07:00")) == [0: TinyFeed.at("08:20")])
    }

    @Test func changeAtAStopTakesTheSlackOrTheTransferTime() throws {
        var feed = TinyFeed()
        let s = feed.line(3, spacing: 0.05)  // far apart: no walking
        feed.trip([(s[0], "08:00"), (s[1], "08:10")])
        feed.trip([(s[1], "08:11"), (s[2], "08:30")])
        feed.trip([(s[1], "08:15"), (s[2], "08:40")])
        feed.trip([(s[1], "08:20"), (s[2], "08:50")])
        var q = query(s[0], s[2], "07:00")
        q.transferSlack = 60
        #expect(try feed.arrivals(q) == [1: TinyFeed.at("08:30")])
        q.transferSlack = 120
        #expect(try feed.arrivals(q) == [1: TinyFeed.at("08:40")])
        q.transferSlack = 0
        #expect(try feed.arrivals(q) == [1: TinyFeed.at("08:30")])
        // A same-stop transfers.txt time replaces the slack; type 0 means the slack; type 3 forbids changing.
        feed.transfers = [.init(from: s[1], to: s[1], type: 2, minTime: 400)]
        #expect(try feed.arrivals(q) == [1: TinyFeed.at("08:50")])
        feed.transfers = [.init(from: s[1], to: s[1], type: 0, minTime: 400)]
        #expect(try feed.arrivals(q) == [1: TinyFeed.at("08:30")])
        feed.transfers = [.init(from: s[1], to: s[1], type: 2)]
        q.transferSlack = 300
        #expect(try feed.arrivals(q) == [1: TinyFeed.at("08:40")])
        feed.transfers = [.init(from: s[1], to: s[1], type: 3)]
        #expect(try feed.arrivals(q) == [:])
    }

    /// The look-ahead after each round finds a journey with one trip more (here after a walk) before that round's
    /// walks, and bounds the search by it: the search must still find that journey itself, and keep the journey
    /// with fewer trips that arrives later (it is Pareto-optimal, though a label of it cannot beat the bound).
    @Test func journeysTheLookAheadFindsAreStillAnswered() throws {
        var feed = TinyFeed()
        let s = feed.line(4, spacing: 0.05)  // origin, A, B, destination: far apart
        let b2 = feed.stop(lat: 0, lon: feed.stops[s[2]].lon! + 0.0009)  // 100 m from B
        feed.trip([(s[0], "08:00"), (s[1], "08:10")])
        feed.trip([(s[1], "08:20"), (s[3], "09:30")])  // 1 transfer: 09:30
        feed.trip([(s[1], "08:15"), (s[2], "08:25")])
        feed.trip([(b2, "08:30"), (s[3], "09:00")])  // 2 transfers, walking B → B': 09:00
        feed.trip([(s[2], "08:40"), (s[3], "09:10")])  // 2 transfers without the walk: later
        var q = query(s[0], s[3], "07:00", radius: 400)
        let expected = [1: TinyFeed.at("09:30"), 2: TinyFeed.at("09:00")]
        #expect(try feed.arrivals(q) == expected)
        for budget in [0, 5, 40, PlannerWorkspace.defaultTripsLeftBudget] {
            let plan = try JourneyPlanner.plan(
                q, on: feed.timetable, workspace: PlannerWorkspace(tripsLeftBudget: budget))
            #expect(Dictionary(uniqueKeysWithValues: plan.journeys.map { ($0.transfers, $0.arrival) }) == expected)
        }
        // Without the walk only the later ride with 2 transfers is left.
        q.walkRadius = 0
        #expect(try feed.arrivals(q) == [1: TinyFeed.at("09:30"), 2: TinyFeed.at("09:10")])
    }

    /// A trip's times that decrease (GTFS forbids it; feeds still do it) are raised to the time before them: a later
    /// stop is never reached earlier. The search relies on it (a route scan stops once its trip arrives too late, and
    /// the landmarks' rides are lower bounds only then), so the answer is the same with and without the pruning.
    @Test func timesThatDecreaseAlongATripAreRaised() throws {
        var feed = TinyFeed()
        let s = feed.line(5, spacing: 0.05)  // origin, A, X, Y, destination: far apart
        feed.trip([(s[0], "08:00"), (s[1], "08:05")])
        feed.trip([(s[0], "08:00"), (s[4], "09:00")])
        feed.trip([(s[1], "08:10"), (s[2], "09:30"), (s[3], "08:20")])  // Y "before" X
        feed.trip([(s[3], "08:30"), (s[4], "08:50")])
        #expect(try feed.arrivals(query(s[0], s[3], "07:00")) == [1: TinyFeed.at("09:30")])
        for workspace in [
            PlannerWorkspace(), PlannerWorkspace(tripsLeftBudget: -1, landmarkBounds: false),
        ] {
            let plan = try JourneyPlanner.plan(query(s[0], s[4], "07:00"), on: feed.timetable, workspace: workspace)
            #expect(plan.journeys.map { [$0.transfers: $0.arrival] } == [[0: TinyFeed.at("09:00")]])
        }
        // Live times alike.
        var live = LiveTrips()
        let date = feed.days[0].date
        let day = TinyFeed.day0
        live.runs[RunKey(trip: 2, date: date)] = .times([
            LiveStopTime(arrival: day + 29_400, departure: day + 29_400),  // 08:10
            LiveStopTime(arrival: day + 33_000, departure: day + 33_000),  // 09:10
            LiveStopTime(arrival: day + 30_000, departure: day + 30_000),  // 08:20
        ])
        #expect(try feed.arrivals(query(s[0], s[3], "07:00"), live: live) == [1: TinyFeed.at("09:10")])
        // And an added trip's: A 08:12, X 09:00, Y "08:25".
        live.added["extra"] = AddedTrip(
            mode: .bus, stops: [s[1], s[2], s[3]], arrivals: [day + 29_520, day + 32_400, day + 30_300],
            departures: [day + 29_520, day + 32_400, day + 30_300])
        #expect(try feed.arrivals(query(s[0], s[3], "07:00"), live: live) == [1: TinyFeed.at("09:00")])
    }

    @Test func transfersTxtTypesBetweenStops() throws {
        var feed = TinyFeed()
        let p = feed.stop(lat: 0, lon: 0)
        let q0 = feed.stop(lat: 0, lon: 0.009)  // about 1 km east
        let a = feed.stop(lat: 0, lon: -0.2)
        let b = feed.stop(lat: 0, lon: 0.2)
        feed.trip([(a, "08:00"), (p, "08:10")])
        feed.trip([(q0, "08:20"), (b, "08:40")])
        feed.trip([(q0, "09:20"), (b, "09:40")])
        var q = query(a, b, "07:00", radius: 400)
        #expect(try feed.arrivals(q) == [:], "1 km is beyond the radius")
        let metres = Walking.distance(lat1: 0, lon1: 0, lat2: 0, lon2: 0.009)
        let walk = Int64((metres / 1.2).rounded(.up))
        feed.transfers = [.init(from: p, to: q0, type: 0)]
        let expected = TinyFeed.at("08:10") + walk <= TinyFeed.at("08:20") ? "08:40" : "09:40"
        #expect(try feed.arrivals(q) == [1: TinyFeed.at(expected)])
        feed.transfers = [.init(from: p, to: q0, type: 1)]
        #expect(try feed.arrivals(q) == [1: TinyFeed.at(expected)], "type 1 between stops is type 0")
        feed.transfers = [.init(from: p, to: q0, type: 2, minTime: 300)]
        #expect(try feed.arrivals(q) == [1: TinyFeed.at("08:40")])
        feed.transfers = [.init(from: p, to: q0, type: 2, minTime: 900)]
        #expect(try feed.arrivals(q) == [1: TinyFeed.at("09:40")])
        feed.transfers = [.init(from: q0, to: p, type: 2, minTime: 60)]
        #expect(try feed.arrivals(q) == [:], "an entry is for its ordered pair only")
        // Type 3 forbids a walk that the radius would allow.
        q.walkRadius = 2000
        #expect(try feed.arrivals(q) == [1: TinyFeed.at(expected)])
        feed.transfers = [.init(from: p, to: q0, type: 3)]
        #expect(try feed.arrivals(q) == [:])
    }

    @Test func stationLevelEntriesApplyToPlatformsAndStopLevelEntriesWin() throws {
        var feed = TinyFeed()
        let station = feed.stop(lat: 0, lon: 0)
        let p1 = feed.stop(lat: 0, lon: 0, station: station)
        let p2 = feed.stop(lat: 0, lon: 0.0045, station: station)  // 500 m apart, same station
        let a = feed.stop(lat: 0, lon: -0.2)
        let b = feed.stop(lat: 0, lon: 0.2)
        feed.trip([(a, "08:00"), (p1, "08:10")])
        feed.trip([(p2, "08:30"), (b, "08:50")])
        let q = query(a, b, "07:00", radius: 0)
        #expect(try feed.arrivals(q) == [1: TinyFeed.at("08:50")], "platforms of a station are walkable at radius 0")
        feed.transfers = [.init(from: station, to: station, type: 3)]
        #expect(try feed.arrivals(q) == [:], "a station-level type 3 forbids walks between its platforms")
        feed.transfers.append(.init(from: p1, to: p2, type: 2, minTime: 1260))
        #expect(try feed.arrivals(q) == [:], "the stop-level entry wins, but 21 min is too long")
        feed.transfers[1].minTime = 600
        #expect(try feed.arrivals(q) == [1: TinyFeed.at("08:50")])
        // A station as from/to means any of its platforms.
        let toStation = PlanQuery(from: .stops([a]), to: .stops([station]), time: .departAt(TinyFeed.at("07:00")))
        #expect(try feed.arrivals(toStation) == [0: TinyFeed.at("08:10")])
    }

    @Test func footpathsAreWithinTheRadiusInclusiveAndNeverTwoInARow() throws {
        var feed = TinyFeed()
        let a = feed.stop(lat: 0, lon: -0.2)
        let p = feed.stop(lat: 0, lon: 0)
        let m = feed.stop(lat: 0, lon: 0.0027)  // ≈ 300 m
        let r = feed.stop(lat: 0, lon: 0.0054)  // ≈ 600 m from p, 300 m from m
        let b = feed.stop(lat: 0, lon: 0.2)
        feed.trip([(a, "08:00"), (p, "08:10")])
        feed.trip([(r, "08:30"), (b, "08:50")])
        let z = feed.stop(lat: 0.2, lon: 0)
        feed.trip([(m, "06:00"), (z, "06:10")])  // serves m (walks link served stops), too early to matter
        let d = Walking.distance(lat1: 0, lon1: 0, lat2: 0, lon2: 0.0054)
        var q = query(a, b, "07:00", radius: d)
        let result = try JourneyPlanner.plan(q, on: feed.timetable)
        #expect(result.journeys.map(\.arrival) == [TinyFeed.at("08:50")])
        let walk = result.journeys.first?.legs.compactMap { leg -> WalkLeg? in
            if case .walk(let w) = leg { w } else { nil }
        }.first
        #expect(walk?.duration == Int((d / 1.2).rounded(.up)))
        #expect(walk?.from == p && walk?.to == r)
        q.walkRadius = d.nextDown
        #expect(try feed.arrivals(q) == [:], "p→m→r would be two walks")
        // The destination by one final walk.
        q = query(a, r, "07:00", radius: 400)
        #expect(try feed.arrivals(q) == [:], "r is 600 m from p")
        q = query(a, m, "07:00", radius: 400)
        let toM =
            TinyFeed.at("08:10") + Int64((Walking.distance(lat1: 0, lon1: 0, lat2: 0, lon2: 0.0027) / 1.2).rounded(.up))
        #expect(try feed.arrivals(q) == [0: toM])
    }

    @Test func aFartherWalkThatIsQuickerStillCounts() throws {
        // The search stops reading a stop's walks at the first that arrives too late (at the best arrival so far);
        // a transfers.txt time makes the nearest walk from p the slowest, so that one must not end the reading
        // before the quick walk to q, whose trip reaches the destination first.
        var feed = TinyFeed()
        let o = feed.stop(lat: 0, lon: -0.2)
        let x = feed.stop(lat: 0, lon: -0.1)
        let p = feed.stop(lat: 0, lon: 0)
        let near = feed.stop(lat: 0, lon: 0.00045)  // ≈ 50 m, but 10 min by transfers.txt
        let q = feed.stop(lat: 0, lon: 0.0027)  // ≈ 300 m: 251 s
        let d = feed.stop(lat: 0, lon: 0.2)
        let z = feed.stop(lat: 0.2, lon: 0)
        feed.trip([(near, "06:00"), (z, "06:10")])  // serves `near` (walks link served stops)
        feed.trip([(o, "08:00"), (d, "08:19")])  // no transfer
        feed.trip([(o, "08:00"), (x, "08:03")])
        feed.trip([(x, "08:05"), (p, "08:10")])  // then the walk to q, before 08:15
        feed.trip([(q, "08:15"), (d, "08:18")])  // two transfers, first
        feed.transfers = [.init(from: p, to: near, type: 2, minTime: 600)]
        let walk = Int64((Walking.distance(lat1: 0, lon1: 0, lat2: 0, lon2: 0.0027) / 1.2).rounded(.up))
        #expect(TinyFeed.at("08:10") + walk <= TinyFeed.at("08:15"))
        #expect(
            try feed.arrivals(query(o, d, "07:00", radius: 400)) == [0: TinyFeed.at("08:19"), 2: TinyFeed.at("08:18")])
    }

    @Test func coordinatesWalkToAndFromStopsWithinTheAccessRadius() throws {
        var feed = TinyFeed()
        let a = feed.stop(lat: 0, lon: 0)
        let b = feed.stop(lat: 0, lon: 0.2)
        feed.trip([(a, "08:00"), (b, "08:30")])
        var q = PlanQuery(
            from: .coordinate(lat: 0, lon: -0.0045), to: .coordinate(lat: 0, lon: 0.2036),
            time: .departAt(TinyFeed.at("07:00")))
        let access = Walking.seconds(metres: Walking.distance(lat1: 0, lon1: -0.0045, lat2: 0, lon2: 0), speed: 1.2)
        let egress = Walking.seconds(metres: Walking.distance(lat1: 0, lon1: 0.2, lat2: 0, lon2: 0.2036), speed: 1.2)
        let result = try JourneyPlanner.plan(q, on: feed.timetable)
        #expect(result.journeys.count == 1)
        #expect(result.journeys.first?.departure == TinyFeed.at("08:00") - Int64(access))
        #expect(result.journeys.first?.arrival == TinyFeed.at("08:30") + Int64(egress))
        #expect(result.journeys.first?.walkSeconds == access + egress)
        q.accessRadius = 450
        #expect(try JourneyPlanner.plan(q, on: feed.timetable).journeys.isEmpty, "the origin is 500 m away")
    }

    @Test func frequencyTripsAreExpandedIntoRuns() throws {
        var feed = TinyFeed()
        let s = feed.line(2, spacing: 0.05)
        feed.trip(
            [(s[0], "07:00"), (s[1], "07:10")],
            frequencies: [
                FrequencyPeriod(start: TinyFeed.secs("08:00"), end: TinyFeed.secs("09:00"), headway: 900, isExact: true)
            ])
        let result = try JourneyPlanner.plan(query(s[0], s[1], "08:20"), on: feed.timetable)
        #expect(result.journeys.map(\.arrival) == [TinyFeed.at("08:40")])
        guard case .transit(let leg) = result.journeys.first?.legs.first else {
            Issue.record("no transit leg")
            return
        }
        #expect(feed.timetable.runIdentity(leg.run).key?.start == Int32(TinyFeed.secs("08:30")))
        #expect(try feed.arrivals(query(s[0], s[1], "08:50")) == [0: TinyFeed.at("08:10", day: 1)], "09:00 is the end")
    }

    @Test func tripsOfThePreviousServiceDayStillRunningCount() throws {
        var feed = TinyFeed()
        let s = feed.line(2, spacing: 0.05)
        feed.trip([(s[0], "25:30"), (s[1], "25:40")])
        // 01:00 on day 1 is 25:00 of day 0.
        #expect(try feed.arrivals(query(s[0], s[1], "01:00", day: 1)) == [0: TinyFeed.at("25:40")])
    }

    /// Sydney's service days `date` and the day before, two stops, trips 01:30–01:50 and 08:00–08:20.
    static func dstFeed(_ date: GTFSDate) throws -> (TinyFeed, [Int], ServiceTimeZone) {
        let zone = try ServiceTimeZone(identifier: "Australia/Sydney")
        var feed = TinyFeed()
        feed.days = (-1...0).map { d in
            var services = ServiceSet(capacity: 1)
            services.insert(0)
            return .init(
                date: date.adding(days: d), referenceUnix: zone.referenceUnix(of: date.adding(days: d)),
                services: services)
        }
        let s = feed.line(2, spacing: 0.05)
        feed.trip([(s[0], "01:30"), (s[1], "01:50")])
        feed.trip([(s[0], "08:00"), (s[1], "08:20")])
        return (feed, s, zone)
    }

    @Test func aDSTChangeDayPlacesTimesFromNoonMinusTwelveHours() throws {
        let date = GTFSDate(yyyymmdd: 20_251_005)!  // 02:00 AEST → 03:00 AEDT
        let (feed, s, zone) = try Self.dstFeed(date)
        let early = zone.unix(of: date, secs: TinyFeed.secs("01:30"))
        #expect(early == 1_759_588_200)  // 14:30 UTC = 00:30 AEST (the rule: one hour early on the wall clock)
        var q = PlanQuery(from: .stops([s[0]]), to: .stops([s[1]]), time: .departAt(early - 60))
        #expect(try feed.arrivals(q) == [0: zone.unix(of: date, secs: TinyFeed.secs("01:50"))])
        q.time = .departAt(early + 60)
        let eight = zone.unix(of: date, secs: TinyFeed.secs("08:20"))
        #expect(try feed.arrivals(q) == [0: eight])
        #expect(zone.localSecondsOfDay(atUnix: eight) == TinyFeed.secs("08:20"), "08:20 AEDT on the wall clock")
    }

    @Test func aDSTEndDayPlacesTimesFromNoonMinusTwelveHours() throws {
        // The 25-hour day: noon minus 12 h is 01:00 AEDT, so a time before 03:00 AEDT falls back to 02:00 AEST
        // is an hour later on the wall clock, and one after it is as written.
        let date = GTFSDate(yyyymmdd: 20_260_405)!  // 03:00 AEDT → 02:00 AEST
        let (feed, s, zone) = try Self.dstFeed(date)
        let early = zone.unix(of: date, secs: TinyFeed.secs("01:30"))
        #expect(early == 1_775_316_600)  // 15:30 UTC = 02:30 AEDT, before the change
        #expect(zone.referenceUnix(of: date) == 1_775_311_200, "noon AEST minus 12 h: 14:00 UTC, 01:00 AEDT")
        var q = PlanQuery(from: .stops([s[0]]), to: .stops([s[1]]), time: .departAt(early - 60))
        #expect(try feed.arrivals(q) == [0: early + 20 * 60])
        q.time = .departAt(early + 60)
        let eight = zone.unix(of: date, secs: TinyFeed.secs("08:20"))
        #expect(try feed.arrivals(q) == [0: eight])
        #expect(zone.localSecondsOfDay(atUnix: eight) == TinyFeed.secs("08:20"), "08:20 AEST on the wall clock")
        // Arriving by 08:20 AEST: this date's 08:00, searched backwards over the 25-hour day.
        q.time = .arriveBy(eight)
        let plan = try JourneyPlanner.plan(q, on: feed.timetable)
        #expect(plan.journeys.map(\.departure) == [zone.unix(of: date, secs: TinyFeed.secs("08:00"))])
    }

    @Test func cancelledTripsAreNotUsed() throws {
        var feed = TinyFeed()
        let s = feed.line(2, spacing: 0.05)
        feed.trip([(s[0], "08:00"), (s[1], "08:10")])
        feed.trip([(s[0], "08:30"), (s[1], "08:40")])
        let q = query(s[0], s[1], "07:00")
        let live = LiveTrips(runs: [RunKey(trip: 0, date: feed.days[0].date): .cancelled])
        #expect(try feed.arrivals(q, live: live) == [0: TinyFeed.at("08:40")])
        // Back to the schedule when the cancellation is withdrawn.
        let (cancelled, _) = feed.timetable.applying(live)
        let restored = cancelled.applying(LiveTrips()).timetable
        #expect(try JourneyPlanner.plan(q, on: restored).journeys.map(\.arrival) == [TinyFeed.at("08:10")])
    }

    @Test func skippedStopsAreNotUsed() throws {
        var feed = TinyFeed()
        let s = feed.line(3, spacing: 0.05)
        feed.trip([(s[0], "08:00"), (s[1], "08:10"), (s[2], "08:20")])
        feed.trip([(s[0], "09:00"), (s[1], "09:10"), (s[2], "09:20")])
        let times = [("08:00", false), ("08:10", true), ("08:20", false)].map { t, skipped in
            LiveStopTime(arrival: TinyFeed.at(t), departure: TinyFeed.at(t), skipped: skipped)
        }
        let live = LiveTrips(runs: [RunKey(trip: 0, date: feed.days[0].date): .times(times)])
        #expect(try feed.arrivals(query(s[0], s[1], "07:00"), live: live) == [0: TinyFeed.at("09:10")])
        #expect(try feed.arrivals(query(s[0], s[2], "07:00"), live: live) == [0: TinyFeed.at("08:20")])
    }

    @Test func aDelayThatBreaksATransferIsNotOffered() throws {
        var feed = TinyFeed()
        let s = feed.line(3, spacing: 0.05)
        feed.trip([(s[0], "08:00"), (s[1], "08:10")])
        feed.trip([(s[1], "08:15"), (s[2], "08:30")])
        feed.trip([(s[1], "08:45"), (s[2], "09:00")])
        let q = query(s[0], s[2], "07:00")
        #expect(try feed.arrivals(q) == [1: TinyFeed.at("08:30")])
        let delayed = [("08:00", "08:00"), ("08:20", "08:20")].map { a, d in
            LiveStopTime(arrival: TinyFeed.at(a), departure: TinyFeed.at(d))
        }
        let live = LiveTrips(runs: [RunKey(trip: 0, date: feed.days[0].date): .times(delayed)])
        let timetable = feed.timetable.applying(live).timetable
        let result = try JourneyPlanner.plan(q, on: timetable)
        #expect(result.journeys.map(\.arrival) == [TinyFeed.at("09:00")])
        let liveFlags = result.journeys.first?.legs.compactMap { leg -> Bool? in
            if case .transit(let t) = leg { t.isLive } else { nil }
        }
        #expect(liveFlags == [true, false])
    }

    @Test func addedTripsAreUsable() throws {
        var feed = TinyFeed()
        let s = feed.line(2, spacing: 0.05)
        feed.trip([(s[0], "08:30"), (s[1], "08:40")])
        let added = AddedTrip(
            mode: .bus, stops: [s[0], s[1]], arrivals: [TinyFeed.at("08:05"), TinyFeed.at("08:15")],
            departures: [TinyFeed.at("08:05"), TinyFeed.at("08:15")])
        let live = LiveTrips(added: ["extra": added])
        let timetable = feed.timetable.applying(live).timetable
        let result = try JourneyPlanner.plan(query(s[0], s[1], "08:00"), on: timetable)
        #expect(result.journeys.map(\.arrival) == [TinyFeed.at("08:15")])
        if case .transit(let leg) = result.journeys.first?.legs.first {
            #expect(timetable.runIdentity(leg.run).addedId == "extra")
            #expect(leg.isLive)
        }
        let removed = timetable.applying(LiveTrips()).timetable
        #expect(
            try JourneyPlanner.plan(query(s[0], s[1], "08:00"), on: removed).journeys.map(\.arrival) == [
                TinyFeed.at("08:40")
            ])
    }

    @Test func overtakingTripsAreSplitIntoRoutesAndStayExact() throws {
        var feed = TinyFeed()
        let s = feed.line(3, spacing: 0.05)
        feed.trip([(s[0], "08:00"), (s[1], "08:10"), (s[2], "08:20")])
        feed.trip([(s[0], "08:05"), (s[1], "08:15"), (s[2], "08:25")])
        let scheduled = feed.timetable
        #expect(scheduled.routeCount == 1)
        // The first trip is held at s1 for 30 minutes: the second overtakes it.
        let held = [("08:00", "08:00"), ("08:10", "08:40"), ("08:50", "08:50")].map { a, d in
            LiveStopTime(arrival: TinyFeed.at(a), departure: TinyFeed.at(d))
        }
        let (timetable, problems) = scheduled.applying(
            LiveTrips(runs: [RunKey(trip: 0, date: feed.days[0].date): .times(held)]))
        #expect(problems.isEmpty)
        #expect(timetable.routeCount == 2)
        #expect(
            try JourneyPlanner.plan(query(s[0], s[2], "07:55"), on: timetable).journeys.map(\.arrival) == [
                TinyFeed.at("08:25")
            ])
        // Overtaking in the schedule itself (a faster trip of the same pattern) is split at build time.
        feed.trip([(s[0], "08:06"), (s[1], "08:08"), (s[2], "08:12")])
        #expect(feed.timetable.routeCount == 2)
        #expect(try feed.arrivals(query(s[0], s[2], "07:55")) == [0: TinyFeed.at("08:12")])
    }

    @Test func arriveByIsAnsweredByTheLatestDepartures() throws {
        var feed = TinyFeed()
        let s = feed.line(3, spacing: 0.05)
        feed.trip([(s[0], "07:00"), (s[2], "08:10")])
        feed.trip([(s[0], "07:40"), (s[1], "07:50")])
        feed.trip([(s[1], "07:55"), (s[2], "08:20")])
        var q = PlanQuery(from: .stops([s[0]]), to: .stops([s[2]]), time: .arriveBy(TinyFeed.at("08:30")))
        let result = try JourneyPlanner.plan(q, on: feed.timetable)
        #expect(
            result.journeys.map { [$0.transfers, Int($0.departure - TinyFeed.day0)] } == [
                [0, TinyFeed.secs("07:00")], [1, TinyFeed.secs("07:40")],
            ])
        #expect(result.journeys.allSatisfy { $0.arrival <= TinyFeed.at("08:30") })
        q.time = .arriveBy(TinyFeed.at("08:15"))
        #expect(try JourneyPlanner.plan(q, on: feed.timetable).journeys.map(\.transfers) == [0])
    }

    /// A range query's later runs (earlier departures) keep the labels of the earlier runs, of every round. A stop
    /// reached there with more trips earlier must not stop an earlier departure's walk to it with fewer trips: that
    /// walk leads to a journey with fewer transfers (`Labels.readySoFar` serves only a query's first run).
    @Test func anEarlierDepartureWalksWhereALaterOneArrivedSoonerWithMoreTrips() throws {
        var feed = TinyFeed()
        let s = feed.line(6, spacing: 0.05)  // origin, P, Q, X, b, destination: far apart
        let (o, p, q, x, b, d) = (s[0], s[1], s[2], s[3], s[4], s[5])
        let b2 = feed.stop(lat: 0, lon: feed.stops[x].lon! + 0.0009)  // 100 m from X
        feed.trip([(o, "08:00"), (x, "09:30")])  // slow; then a walk X → B'
        feed.trip([(o, "09:00"), (p, "09:05")])
        feed.trip([(p, "09:07"), (q, "09:10")])
        feed.trip([(q, "09:12"), (b, "09:15")])
        feed.trip([(b, "09:20"), (b2, "09:25")])  // B' with 4 trips at 09:25
        feed.trip([(b2, "09:40"), (d, "10:00")])
        var query = query(o, d, "08:00", radius: 400)
        query.window = 2 * 3600
        query.limit = 10
        let plan = try JourneyPlanner.plan(query, on: feed.timetable)
        #expect(
            plan.journeys.map { [$0.departure, $0.arrival, Int64($0.transfers)] } == [
                [TinyFeed.at("08:00"), TinyFeed.at("10:00"), 1], [TinyFeed.at("09:00"), TinyFeed.at("10:00"), 4],
            ])
    }

    @Test func aRangeQueryListsParetoJourneysByDepartureWithACursor() throws {
        var feed = TinyFeed()
        let s = feed.line(2, spacing: 0.05)
        for h in 8...11 { feed.trip([(s[0], "\(h):00"), (s[1], "\(h):30")]) }
        feed.trip([(s[0], "08:10"), (s[1], "09:40")])  // slower and later than the 09:00: dominated
        var q = query(s[0], s[1], "08:00")
        q.window = 3 * 3600
        q.limit = 2
        let first = try JourneyPlanner.plan(q, on: feed.timetable)
        #expect(first.journeys.map(\.departure) == [TinyFeed.at("08:00"), TinyFeed.at("09:00")])
        #expect(first.laterAt == TinyFeed.at("10:00"))
        q.time = .departAt(TinyFeed.at("10:00"))
        q.window = 3600
        let second = try JourneyPlanner.plan(q, on: feed.timetable)
        #expect(second.journeys.map(\.departure) == [TinyFeed.at("10:00"), TinyFeed.at("11:00")])
        #expect(second.laterAt == nil)
    }

    @Test func theBudgetCutsTheSearchAndSaysSo() throws {
        var feed = TinyFeed()
        let s = feed.line(3, spacing: 0.05)
        feed.trip([(s[0], "08:00"), (s[1], "08:10")])
        feed.trip([(s[1], "08:20"), (s[2], "08:30")])
        var q = query(s[0], s[2], "07:00")
        q.budget = .zero
        let result = try JourneyPlanner.plan(q, on: feed.timetable)
        #expect(result.cut)
        #expect(result.journeys.isEmpty, "cut after the first round: no journey needs only one trip")
        q.budget = .seconds(10)
        #expect(try JourneyPlanner.plan(q, on: feed.timetable).cut == false)
    }

    @Test func journeysArriveWithin24HoursOfAt() throws {
        var feed = TinyFeed()
        let s = feed.line(2, spacing: 0.05)
        feed.trip([(s[0], "08:00"), (s[1], "32:30")])  // 24.5 h later than 08:00
        #expect(try feed.arrivals(query(s[0], s[1], "08:00")) == [:])
        #expect(try feed.arrivals(query(s[0], s[1], "07:59")) == [:])
        feed.trips[0].stopTimes[1].arrival = TinyFeed.secs("31:00")
        #expect(try feed.arrivals(query(s[0], s[1], "07:00")) == [0: TinyFeed.at("31:00")])
    }

    @Test func aRangeWithNothingInItsWindowSaysSoAndFindsTheEarliestJourneyAfterIt() throws {
        var feed = TinyFeed()
        let s = feed.line(3, spacing: 0.05)
        feed.trip([(s[0], "09:10"), (s[1], "10:00")])
        feed.trip([(s[0], "09:30"), (s[2], "09:40")])
        feed.trip([(s[2], "09:45"), (s[1], "09:50")])  // one change, earlier
        var q = query(s[0], s[1], "07:00")
        q.window = 3600
        let none = try JourneyPlanner.plan(q, on: feed.timetable)
        #expect(none.journeys.isEmpty)
        #expect(none.reason == PlanResult.noneInWindow(3600))
        #expect(
            none.earliestAfterWindow.map { [$0.departure, $0.arrival] } == [TinyFeed.at("09:30"), TinyFeed.at("09:50")])
        // Nothing at all: as without a window.
        q.from = .stops([s[1]])
        q.to = .stops([s[0]])
        let nothing = try JourneyPlanner.plan(q, on: feed.timetable)
        #expect(nothing.reason == PlanResult.noConnection && nothing.earliestAfterWindow == nil)
        // A window that holds a departure answers it.
        q.from = .stops([s[0]])
        q.to = .stops([s[1]])
        q.window = 3 * 3600
        let found = try JourneyPlanner.plan(q, on: feed.timetable)
        #expect(found.reason == nil && found.earliestAfterWindow == nil && !found.journeys.isEmpty)
    }

    @Test func anEmptyAnswerSaysWhy() throws {
        var feed = TinyFeed()
        let s = feed.line(2, spacing: 0.05)
        feed.trip([(s[0], "08:00"), (s[1], "08:10")])
        let none = try JourneyPlanner.plan(query(s[1], s[0], "07:00"), on: feed.timetable)
        #expect(none.journeys.isEmpty && none.reason == PlanResult.noConnection)
        let outside = try JourneyPlanner.plan(query(s[0], s[1], "07:00", day: 5), on: feed.timetable)
        #expect(outside.journeys.isEmpty)
        #expect(outside.reason == "the time is outside the timetable's service dates (20251222 to 20251223)")
        #expect(try JourneyPlanner.plan(query(s[0], s[1], "07:00"), on: feed.timetable).reason == nil)
        // A coordinate in the sea, far from every stop, is refused.
        let sea = PlanQuery(
            from: .coordinate(lat: 0, lon: 1), to: .stops([s[1]]), time: .departAt(TinyFeed.at("07:00")))
        #expect(
            throws: PlanError.invalidArgument(
                "from: (0.0, 1.0) is 105 km outside the area of the feed's stops (at most 5 km)")
        ) {
            try JourneyPlanner.plan(sea, on: feed.timetable)
        }
        // Between the stops, 2.8 km from each: inside the area, but no stop within the access radius.
        var between = PlanQuery(
            from: .stops([s[0]]), to: .coordinate(lat: 0, lon: 0.025), time: .departAt(TinyFeed.at("07:00")))
        between.accessRadius = 2000
        #expect(
            try JourneyPlanner.plan(between, on: feed.timetable).reason
                == "to: no stop within access_radius_m 2000 m of (0.0, 0.025)")
    }

    @Test func outOfRangeOptionsAreErrorsNamingTheRange() throws {
        var feed = TinyFeed()
        let s = feed.line(2)
        feed.trip([(s[0], "08:00"), (s[1], "08:10")])
        var q = query(s[0], s[1], "07:00")
        q.maxTransfers = 9
        #expect(throws: PlanError.invalidArgument("max_transfers must be between 0 and 8, got 9")) {
            try JourneyPlanner.plan(q, on: feed.timetable)
        }
        q = query(s[0], s[0], "07:00")
        #expect(throws: PlanError.invalidArgument("from and to are the same place")) {
            try JourneyPlanner.plan(q, on: feed.timetable)
        }
        q = query(s[0], 99, "07:00")
        #expect(throws: PlanError.notFound("to: no stop 99")) { try JourneyPlanner.plan(q, on: feed.timetable) }
    }

    @Test func aStationAndOneOfItsOwnStopsAreTheSamePlace() throws {
        var feed = TinyFeed()
        let station = feed.stop(lat: 0, lon: 0)
        let p1 = feed.stop(lat: 0, lon: 0, station: station)
        let p2 = feed.stop(lat: 0, lon: 0.001, station: station)
        let b = feed.stop(lat: 0, lon: 0.1)
        feed.trip([(p1, "08:00"), (b, "08:10"), (p2, "08:30")])
        let same = PlanError.invalidArgument(
            "from and to are the same place: one is a station and the other one of its stops")
        for (from, to) in [(station, p1), (p2, station)] {
            #expect(throws: same, "\(from) → \(to)") {
                try JourneyPlanner.plan(query(from, to, "07:00"), on: feed.timetable)
            }
        }
        // Two stops of one station are two places: from one to the other by the trip.
        #expect(try feed.arrivals(query(p1, p2, "07:00")) == [0: TinyFeed.at("08:30")])
        #expect(try feed.arrivals(query(station, b, "07:00")) == [0: TinyFeed.at("08:10")])
    }
}
