// The fixtures command's feeds, made from the sample database and resolved by the service itself.
import DelayStore
import Foundation
import GTFSRealtime
import Testing
import TransitCore
import TransitModel
import TransitTesting

@testable import RealtimeFixtures
@testable import RealtimeService

@Suite struct FixtureTests {
    let at = SampleTimes.mondayMorning

    private func schedule() throws -> FixtureSchedule {
        try FixtureSchedule.read(databasePath: SampleDatabase.path(), at: at)
    }

    @Test func picksTripsRunningAroundTheMoment() throws {
        let s = try schedule()
        #expect(s.instances.count >= 10)
        #expect(s.timeZone == "Australia/Sydney")
        for i in s.instances {
            #expect(i.first <= at + FixtureSchedule.startsWithin, "\(i.trip.tripId)")
            #expect(i.last >= at, "\(i.trip.tripId)")
            #expect(i.serviceDate == 20251222)
        }
        // Frequency-based instances carry their start.
        #expect(s.instances.contains { $0.frequencyStart != nil })
    }

    @Test func deterministic() throws {
        let a = try FixtureGenerator(schedule: schedule()).feeds()
        let b = try FixtureGenerator(schedule: schedule()).feeds()
        #expect(GTFSRealtimeCodec.encode(a.tripUpdates) == GTFSRealtimeCodec.encode(b.tripUpdates))
        #expect(GTFSRealtimeCodec.encode(a.vehiclePositions) == GTFSRealtimeCodec.encode(b.vehiclePositions))
        #expect(GTFSRealtimeCodec.encode(a.alerts) == GTFSRealtimeCodec.encode(b.alerts))
        #expect(a.tripUpdates.header.timestamp == UInt64(at))
    }

    @Test func everyCaseResolvesThroughTheService() async throws {
        let feeds = try FixtureGenerator(schedule: schedule()).feeds()
        let sink = RecordingSink()
        let hub = RealtimeHub(sink: sink)
        let now = at
        let engine = try RealtimeEngine(
            sources: ["tu", "vp", "al"].map { SourceSettings(name: $0, timeZone: SampleDatabase.timeZone) }, hub: hub,
            schedules: StoreSchedules(store: SampleDatabase.store), timeZone: SampleDatabase.timeZone,
            logger: quietLogger, clock: { now })
        await engine.handle(.fetched(source: "tu", bytes: GTFSRealtimeCodec.encode(feeds.tripUpdates), at: now))
        await engine.handle(.fetched(source: "vp", bytes: GTFSRealtimeCodec.encode(feeds.vehiclePositions), at: now))
        await engine.handle(.fetched(source: "al", bytes: GTFSRealtimeCodec.encode(feeds.alerts), at: now))
        let statuses = await engine.statuses()
        // Nothing the fixtures write is dropped.
        for status in statuses {
            #expect(status.drops.isEmpty, "\(status.name): \(status.drops) \(status.lastDrop ?? "")")
        }
        #expect(statuses.allSatisfy { !$0.stale && $0.errors == 0 })

        let trips = Dictionary(
            uniqueKeysWithValues: snapshotTrips(try #require(hub.snapshot(.tripUpdates))).map {
                ($0.instance.tripId, $0)
            })
        // Every trip update, and the trip whose vehicle has no trip update (estimated from its position).
        #expect(trips.count == feeds.tripUpdates.entities.count + 1)
        func trip(_ role: String) throws -> LiveTrip {
            let id = try #require(feeds.cases.first { $0.name == role }?.tripId, "no \(role) case")
            return try #require(trips[id], "\(role) trip \(id) not resolved")
        }
        #expect(try trip("late").stops.contains { $0.departureDelay == 300 })
        #expect(try trip("early").stops.contains { $0.departureDelay == -120 })
        let changing = Set(try trip("changing_delays").stops.compactMap(\.departureDelay))
        #expect(changing.isSuperset(of: [60, 180, 300]))
        #expect(try trip("cancelled").relationship == .canceled)
        #expect(try trip("skipped_stop").stops.contains { $0.status == .skipped })
        let noData = try trip("no_data")
        #expect(noData.stops.contains { $0.status == .noData }, "\(noData)")
        #expect(try trip("time_only").stops.contains { $0.departureDelay == 240 })
        #expect(try trip("trip_delay").stops.allSatisfy { $0.departureDelay == 150 })
        let byVehicle = try trip("vehicle_only")
        #expect(byVehicle.stops.contains { $0.predictionSource == .vehicle }, "\(byVehicle)")
        #expect(!feeds.tripUpdates.entities.contains { $0.tripUpdate?.trip.tripId == byVehicle.instance.tripId })
        let added = try trip("added")
        #expect(added.relationship == .new)
        #expect(added.tripHeadsign == "Extra service")
        #expect(added.stops.count >= 2 && added.stops.allSatisfy { $0.predictedDeparture != nil })
        #expect(trips.values.contains { $0.stops.contains { $0.departureOccupancy != nil } })

        guard case .vehicles(let vehicles) = try #require(hub.snapshot(.vehicles)).payload else {
            Issue.record("no vp"); return
        }
        #expect(!vehicles.vehicles.isEmpty)
        #expect(vehicles.vehicles.allSatisfy { $0.trip != nil && $0.occupancyStatus != nil && $0.position != nil })

