// The layout of a replay folder: numbered snapshot folders (0001/, 0002/, ...) holding TripUpdates.pb,
// VehiclePositions.pb and Alerts.pb (names matched case-insensitively; any may be missing).
import Foundation

enum ReplayFolder {
    /// Paths of the snapshot folders, in numeric order. Entries whose names are not all digits are ignored.
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
        return numbered.sorted { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }.map(\.1)
    }

    /// The file of `kind` in a snapshot folder, matched case-insensitively; nil when there is none.
    static func file(of kind: SourceKind, in snapshot: String) -> String? {
        guard let wanted = kind.replayFileName?.lowercased(),
            let names = try? FileManager.default.contentsOfDirectory(atPath: snapshot)
        else { return nil }
        guard let name = names.sorted().first(where: { $0.lowercased() == wanted }) else { return nil }
        return (snapshot as NSString).appendingPathComponent(name)
    }

    /// The kinds at least one snapshot holds, in the order trip updates, vehicle positions, alerts.
    static func kindsPresent(in snapshots: [String]) -> [SourceKind] {
        SourceKind.replayKinds.filter { kind in snapshots.contains { file(of: kind, in: $0) != nil } }
    }
}
