import ArgumentParser
import ProcessSupport

/// `--clock`, `--clock-rate`, `--clock-origin`: the service clock of a replayed day (ServiceClock). Every
/// command whose logic reads "now" takes these; Services/launch passes the same three to each process.
public struct ClockOptions: ParsableArguments, Sendable {
    @Option(
        help: ArgumentHelp(
            "Run the service clock from this instant instead of the machine's clock: ISO 8601 with a zone "
                + "(2026-06-11T08:15:00+10:00) or unix seconds. Staleness, trip-instance windows, default `at` and "
                + "health use it; timers and timeouts do not.", valueName: "time"))
    public var clock: String?

    @Option(
        help: ArgumentHelp(
            "Seconds of service clock per real second with --clock (0 freezes it at --clock).", valueName: "rate"))
    public var clockRate: Double = 1

    @Option(
        help: ArgumentHelp(
            "The machine time (unix seconds) at which the service clock read --clock (default: when the process "
                + "starts). Processes given the same --clock and --clock-origin agree.", valueName: "unix-seconds"))
    public var clockOrigin: Double?

    public init() {}

    public func validate() throws {
        if let clock, ServiceClock.parseInstant(clock) == nil {
            throw ValidationError(
                "--clock \(clock): expected ISO 8601 with a zone (2026-06-11T08:15:00+10:00, …Z) or unix seconds")
        }
        guard clockRate.isFinite, clockRate >= 0 else { throw ValidationError("--clock-rate must be 0 or more") }
        if clock == nil && (clockRate != 1 || clockOrigin != nil) {
            throw ValidationError("--clock-rate and --clock-origin need --clock")
        }
        if let clockOrigin, !clockOrigin.isFinite { throw ValidationError("--clock-origin must be unix seconds") }
    }

    /// The clock these options describe (the machine's without --clock).
    public var serviceClock: ServiceClock {
        guard let clock, let start = ServiceClock.parseInstant(clock) else { return .system }
        return ServiceClock(start: start, origin: clockOrigin, rate: clockRate)
    }
}
