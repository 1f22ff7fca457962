import ArgumentParser
import Foundation
import RealtimeFixtures
import ServiceSupport

struct FixturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixtures",
        abstract:
            "Write GTFS-Realtime feeds (TripUpdates.pb, VehiclePositions.pb, Alerts.pb) that fit a static database.",
        discussion: """
            Picks the trips running around --at (default now, or --clock) and writes: delays late and early, delays that \
            change along a trip, a cancelled trip, a skipped stop, a NO_DATA stop, a time-only update, a \
            trip-level delay, an added (NEW) trip, a vehicle without a trip update, occupancy, vehicles between their stops, and alerts on a \
            station, a route, a route type and a trip. Ids are the database's (with any import prefix: serve \
            them with "prefix" unset). --replay N writes N numbered snapshot folders 30 s apart in which the \
            delays move, for a replay source. The same database and --at give the same bytes.

            A replay source re-stamps each file's header timestamp with the time it is played, so the source never \
            goes stale, but it does not move the trips: start dates, start times, absolute stop times and entity \
            timestamps stay those of --at. Played long after --at, the trips are in the past (or on another \
            service day) and no departure around now shows them. Generate the fixtures again around now for each \
            demo (Services/launch does, at every launch); a looping replay rescans its folder at the start of \
            every pass, so snapshots rewritten in place are picked up. Or serve them with the same --clock they \
            were made at, so the services' clock is theirs.
            """
    )

    @Option(help: ArgumentHelp("The static database (opened read-only).", valueName: "file"))
    var db: String

    @Option(help: ArgumentHelp("Folder to write into (created if needed).", valueName: "dir"))
    var out: String

    @Option(help: ArgumentHelp("The moment, unix seconds (default: now, by the service clock).", valueName: "unix"))
    var at: Int64?

    @OptionGroup(title: "Service clock")
    var clock: ClockOptions

    @Option(help: ArgumentHelp("Write N numbered snapshot folders instead of one set of files.", valueName: "n"))
    var replay: Int?

    @Option(help: "Most trip instances with updates (the nearest first departures are kept).")
    var maxTrips = 500

    @Option(
        help: ArgumentHelp(
            "Also write a delay store (serve's --delay-store) recording these trips on each of the "
                + "\(FixtureHistory.days) service days before, so typical delays and reliability have figures at "
                + "once. A store already there is replaced.",
            valueName: "file"))
    var delayHistory: String?

    func validate() throws {
        if let replay, !(1...9999).contains(replay) { throw ValidationError("--replay must be 1…9999, got \(replay)") }
        guard maxTrips >= 1 else { throw ValidationError("--max-trips must be at least 1") }
    }

    func run() throws {
        let moment = at ?? clock.serviceClock.unixSeconds
        do {
            let schedule = try FixtureSchedule.read(databasePath: db, at: moment, maxTrips: maxTrips)
            let written = try FixtureWriter.write(schedule, to: out, replay: replay)
            guard let first = written.first else { return }
            print(
                "wrote \(written.count == 1 ? out : "\(written.count) snapshots in \(out)"): "
                    + "\(first.tripUpdates.entities.count) trip updates, \(first.vehiclePositions.entities.count) vehicles, "
                    + "\(first.alerts.entities.count) alerts at \(moment)")
            for c in first.cases { print("  \(c.name): \(c.tripId) on \(c.serviceDate)") }
            if let delayHistory {
                let kept = try FixtureHistory.write(schedule, toStore: delayHistory)
                print("wrote \(delayHistory): \(kept) recorded departures over \(FixtureHistory.days) earlier days")
            }
        } catch {
            printError("fixtures: \(error)")
            throw ExitCode.failure
        }
    }
}
