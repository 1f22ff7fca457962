// Feeds recorded from real producers, kept outside the repository in ../shared/realdata/ (next to the project
// folder). Every test here is skipped, with a message, when that folder is absent (a fresh clone); the
// committed tests with crafted fixtures (LenientDecodingTests, TfnswExtensionTests) cover each quirk.
import Foundation
import Testing
import TransitTesting

@testable import GTFSRealtime

extension RealCaptures {
    static let absent = Comment(rawValue: absentReason)
}

@Suite(.enabled(if: RealCaptures.available, RealCaptures.absent))
struct RealDataTests {
    private func decode(_ bytes: [UInt8], workers: Int) throws -> FeedMessage {
        try bytes.withUnsafeBytes { try GTFSRealtimeCodec.decode($0, workers: workers) }
    }

    @Test func everyCaptureDecodesTheSameOnOneAndTwoThreads() throws {
        let captures = RealCaptures.captures()
        #expect(captures.count >= 20)
        for path in captures {
            let bytes = try RealCaptures.bytes(path)
            let one: FeedMessage
            do {
                one = try decode(bytes, workers: 1)
            } catch {
                Issue.record("\(path) refused: \(error)")
                continue
            }
            #expect(!one.entities.isEmpty, "\(path)")
            #expect(try decode(bytes, workers: 2) == one, "\(path)")
            if let split = bytes.withUnsafeBytes({ GTFSRealtimeCodec.decodeSplit($0, workers: 2) }) {
                #expect(split == one, "\(path)")
            }
        }
    }

    /// Real captures with bytes changed at random: every body refused as malformed names where it breaks.
    @Test func mutatedCapturesAreRefusedWithAPlace() throws {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        var refused = 0
        for path in RealCaptures.captures() where try RealCaptures.bytes(path).count < 300_000 {
            let original = try RealCaptures.bytes(path)
            for _ in 0..<20 {
                var bytes = original
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                bytes[Int(seed >> 33) % bytes.count] = UInt8(truncatingIfNeeded: seed >> 20)
                do {
                    _ = try GTFSRealtimeCodec.decode(bytes)
                } catch  where error.reason == .malformed {
                    refused += 1
                    #expect(error.fault != nil, "\(path): \(error)")
                } catch {}
            }
        }
        #expect(refused > 20)
    }

