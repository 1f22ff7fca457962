import Foundation

/// The package's built executables (`swift build --build-tests` builds them next to the test bundle).
public enum BuiltExecutables {
    /// The executable `name`, or nil when it has not been built.
    public static func path(_ name: String) -> String? {
        var folders: [URL] = [
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        ]
        if let runner = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: runner).deletingLastPathComponent())
        }
        folders.append(Repository.url(".build/debug"))
        return folders.map { $0.appendingPathComponent(name).path }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
