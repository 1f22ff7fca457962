// Trip updates without trip_id (route_id, direction_id, start_date, start_time): the engine asks the static
// service which trips they name, once per descriptor and database version, and resolves single matches.
import GTFSRealtime
import Testing
import TransitModel

@testable import RealtimeService

@Suite struct TripStartEngineTests {
    typealias F = StateFixture

    static func update(route: String = "R1", direction: UInt32? = 0, start: String, delay: Int32 = 60) -> TripUpdate {
        TripUpdate(
            trip: TripDescriptor(routeId: route, directionId: direction, startTime: start, startDate: F.dayText),
            stopTimeUpdates: [StopTimeUpdate(stopSequence: 1, departure: StopTimeEvent(delay: delay))])
    }

    static func descriptor(_ start: String, route: String = "R1") -> TripStartDescriptor {
        TripStartDescriptor(routeId: route, directionId: 0, startDate: F.day, startTime: start)
    }

    /// A static service where 08:10 on R1 is T2, 08:05 is nothing and 08:20 is T3 and T4 (ambiguous).
    static func schedules() -> FakeSchedules {
        let s = FakeSchedules()
        s.data.withLock {
            $0.matches = [descriptor("08:10:00"): ["T2"], descriptor("08:20:00"): ["T3", "T4"]]
        }
        return s
    }

    static let mixedFeed = [
        F.entity("named", F.tripUpdate("T1")),
        F.entity("one", update(start: "08:10:00", delay: 90)),
        F.entity("none", update(start: "08:05:00")),
        F.entity("several", update(start: "08:20:00")),
        F.entity("incomplete", update(direction: nil, start: "08:10:00")),
    ]

    @Test func matchesResolveOneAndDropNoneOrSeveral() async throws {
        let h = try EngineHarness(schedules: Self.schedules())
        await h.feed(F.feed(Self.mixedFeed))

        let trips = try #require(h.hub.snapshot(.tripUpdates).map(snapshotTrips))
        #expect(
            trips.map(\.instance) == [
                TripInstanceKey(tripId: "T1", serviceDate: F.day),
                TripInstanceKey(tripId: "T2", serviceDate: F.day),
            ])
        #expect(trips[1].entityId == "one")
        #expect(trips[1].stops.first?.departureDelay == 90)

        let status = await h.status()
        #expect(status.drops["unknown_trip"] == 2)  // no match, and the descriptor without direction_id
        #expect(status.drops["ambiguous_instance"] == 1)
        #expect(status.drops["schedule_unavailable"] == nil)

        // One request: the trip id and the three complete descriptors (the incomplete one is never asked).
        let requests = h.schedules.data.withLock { $0.descriptorRequests }
        #expect(requests == [[Self.descriptor("08:10:00"), Self.descriptor("08:05:00"), Self.descriptor("08:20:00")]])
        #expect(h.schedules.requests == [["T1"]])
    }

    @Test func dropMessagesNameTheDescriptor() async throws {
        let h = try EngineHarness(schedules: Self.schedules())
        await h.feed(F.feed([F.entity("several", Self.update(start: "08:20:00"))]))
        let several = await h.status().lastDrop ?? ""
        #expect(several.hasPrefix("ambiguous_instance") && several.contains("\"T3\"") && several.contains("08:20:00"))

        h.clock.advance(10)
        await h.feed(F.feed([F.entity("none", Self.update(start: "08:05:00"))], timestamp: UInt64(h.clock.now)))
        let none = await h.status().lastDrop ?? ""
        #expect(
            none.hasPrefix("unknown_trip") && none.contains("route_id \"R1\"") && none.contains("direction_id 0")
                && none.contains("08:05:00") && none.contains("20250314"))

        h.clock.advance(10)
        await h.feed(
            F.feed(
                [F.entity("incomplete", Self.update(direction: nil, start: "08:10:00"))], timestamp: UInt64(h.clock.now)
            ))
        #expect(await h.status().lastDrop?.contains("no direction_id") == true)
    }

    @Test func answersAreCachedPerDescriptor() async throws {
        let h = try EngineHarness(schedules: Self.schedules())
        await h.feed(F.feed(Self.mixedFeed))
        h.clock.advance(30)
        await h.feed(
            F.feed(Self.mixedFeed + [F.entity("new", Self.update(start: "08:30:00"))], timestamp: UInt64(h.clock.now)))
        // Only the new descriptor is asked the second time; T2's schedule is cached.
        let requests = h.schedules.data.withLock { $0.descriptorRequests }
        #expect(requests.count == 2)
        #expect(requests.last == [Self.descriptor("08:30:00")])
        #expect(h.schedules.requests.last == [])
        #expect(await h.status().drops["unknown_trip"] == 5)  // 2, then 2 again and 08:30
    }

    @Test func feedsWithTripIdsAskNoDescriptors() async throws {
        let h = try EngineHarness(schedules: Self.schedules())
        await h.feed(F.feed([F.entity("a", F.tripUpdate("T1")), F.entity("b", F.tripUpdate("T2"))]))
        #expect(h.schedules.data.withLock { $0.descriptorRequests } == [[]])
    }

    @Test func staticServiceDownIsScheduleUnavailable() async throws {
        let s = Self.schedules()
        s.data.withLock { $0.failing = true }
        let h = try EngineHarness(schedules: s)
        await h.feed(F.feed([F.entity("one", Self.update(start: "08:10:00"))]))
        let status = await h.status()
        #expect(status.drops["schedule_unavailable"] == 1)
        #expect(status.lastDrop?.contains("no answer yet from the static service") == true)

        // Back up: the next update is resolved.
        s.data.withLock { $0.failing = false }
        h.clock.advance(30)
        await h.feed(F.feed([F.entity("one", Self.update(start: "08:10:00"))], timestamp: UInt64(h.clock.now)))
        #expect(h.hub.snapshot(.tripUpdates).map(snapshotTrips)?.map(\.instance.tripId) == ["T2"])
    }

    @Test func routeIdsGetTheSourcePrefix() async throws {
        let s = FakeSchedules()
        s.data.withLock { d in
            // The static side holds the prefixed ids.
            var t2 = d.trips["T2"]!
            t2.tripId = "B:T2"
            t2.routeId = "B:R1"
            d.trips["B:T2"] = t2
            d.matches = [Self.descriptor("08:10:00", route: "B:R1"): ["B:T2"]]
        }
        let h = try EngineHarness(sources: [SourceSettings(name: "tu", idPrefix: "B:", timeZone: "UTC")], schedules: s)
        await h.feed(F.feed([F.entity("one", Self.update(start: "08:10:00"))]))
        #expect(h.hub.snapshot(.tripUpdates).map(snapshotTrips)?.map(\.instance.tripId) == ["B:T2"])
    }
}
