// Feeds recorded from real producers (../shared/realdata/, next to the project folder, never committed) through
// the realtime service's source path: decode, screen, resolve, apply. There is no matching static feed, so their
// trips are unknown to the schedules: they must be counted as drops, never refuse the feed. Skipped, with a
// message, when the folder is absent (a fresh clone); the crafted fixtures of GTFSRealtimeTests cover each quirk.
import Foundation
import GTFSRealtime
import ProcessSupport
import Synchronization
import Testing
import TransitModel
import TransitTesting

@testable import RealtimeService

extension RealCaptures {
    static let absent = Comment(rawValue: absentReason)
}

@Suite(.enabled(if: RealCaptures.available, RealCaptures.absent))
struct RealCaptureTests {
    @Test func everyCaptureIsAppliedWithItsUnknownTripsCountedAsDrops() async throws {
        let captures = RealCaptures.captures()
        #expect(captures.count >= 20)
        for path in captures {
            let bytes = try RealCaptures.bytes(path)
            let feed = try GTFSRealtimeCodec.decode(bytes)
            let header = Int64(clamping: feed.header.timestamp ?? 0)
            let hub = RealtimeHub(sink: RecordingSink())
            let engine = try RealtimeEngine(
                sources: [SourceSettings(name: "capture", timeZone: "UTC")], hub: hub,
                schedules: FakeSchedules(tripIds: []), timeZone: "UTC", logger: quietLogger,
                clock: { header })
            await engine.handle(.fetched(source: "capture", bytes: bytes, at: header))
            let status = try #require(await engine.statuses().first)
            #expect(status.errors == 0, "\(path): \(status.lastError ?? "")")
            #expect(status.updatesApplied == 1, "\(path)")
            let tripUpdates = feed.entities.filter { update in
                guard let trip = update.tripUpdate?.trip, trip.tripId?.isEmpty == false else { return false }
                return [.scheduled, .canceled].contains(trip.scheduleRelationship ?? .scheduled)
            }
            if !tripUpdates.isEmpty {
                // No schedule knows them: each is dropped and counted (mostly as unknown trips), never an error.
                #expect(status.drops.values.reduce(0, +) >= UInt64(tripUpdates.count), "\(path): \(status.drops)")
                #expect(
                    (status.drops["unknown_trip"] ?? 0) >= UInt64(tripUpdates.count / 2), "\(path): \(status.drops)")
            }
            #expect(status.skippedFields.map(\.path) == feed.skippedFields.map(\.path), "\(path)")
        }
    }

    /// Sydney Trains: TfNSW's StopTimeUpdate field 6 varint is skipped (and read as the stop's occupancy);
    /// the source counts the skips by path with the first example, in `sources` and again on the next feed.
    @Test func sydneyTrainsSkippedFieldsAreCountedPerSource() async throws {
        let bytes = try RealCaptures.bytes("tfnsw-sydney-2026-06-11-rtonly/tripupdates_sydneytrains.pb")
        let hub = RealtimeHub(sink: RecordingSink())
        let header: Int64 = 1_781_166_696
        let now = Mutex(header)
        let engine = try RealtimeEngine(
            sources: [SourceSettings(name: "sydneytrains", kind: .tripUpdates, timeZone: "Australia/Sydney")], hub: hub,
            schedules: FakeSchedules(tripIds: []), timeZone: "Australia/Sydney", logger: quietLogger,
            clock: { now.withLock { $0 } })
        await engine.handle(.fetched(source: "sydneytrains", bytes: bytes, at: header))
        var status = try #require(await engine.statuses().first)
        #expect(status.errors == 0)
        let skipped = try #require(status.skippedFields.first)
        #expect(status.skippedFields.count == 1)
        #expect(skipped.path == "entity.trip_update.stop_time_update.6")
        #expect(skipped.count == 1901)
        #expect(
            skipped.first.hasPrefix("entity.trip_update.stop_time_update.6: 1901 skipped, first at byte "),
            "\(skipped.first)")
        #expect(skipped.first.hasSuffix("(varint where the schema has length-delimited)"), "\(skipped.first)")
        // The trips are unknown (no static feed): drops, counted, not errors.
        #expect((status.drops["unknown_trip"] ?? 0) > 400, "\(status.drops)")

        // The same body again is not applied (not_modified): nothing counted twice.
        await engine.handle(.fetched(source: "sydneytrains", bytes: bytes, at: header + 30))
        status = try #require(await engine.statuses().first)
        #expect(status.notModified == 1)
        #expect(status.skippedFields.first?.count == 1901)

        // The published status carries them too (what `sources` and the gateway's `health` show).
        guard case .sources(let published)? = hub.snapshot(.sources)?.payload else {
            Issue.record("no sources snapshot")
            return
        }
        #expect(published.first?.skippedFields == status.skippedFields)
    }
}

/// The memory a big feed leaves resident, with the service's malloc tuning, before and after the trim the engine
/// does after a large feed. A 33 MB feed: the four TfNSW 2020 bus captures concatenated (protobuf merges them).
@Suite(.enabled(if: RealCaptures.available, RealCaptures.absent))
struct BigFeedMemoryTests {
    @Test func theTrimAfterABigFeedGivesTheDecodesMemoryBack() throws {
        let folder = "tfnsw-buses-2020-09-01-rtonly/"
        let parts = ["GTFS_TU2020-09-01_08_00.pb", "GTFS_TU2020-09-01_08_01.pb"]
        var feed: [UInt8] = []
        for _ in 0..<2 { for part in parts { feed += try RealCaptures.bytes(folder + part) } }
        #expect(feed.count >= RealtimeEngine.largeFeedBytes)
        ProcessMemory.keepFreedMemory()  // as transit-realtime serve does
        let before = ProcessMemory.residentBytes() ?? 0
        var entities = 0
        for _ in 0..<3 { entities = try GTFSRealtimeCodec.decode(feed).entities.count }
        let peak = ProcessMemory.residentBytes() ?? 0
        ProcessMemory.trim()
        let after = ProcessMemory.residentBytes() ?? 0
        let mib = { (bytes: UInt64) in bytes >> 20 }
        print(
            "big feed \(feed.count >> 20) MiB, \(entities) entities: resident \(mib(before)) MiB before, "
                + "\(mib(peak)) MiB after 3 decodes, \(mib(after)) MiB after the trim")
        // Generous slack: the decode's transient memory is far larger than 32 MiB.
        #expect(after + (32 << 20) < peak, "peak \(mib(peak)) MiB, after the trim \(mib(after)) MiB")
    }
}
