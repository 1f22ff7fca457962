// The layout of a replay folder, one of two:
// - numbered snapshot folders (0001/, 0002/, ...) holding TripUpdates.pb, VehiclePositions.pb and Alerts.pb
//   (names matched case-insensitively; any may be missing), played in numeric order;
// - or, when it has no numbered folder, plain *.pb files (a recorded sequence, e.g. one capture a minute), each
//   one snapshot: ordered by their header timestamps (then by name), their kinds read from their entities (a
//   file without entities: from its name, "tripupdate", "vehicle" or "alert" in it).
import Foundation

enum ReplayFolder {
    /// Paths of the snapshots: the numbered folders in numeric order (entries whose names are not all digits are
    /// ignored), else the *.pb files in header-timestamp order.
    static func snapshots(in folder: String) throws(FetchError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            throw .fileMissing(folder)
        }
        guard isDirectory.boolValue else { throw .fileUnreadable(path: folder, reason: "not a folder") }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw .fileUnreadable(path: folder, reason: "cannot list it")
        }
        let numbered = names.compactMap { name -> (Int, String)? in
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(name) else { return nil }
            var isDir: ObjCBool = false
            let path = (folder as NSString).appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else { return nil }
            return (n, path)
        }
        if !numbered.isEmpty {
            return numbered.sorted { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }.map(\.1)
        }
        let files = names.filter { $0.lowercased().hasSuffix(".pb") }.compactMap { name -> (UInt64, String)? in
            var isDir: ObjCBool = false
            let path = (folder as NSString).appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue else {
                return nil
            }
            return (FeedPeek(file: path)?.timestamp ?? UInt64.max, path)  // no timestamp: last
        }
        return files.sorted { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }.map(\.1)
    }

    /// The file of `kind` in a snapshot (a numbered folder: matched case-insensitively by name; a .pb file: itself
    /// when it holds that kind); nil when there is none.
    static func file(of kind: SourceKind, in snapshot: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: snapshot, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else { return kinds(ofFile: snapshot).contains(kind) ? snapshot : nil }
        guard let wanted = kind.replayFileName?.lowercased(),
            let names = try? FileManager.default.contentsOfDirectory(atPath: snapshot)
        else { return nil }
        guard let name = names.sorted().first(where: { $0.lowercased() == wanted }) else { return nil }
        return (snapshot as NSString).appendingPathComponent(name)
    }

    /// Whether a snapshot is a numbered folder (not a plain .pb file).
    static func isFolder(_ snapshot: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: snapshot, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The kinds at least one snapshot holds, in the order trip updates, vehicle positions, alerts.
    static func kindsPresent(in snapshots: [String]) -> [SourceKind] {
        SourceKind.replayKinds.filter { kind in snapshots.contains { file(of: kind, in: $0) != nil } }
    }

    /// The kinds a plain .pb snapshot holds: its entities', else its name's.
    private static func kinds(ofFile path: String) -> Set<SourceKind> {
        if let kinds = FeedPeek(file: path)?.kinds, !kinds.isEmpty { return kinds }
        let name = (path as NSString).lastPathComponent.lowercased()
        var kinds = Set<SourceKind>()
        if name.contains("tripupdate") { kinds.insert(.tripUpdates) }
        if name.contains("vehicle") { kinds.insert(.vehiclePositions) }
        if name.contains("alert") { kinds.insert(.alerts) }
        return kinds
    }

    /// The snapshots' files of `kind` with their header timestamps, in time order: what a timed replay plays.
    /// Files without a header timestamp cannot be timed and are left out.
    static func timedFiles(of kind: SourceKind, in snapshots: [String]) -> [(timestamp: UInt64, path: String)] {
        let files = snapshots.compactMap { snapshot -> (timestamp: UInt64, path: String)? in
            guard let path = file(of: kind, in: snapshot), let timestamp = FeedPeek(file: path)?.timestamp,
                timestamp > 0
            else { return nil }
            return (timestamp, path)
        }
        return files.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
            .map(\.element)
    }
}
