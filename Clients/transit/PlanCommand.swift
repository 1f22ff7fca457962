import ArgumentParser
import Foundation
import TransitClient
import TransitPresentation
import TransitTerminal

struct PlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan", abstract: "Journeys from one stop (or lat,lon) to another, live.",
        discussion: """
            FROM and TO: a stop id, (part of) a stop's name (one that matches several stops lists them and exits 2), \
            or a coordinate written lat,lon (e.g. -33.8688,151.2093).
            --at and --arrive-by: 09:05 (today), 2026-12-01 09:05 or 2026-12-01T09:05 in the places' time zone \
            (today and the zone are the services': their clock may be a replayed day), an ISO 8601 time with its \
            offset (2026-12-01T09:05+11:00, ...Z), or unix seconds.
            """)
    @OptionGroup var options: GatewayOptions
    @Argument(help: "Where from: a stop id or name, or lat,lon.") var from: String
    @Argument(help: "Where to: a stop id or name, or lat,lon.") var to: String
    @Option(help: "Depart at or after (HH:MM, YYYY-MM-DD HH:MM, ISO 8601 with offset, or unix seconds; default now).")
    var at: String?
    @Option(help: "Arrive at or before (as --at).") var arriveBy: String?
    @Option(help: "Changes at most (0–8).") var maxTransfers: Int?
    @Option(help: "Every journey leaving within this many minutes after --at (1–180), in order of departure.")
    var window: Int?
    @Flag(help: "Only wheelchair-accessible trips, boarding and alighting at accessible stops.") var wheelchair = false
    @Option(help: "Only these modes, comma-separated (train, metro, tram, ferry, bus, coach, cable, other).")
    var modes: String?
    @Option(help: "Walking speed in metres a second (0.3–3; default 1.2).") var walkSpeed: Double?
    @Option(help: "Walking between stops to change, at most this many metres (0–2000; default 400).")
    var walkRadius: Double?
    @Option(help: "Extra seconds for a change at the same stop (0–1800; default 60).") var transferSlack: Int?
    @Option(help: "From and to a lat,lon: walking to and from stops at most this many metres (0–2000; default 600).")
    var accessRadius: Double?
    @Flag(help: "Plan on the timetable alone, without live predictions.") var schedule = false
    @Flag(
        help: """
            Keep following the journeys: each live change (a ride's new times, a change a delay broke, a new \
            journey) is printed with the journeys as they are then. Ctrl-C quits.
            """)
    var watch = false

    /// The range of `--window`, in minutes (the op's `window_s` is 0–10800).
    static let windowMinutes = 1...180
    /// Journeys per page of a `--window` answer (the op's largest `limit`), and pages read at the most.
    static let pageLimit = 20
    static let maxPages = 10

    func validate() throws {
        if at != nil && arriveBy != nil { throw ValidationError("give --at or --arrive-by, not both") }
        if let window {
            guard Self.windowMinutes.contains(window) else {
                throw ValidationError("--window expects minutes from 1 to 180; got \(window)")
            }
            if arriveBy != nil { throw ValidationError("--window goes with --at, not with --arrive-by") }
        }
        if watch && options.json {
            throw ValidationError(
                "--watch prints the changes as text; for the events as JSON subscribe with the plan topic "
                    + "(protocol/GATEWAY.md)")
        }
        if let at { _ = try PlanTime(at, option: "--at") }
        if let arriveBy { _ = try PlanTime(arriveBy, option: "--arrive-by") }
    }

    /// "lat,lon" is a coordinate; anything else names a stop (an id or a name, `StopArgument`).
    static func coordinate(_ text: String) -> PlanPlace? {
        let parts = text.split(separator: ",")
        if parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) {
            return .coordinate(lat: lat, lon: lon)
        }
        return nil
    }

    func run() async throws {
        try await guarded {
            try await options.run { client in
                var firstStop: Stop?
                var places: [PlanPlace] = []
                for text in [from, to] {
                    if let place = Self.coordinate(text) {
                        places.append(place)
                    } else {
                        let stop = try await StopArgument(text: text).resolve(client)
                        places.append(.stop(stop.stopId))
                        firstStop = firstStop ?? stop
                    }
                }
                let given = try [
                    at.map { try PlanTime($0, option: "--at") },
                    arriveBy.map { try PlanTime($0, option: "--arrive-by") },
                ]
                // The services' clock is asked for only when a time needs it.
                let clock = given.contains { $0?.isLocal == true } ? try await servicesClock(client, firstStop) : nil
                let times = try given.map { try $0?.unix(on: clock) }
                let fields = planFields
                let waiting = {
                    FileHandle.standardError.write(
                        Data("transit: the planner is building the timetable of those dates; waiting…\n".utf8))
                }
                if watch {
                    // A subscription on other dates is refused as a plan is while their timetable is built.
                    return try await Self.waitingForTimetable(waiting) {
                        try await follow(client, from: places[0], to: places[1], times: times, fields: fields)
                    }
                }
                let answer = try await Self.waitingForTimetable(waiting) {
                    try await client.plan(
                        from: places[0], to: places[1], at: times[0], arriveBy: times[1], options: fields)
                }
                // A window's journeys may take several pages: each next one by the previous page's cursor.
                var pages = [answer]
                while let cursor = pages.last?.data.laterCursor, pages.count < Self.maxPages {
                    var next = fields
                    next["window_s"] = nil
                    next["cursor"] = .string(cursor)
                    pages.append(try await client.plan(from: places[0], to: places[1], options: next))
                }
                if options.json { return pages.forEach { options.printLine($0.line) } }
                let plan = Self.joined(pages.map(\.data))
                options.print(ListRenderer(mode: options.colorMode).plan(plan))
                if plan.laterCursor != nil {
                    options.print([
                        "More journeys leave within the window than \(Self.maxPages) pages hold: ask again with a later --at."
                    ])
                }
            }
        }
    }

    /// `--watch`: the plan subscription's events as they come, until Ctrl-C (or the gateway refuses the plan).
    private func follow(
        _ client: TransitClient, from: PlanPlace, to: PlanPlace, times: [Int64?], fields: [String: RequestValue]
    ) async throws {
        let renderer = ListRenderer(mode: options.colorMode)
        var events = 0
        for try await event in await client.subscribePlan(
            from: from, to: to, at: times[0], arriveBy: times[1], options: fields)
        {
            switch event {
            case .plan(let plan, let changes, let meta):
                // The subscription keeps the time it was made at (GATEWAY.md `subscribe`): the journeys from then.
                let at = meta.at.map { DepartureClock(timeZone: plan.timezone).time($0) } ?? "now"
                let heading =
                    events == 0
                    ? "Following live (Ctrl-C quits); journeys from \(at):"
                    : changes.isEmpty ? "Following again; the journeys now:" : "Changed:"
                options.print(
                    (events == 0 ? [] : [""]) + [heading] + renderer.planChanges(changes, in: plan)
                        + renderer.plan(plan))
                events += 1
            case .interrupted(let error):
                options.print(["", "Connection lost (\(error)); following again once reconnected…"])
            }
            fflush(nil)  // each event as it comes, also into a pipe
        }
    }

    /// The op's fields for the options given (GATEWAY.md `plan`; the gateway checks their ranges and names them).
    var planFields: [String: RequestValue] {
        var fields: [String: RequestValue] = [:]
        if let maxTransfers { fields["max_transfers"] = .int(Int64(maxTransfers)) }
        if let window {
            fields["window_s"] = .int(Int64(window * 60))
            fields["limit"] = .int(Int64(Self.pageLimit))
        }
        if wheelchair { fields["wheelchair"] = .bool(true) }
        if let modes {
            fields["modes"] = .array(
                modes.split(separator: ",").map { .string($0.trimmingCharacters(in: .whitespaces).lowercased()) })
        }
        if let walkSpeed { fields["walk_speed_mps"] = .double(walkSpeed) }
        if let walkRadius { fields["walk_radius_m"] = .double(walkRadius) }
        if let transferSlack { fields["transfer_slack_s"] = .int(Int64(transferSlack)) }
        if let accessRadius { fields["access_radius_m"] = .double(accessRadius) }
        if schedule { fields["realtime"] = .bool(false) }
        return fields
    }

    /// The pages of one range answer as one: their journeys in order, what was dropped and cut on any page, the
    /// alerts once each; the first page's reason (only an empty answer has one) and time zone. At least one page.
    static func joined(_ pages: [Plan]) -> Plan {
        var plan = pages[0]
        for page in pages.dropFirst() {
            plan.journeys += page.journeys
            plan.liveDropped += page.liveDropped
            if page.cut == true { plan.cut = true }
            if page.realtimeStale == true { plan.realtimeStale = true }
            for alert in page.alerts where !plan.alerts.contains(alert) { plan.alerts.append(alert) }
            plan.laterCursor = page.laterCursor
        }
        return plan
    }

    /// `plan()`, asked again once a `pause` while the planner builds the timetable of the plan's dates (a time outside
    /// the few days it holds ready: about 2 s at NSW scale, during which the gateway answers STATIC_UNAVAILABLE ending
    /// "try again in a few seconds", protocol/README.md flow 8), for up to `patience`; `waiting` is called once, at
    /// the first refusal. Any other error, or that one past `patience`, is thrown.
    static func waitingForTimetable<Answer>(
        patience: Duration = .seconds(30), pause: Duration = .seconds(1), _ waiting: () -> Void,
        plan: () async throws -> Answer
    ) async throws -> Answer {
        let deadline = ContinuousClock.now + patience
        var told = false
        while true {
            do {
                return try await plan()
            } catch TransitClientError.server(let code, let message)
                where code == .staticUnavailable && message.hasSuffix("try again in a few seconds")
                && ContinuousClock.now + pause < deadline
            {
                if !told { waiting() }
                told = true
                try await Task.sleep(for: pause)
            }
        }
    }

    /// The services' wall clock and now, for a local time: the time zone of the first stop given (else of the stop
    /// nearest to FROM), now from that stop's board (`meta.at`: the services' clock, which may be a replayed day).
    private func servicesClock(_ client: TransitClient, _ firstStop: Stop?) async throws
        -> (clock: DepartureClock, now: Int64)
    {
        var stop = firstStop
        if stop == nil, case .coordinate(let lat, let lon)? = Self.coordinate(from) {
            stop = try await client.nearby(lat: lat, lon: lon, radius: 5000, limit: 1).data.stops.first
        }
        guard let stop, let zone = stop.timezone.flatMap(TimeZone.init(identifier:)) else {
            throw Failure(
                message: "transit: the gateway named no time zone for these places (no stop within 5 km of FROM, or "
                    + "none known); give the time with its UTC offset (2026-12-01T09:05+11:00) or in unix seconds",
                code: 2)
        }
        let board = try await client.departures(stopId: stop.stopId, limit: 1)
        return (DepartureClock(zone), board.meta.at ?? Int64(Date().timeIntervalSince1970))
    }
}

