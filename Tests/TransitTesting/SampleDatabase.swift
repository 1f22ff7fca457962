import Foundation
import TransitStore

/// The bundled sample feed (data/sample-gtfs) imported once per test run with the real importer.
public enum SampleDatabase {
    /// The sample feed's folder.
    public static let feedPath = Repository.path("data/sample-gtfs")

    /// Where the database and other run-wide files live; never removed (the statics outlive every test).
    public static let folder: TemporaryFolder = try! TemporaryFolder("sample-db")

    private static let imported: Result<String, any Error> = Result(catching: {
        let db = folder.path("sample.db")
        try runImport([ImportOptions.Feed(path: feedPath, name: "sample")], into: db)
        return db
    })

    /// The imported database's path; the import's error when it failed.
    public static func path() throws -> String { try imported.get() }
}

/// Instants the tests use: Monday 2025-12-22 in Sydney (AEDT, UTC+11), a weekday in the school holidays,
/// inside the sample feed's and the small test feeds' calendars.
public enum SampleTimes {
    /// 2025-12-22 08:00 AEDT.
    public static let mondayMorning: Int64 = 1_766_350_800
    /// 2025-12-22 20:00 AEDT.
    public static let mondayEvening: Int64 = 1_766_394_000
    /// The service date of both, as GTFS writes it.
    public static let mondayDate = "20251222"
}

/// Runs an import of `feeds` into `db` (quiet, no signal handling).
@discardableResult
public func runImport(_ feeds: [ImportOptions.Feed], into db: String, strict: Bool = false) throws -> ImportSummary {
    try GTFSImporter(options: ImportOptions(feeds: feeds, databasePath: db, strict: strict, handleInterrupts: false))
        .run()
}
