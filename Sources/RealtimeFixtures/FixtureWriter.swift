import Foundation
import GTFSRealtime

/// Writes fixture feeds as files: TripUpdates.pb, VehiclePositions.pb and Alerts.pb in `folder`, or with
/// `replay: n`, in n numbered snapshot folders (0001, 0002, …) whose moments are `stepSecs` apart (delays
/// move from one to the next; each has its own header timestamp) — the layout replay sources play.
public enum FixtureWriter {
    public static let stepSecs: Int64 = 30
    public static let fileNames = (
        tripUpdates: "TripUpdates.pb", vehiclePositions: "VehiclePositions.pb", alerts: "Alerts.pb"
    )

    @discardableResult
    public static func write(_ schedule: FixtureSchedule, to folder: String, replay: Int? = nil) throws
        -> [FixtureFeeds]
    {
        let generator = FixtureGenerator(schedule: schedule)
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard let count = replay else {
            let feeds = try generator.feeds()
            try write(feeds, into: folder)
            return [feeds]
        }
        guard count >= 1, count <= 9999 else { throw FixtureError("--replay must be 1…9999, got \(count)") }
        var all: [FixtureFeeds] = []
        for step in 0..<count {
            let feeds = try generator.feeds(step: step, at: schedule.at + Int64(step) * stepSecs)
            let snapshot = (folder as NSString).appendingPathComponent(String(format: "%04d", step + 1))
            try fm.createDirectory(atPath: snapshot, withIntermediateDirectories: true)
            try write(feeds, into: snapshot)
            all.append(feeds)
        }
        return all
    }

    private static func write(_ feeds: FixtureFeeds, into folder: String) throws {
        let files: [(String, FeedMessage)] = [
            (fileNames.tripUpdates, feeds.tripUpdates), (fileNames.vehiclePositions, feeds.vehiclePositions),
            (fileNames.alerts, feeds.alerts),
        ]
        for (name, feed) in files {
            let url = URL(fileURLWithPath: folder).appendingPathComponent(name)
            do {
                // Atomic: a file:// source polling the folder never reads half a file.
                try Data(GTFSRealtimeCodec.encode(feed)).write(to: url, options: .atomic)
            } catch {
                throw FixtureError("cannot write \(url.path): \(error.localizedDescription)")
            }
        }
    }
}