/// A time given to `transit plan`: unix seconds or an ISO 8601 time with its offset (absolute), or a wall-clock
/// time, today or on a date, in the places' time zone (local).
struct PlanTime {
    /// The instant, when the text fixes it.
    var absolute: Int64?
    /// A local time: its date (year, month, day; nil: today) and time of day in seconds.
    var date: (year: Int, month: Int, day: Int)?
    var secondOfDay = 0
    let text: String
    let option: String

    var isLocal: Bool { absolute == nil }

    init(_ text: String, option: String) throws {
        self.text = text
        self.option = option
        let invalid = ValidationError(
            "\(option) expects HH:MM (today), YYYY-MM-DD HH:MM, an ISO 8601 time with its offset "
                + "(2026-12-01T09:05+11:00) or unix seconds (10 digits); got \"\(text)\"")
        if let seconds = Int64(text) {
            // A short number is more likely an hour ("--at 9") than a time in 1970.
            guard seconds >= 1_000_000_000 else { throw invalid }
            absolute = seconds
            return
        }
        var rest = Substring(text)
        if rest.count > 10, rest.dropFirst(4).first == "-", rest.dropFirst(7).first == "-",
            let year = Int(rest.prefix(4)), let month = Int(rest.dropFirst(5).prefix(2)),
            let day = Int(rest.dropFirst(8).prefix(2)), rest.prefix(10).allSatisfy({ $0.isASCII })
        {
            // A date the calendar has not (2026-02-30) is one in no zone.
            guard ["T", " "].contains(rest.dropFirst(10).first),
                DepartureClock(TimeZone(secondsFromGMT: 0)!).unix((year, month, day), secondOfDay: 0) != nil
            else { throw invalid }
            date = (year, month, day)
            rest = rest.dropFirst(11)
        }
        let timeEnd = rest.firstIndex { !($0.isASCII && ($0.isNumber || $0 == ":")) } ?? rest.endIndex
        let parts = rest[..<timeEnd].split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ (1...2).contains($0.count) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { throw invalid }
        let second = parts.count == 3 ? Int(parts[2]) ?? -1 : 0
        guard (0...59).contains(second) else { throw invalid }
        secondOfDay = hour * 3600 + minute * 60 + second
        let offsetText = rest[timeEnd...]
        guard !offsetText.isEmpty else { return }
        // An offset fixes the instant; without a date it would not say which day.
        guard let date, let offset = Self.offsetSeconds(offsetText),
            let instant = DepartureClock(TimeZone(secondsFromGMT: offset)!).unix(date, secondOfDay: secondOfDay)
        else { throw invalid }
        absolute = instant
    }

    /// "Z", "+11:00", "+1100" or "-05" as seconds east of UTC.
    private static func offsetSeconds(_ text: Substring) -> Int? {
        if text == "Z" { return 0 }
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst().filter { $0 != ":" }
        guard [2, 4].contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let hours = Int(digits.prefix(2)),
            let minutes = Int(digits.dropFirst(2).isEmpty ? "0" : digits.dropFirst(2)),
            hours <= 18, minutes <= 59
        else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// The instant: as given, or the local time on `clock` (the services' wall clock and now), on its date or on
    /// the clock's date now.
    func unix(on clock: (clock: DepartureClock, now: Int64)?) throws -> Int64 {
        if let absolute { return absolute }
        guard let clock else { preconditionFailure("a local time needs the services' clock") }
        guard let instant = clock.clock.unix(date ?? clock.clock.date(clock.now), secondOfDay: secondOfDay) else {
            throw ValidationError("\(option): \(text) is not a date of the calendar")
        }
        return instant
    }
}