        guard case .alerts(let alerts) = try #require(hub.snapshot(.alerts)).payload else {
            Issue.record("no al"); return
        }
        let entities = alerts.alerts.flatMap(\.informedEntities)
        #expect(entities.contains { $0.stopId != nil })
        #expect(entities.contains { $0.routeId != nil && $0.tripId == nil })
        #expect(entities.contains { $0.routeType != nil })
        #expect(entities.contains { $0.tripId == (try? trip("cancelled").instance.tripId) })
        let station = try #require(alerts.alerts.first { $0.entityId == "alert-station" })
        #expect(station.headerText?.translations.count == 2)
        #expect(SampleDatabase.store.feedInfo().feeds.isEmpty == false)
        let stationStop = try SampleDatabase.store.stop(id: try #require(station.informedEntities.first?.stopId))
        #expect(stationStop.stop.locationType == 1)
    }

    @Test func replayMovesDelaysWithFreshTimestamps() throws {
        let temporary = try TemporaryFolder("rts-replay")
        let folder = temporary.path
        let written = try FixtureWriter.write(schedule(), to: folder, replay: 3)
        #expect(written.map(\.tripUpdates.header.timestamp) == [0, 30, 60].map { UInt64(at + $0) })
        for n in ["0001", "0002", "0003"] {
            for file in ["TripUpdates.pb", "VehiclePositions.pb", "Alerts.pb"] {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(n)/\(file)"))
                #expect(try GTFSRealtimeCodec.decode(Array(bytes)).entities.isEmpty == false, "\(n)/\(file)")
            }
        }
        // The late trip's delay moves from one snapshot to the next.
        let delays = written.map { feeds in
            feeds.tripUpdates.entities[0].tripUpdate?.stopTimeUpdates.first?.departure?.delay
        }
        #expect(Set(delays.compactMap { $0 }).count == 3)
    }

    @Test func historyRecordsTheTripsOnTheDaysBefore() throws {
        let s = try schedule()
        #expect(FixtureHistory.samples(s) == FixtureHistory.samples(s))
        let temporary = try TemporaryFolder("rts-history")
        let path = temporary.path + "/delays.db"
        let kept = try FixtureHistory.write(s, toStore: path)
        #expect(kept > 0)
        #expect(try FixtureHistory.write(s, toStore: path) == kept, "a second write replaces the store")
        // A stop of a running trip at its hour on weekdays: every earlier weekday of the window recorded it
        // (unless it is one of the seldom recorded stops).
        let instance = try #require(
            s.instances.first { $0.frequencyStart == nil && FixtureGenerator.fnv($0.stops[0].stopId) % 5 != 0 })
        let zone = try ServiceTimeZone(identifier: s.timeZone)
        let date = try #require(GTFSDate(yyyymmdd: Int(instance.serviceDate)))
        let hour = TypicalDelay.hour(ofSecs: Int(instance.departure(0) - zone.referenceUnix(of: date)))
        let store = try DelayStore(path: path)
        let slice = DelaySlice(
            routeId: instance.trip.routeId, stopId: instance.stops[0].stopId, hour: hour, dayType: .weekday)
        let window = try store.histogram(slice, today: date)
        #expect(window.histogram.samples >= 10, "\(window.histogram.samples) samples")
    }

    @Test func noTripsRunningIsAClearError() throws {
        let s = try FixtureSchedule.read(databasePath: SampleDatabase.path(), at: 946_684_800)  // 2000-01-01
        #expect(s.instances.isEmpty)
        #expect(throws: FixtureError.self) { try FixtureGenerator(schedule: s).feeds() }
    }
}

@Suite struct FixtureOutsideTheCalendarTests {
    /// A moment long before the sample feed's calendar: no trips, and the error says which dates have them
    /// and suggests a --clock inside them (what Services/launch shows before starting static-only).
    @Test func noTripsSaysWhichDatesWouldHaveThem() throws {
        let at: Int64 = 978_307_200  // 2001-01-01T00:00:00Z
        let schedule = try FixtureSchedule.read(databasePath: SampleDatabase.path(), at: at)
        #expect(schedule.instances.isEmpty)
        let dates = try #require(schedule.serviceDates)
        let error = try #require(throws: FixtureError.self) { try FixtureGenerator(schedule: schedule).feeds() }
        let text = error.description
        #expect(text.hasPrefix("no trip runs around 2001-01-01T00:00:00Z (20010101 in Australia/Sydney)"), "\(text)")
        #expect(text.contains("its services run from \(dates.lowerBound) to \(dates.upperBound)"), "\(text)")
        // The nearest date inside, 08:00 local.
        let first = dates.lowerBound
        let day = String(format: "%04d-%02d-%02d", first.year, first.month, first.day)
        #expect(text.contains("e.g. --clock \(day)T08:00:00+1"), "\(text)")
    }
}