    @Test func sydneyTrainsTripUpdates() throws {
        let bytes = try RealCaptures.bytes("tfnsw-sydney-2026-06-11-rtonly/tripupdates_sydneytrains.pb")
        let feed = try GTFSRealtimeCodec.decode(bytes)
        let updates = feed.entities.compactMap(\.tripUpdate)
        #expect(updates.count == 560)
        #expect(feed.problems.isEmpty)
        let stops = updates.flatMap(\.stopTimeUpdates)
        #expect(stops.count == 4379)
        // TfNSW's field 6 varint: skipped as a mismatch (counted once per stop update), read as the occupancy.
        #expect(stops.filter { $0.departureOccupancyStatus != nil }.count == 1901)
        #expect(
            Set(stops.compactMap(\.departureOccupancyStatus)).isSubset(of: [
                .manySeatsAvailable, .fewSeatsAvailable, .standingRoomOnly,
            ]))
        let skip = try #require(feed.skippedFields.first)
        #expect(feed.skippedFields.count == 1)
        #expect(skip.path == "entity.trip_update.stop_time_update.6")
        #expect(skip.count == 1901)
        #expect((skip.wireType, skip.expectedWireType) == (0, 2))
        #expect(bytes[skip.firstOffset] == 0x30)  // field 6, varint
        // Extension 1007 on the stop updates: per-carriage predicted occupancy, positions 1...n.
        let carriages = stops.flatMap(\.tfnswCarriages)
        #expect(carriages.count == 14928)
        #expect(
            carriages.allSatisfy { $0.positionInConsist != nil && $0.departureOccupancyStatus != nil && $0.name == nil }
        )
        #expect(
            stops.filter { !$0.tfnswCarriages.isEmpty }.allSatisfy {
                $0.tfnswCarriages.map(\.positionInConsist) == (1...Int32($0.tfnswCarriages.count)).map { $0 }
            })
        // Sydney Trains sends no start_date; the vehicle descriptor's extension names the train model.
        #expect(updates.allSatisfy { $0.trip.startDate == nil })
        #expect(updates.filter { $0.trip.scheduleRelationship == .replacement }.count == 100)
        #expect(updates.allSatisfy { $0.vehicle?.tfnsw?.vehicleModel?.isEmpty == false })

        // Replay keeps every byte but the header's.
        let restamped = try GTFSRealtimeCodec.restamp(bytes, timestamp: 1_800_000_000)
        var expected = feed
        expected.header.timestamp = 1_800_000_000
        let again = try GTFSRealtimeCodec.decode(restamped)
        #expect(again.entities == expected.entities)
        #expect(again.header == expected.header)
        #expect(again.skippedFields.map(\.count) == [1901])
    }

    @Test func sydneyVehiclePositions() throws {
        let trains = try GTFSRealtimeCodec.decode(
            RealCaptures.bytes("tfnsw-sydney-2026-06-11-rtonly/vehiclepos_sydneytrains.pb"))
        let consist = trains.entities.compactMap(\.vehicle).flatMap(\.tfnswCarriages)
        #expect(consist.count == 1800)
        #expect(consist.filter { $0.occupancyStatus != nil }.count == 902)
        #expect(trains.skippedFields.isEmpty)

        let metro = try GTFSRealtimeCodec.decode(
            RealCaptures.bytes("tfnsw-sydney-2026-06-11-rtonly/vehiclepos_metro.pb"))
        let metroCars = metro.entities.compactMap(\.vehicle).flatMap(\.tfnswCarriages)
        #expect(metroCars.count == 186)
        #expect(
            metroCars.allSatisfy {
                $0.name != nil && $0.quietCarriage != nil && $0.toilet != nil && $0.luggageRack != nil
            })
        let metroVehicle = try #require(metro.entities.first?.vehicle?.vehicle?.tfnsw)
        #expect(metroVehicle.vehicleModel == "Alstom Metropolis")
        #expect(metroVehicle.airConditioned == true)

        let buses = try GTFSRealtimeCodec.decode(
            RealCaptures.bytes("tfnsw-sydney-2026-06-11-rtonly/vehiclepos_buses.pb"))
        let descriptors = buses.entities.compactMap { $0.vehicle?.vehicle?.tfnsw }
        #expect(descriptors.count == 2131)
        #expect(descriptors.filter { $0.vehicleModel != nil }.count == 2115)
        #expect(descriptors.filter { $0.performingPriorTrip != nil }.count == 269)
    }

    /// Five UNSCHEDULED trips without trip_id; TfNSW builds their entity ids from the empty trip id, so three
    /// of them (same route and vehicle, different start_time) share one id: the first is kept, the two
    /// others are reported as duplicates, as for any feed.
    @Test func sydneyBusesUnscheduledWithoutTripId() throws {
        let feed = try GTFSRealtimeCodec.decode(
            RealCaptures.bytes("tfnsw-buses-2020-09-01-rtonly/GTFS_TU2020-09-01_08_00.pb"))
        #expect(feed.entities.count == 7198 - 2)
        #expect(feed.problems.map(\.entityId) == ["38743___T80_1", "38743___T80_1"])
        #expect(feed.problems.allSatisfy { $0.reason.contains("duplicate") })
        let unscheduled = feed.entities.compactMap(\.tripUpdate).filter { $0.trip.scheduleRelationship == .unscheduled }
        #expect(unscheduled.count == 3)
        #expect(unscheduled.allSatisfy { $0.trip.tripId == nil && $0.trip.startTime != nil && $0.trip.routeId != nil })
        #expect(feed.skippedFields.isEmpty)
    }
}
