import ArgumentParser
import Foundation
import TransitClient
import TransitPresentation
import TransitTerminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct Transit: AsyncParsableCommand {
    /// Parses and runs as ArgumentParser would, with two differences the README and `--help` promise: a usage
    /// error exits 2 (ArgumentParser's is 64), and `transit nearby -33.87 151.20` reads the negative latitude as
    /// a number, not as an option.
    static func main() async {
        do {
            var command = try parseAsRoot(Self.negativeNumbersAsValues(Array(CommandLine.arguments.dropFirst())))
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }
                Foundation.exit(0)
            }
            if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
            Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }

    /// The arguments with each negative number that is not an option's value moved behind a `--`, in order, so
    /// ArgumentParser takes it as a positional value (`nearby -33.87 151.20 --radius 400` becomes
    /// `nearby 151.20 --radius 400 -- -33.87`, positional values keeping their order). Options that take a
    /// value are those of `GatewayOptions` and the commands' own.
    static func negativeNumbersAsValues(_ arguments: [String]) -> [String] {
        guard !arguments.contains("--"),
            arguments.contains(where: { $0.count > 1 && $0.hasPrefix("-") && isNumeric($0) })
        else { return arguments }
        let takesValue = optionsTakingValues
        var kept: [String] = []
        var positional: [String] = []
        var sawCommand = false
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            if takesValue.contains(argument), i + 1 < arguments.count {
                kept += [argument, arguments[i + 1]]
                i += 2
                continue
            }
            if argument.hasPrefix("-"), !isNumeric(argument) {
                kept.append(argument)
            } else if !sawCommand {
                kept.append(argument)  // the subcommand's name
                sawCommand = true
            } else {
                positional.append(argument)
            }
            i += 1
        }
        return kept + ["--"] + positional
    }

    /// The options that take a value (GatewayOptions' and the commands' own), read from the commands' help, where
    /// each is written with its value ("--at <at>"), so that a new option cannot be missed here.
    static let optionsTakingValues: Set<String> = {
        var names: Set<String> = []
        for command in configuration.subcommands {
            let words = command.helpMessage(includeHidden: true, columns: 10_000).split(whereSeparator: \.isWhitespace)
            for (word, next) in zip(words, words.dropFirst()) where next.hasPrefix("<") {
                let name = word.trimmingCharacters(in: CharacterSet(charactersIn: "[("))
                if name.hasPrefix("--") { names.insert(name) }
            }
        }
        return names
    }()

    /// A number, or a coordinate written lat,lon (`plan -33.87,151.2 200060`).
    static func isNumeric(_ argument: String) -> Bool {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count) && parts.allSatisfy { Double($0) != nil }
    }

    static let configuration = CommandConfiguration(
        commandName: "transit",
        abstract: "Departure boards, trips, stops and alerts from a transit gateway, in the terminal.",
        discussion: """
            Exit codes: 0 done, 1 the gateway answered with an error (e.g. an unknown stop), 2 a usage error or \
            a stop name that matches several stops (they are listed), 3 the gateway cannot be reached.
            NO_COLOR turns colours off; COLORTERM=truecolor (or 24bit) gives 24-bit route colours, else 256.
            """,
        subcommands: [
            BoardCommand.self, TripCommand.self, SearchCommand.self, StopCommand.self, NearbyCommand.self,
            RoutesCommand.self, AlertsCommand.self, VehiclesCommand.self, PlanCommand.self, HealthCommand.self,
        ]
    )
}

/// The options every command takes.
struct GatewayOptions: ParsableArguments {
    @Option(name: .long, help: "The gateway's host:port (default: $TRANSIT_GATEWAY, else 127.0.0.1:7878).")
    var gateway: String?

    @Option(name: .long, help: "A file holding the gateway's token (for a gateway started with --token-file).")
    var tokenFile: String?

    @Flag(name: .long, help: "Plain text: no colours, no live screen (also when the output is not a terminal).")
    var plain = false

    @Flag(name: .long, help: "The gateway's answer as JSON.")
    var json = false

    // 5 s rather than the library's 15: a person waiting at a prompt wants to hear soon that the gateway is down.
    @Option(name: .long, help: "Give up after this many seconds without an answer, reconnects included.")
    var timeout: Double = 5

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be more than 0 seconds") }
        _ = try address()
    }

    func address() throws -> (host: String, port: Int) {
        let text = gateway ?? ProcessInfo.processInfo.environment["TRANSIT_GATEWAY"] ?? "127.0.0.1:7878"
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65535).contains(port)
        else { throw ValidationError("--gateway expects host:port, got \"\(text)\"") }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host.isEmpty ? "127.0.0.1" : host, port)
    }

    func client() throws -> TransitClient {
        var token: String?
        if let tokenFile {
            do {
                token = try String(contentsOfFile: tokenFile, encoding: .utf8).trimmingCharacters(in: .newlines)
            } catch {
                throw ValidationError("--token-file \(tokenFile): cannot read it (\(error.localizedDescription))")
            }
        }
        let (host, port) = try address()
        let overall = Duration.milliseconds(Int64(timeout * 1000))
        return TransitClient(
            host: host, port: port,
            configuration: .init(requestTimeout: min(.seconds(8), overall), overallTimeout: overall, token: token))
    }

    var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    var colorMode: ColorMode {
        plain ? .none : ColorMode.detect(environment: ProcessInfo.processInfo.environment, isTerminal: isTerminal)
    }

    /// Runs `body` and turns the client's errors into a message and an exit code.
    func run(_ body: (TransitClient) async throws -> Void) async throws {
        let client = try client()
        do {
            try await body(client)
            await client.close()
        } catch let error as TransitClientError {
            await client.close()
            throw Failure(error, options: self)
        }
    }

    func print(_ lines: [String]) {
        Swift.print(lines.joined(separator: "\n"))
    }

    /// `--json`: the gateway's answer line as it came (not re-encoded: every field in its order, nulls kept).
    func printLine(_ line: Data) {
        var text = String(decoding: line, as: UTF8.self)
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        Swift.print(text)
    }
}

/// A client error as the user reads it, with the exit code of its kind.
struct Failure: Error, CustomStringConvertible {
    let description: String
    let code: Int32

    init(_ error: TransitClientError, options: GatewayOptions) {
        let address = (try? options.address()).map { "\($0.host):\($0.port)" } ?? "?"
        switch error {
        case .unreachable(_, let reason):
            description = """
                transit: cannot reach the gateway at \(address) (\(reason)).
                Is it running? Start the services with Services/launch, or point --gateway (or $TRANSIT_GATEWAY) \
                at a running gateway.
                """
            code = 3
        case .timeout, .connectionLost:
            description = "transit: \(error) (gateway \(address))"
            code = 3
        case .server(.unauthenticated, let message):
            description = "transit: the gateway wants a token: \(message). Pass it with --token-file."
            code = 1
        default:
            description = "transit: \(error)"
            code = 1
        }
    }

    init(message: String, code: Int32) {
        description = message
        self.code = code
    }
}

extension Failure {
    /// Prints the message to stderr and exits with the code.
    func exit() -> Never {
        FileHandle.standardError.write(Data((description + "\n").utf8))
        Foundation.exit(code)
    }
}

/// Runs a command body and exits with the failure's code and message.
func guarded(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let failure as Failure {
        failure.exit()
    }
}

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Find stops by name.")
    @OptionGroup var options: GatewayOptions
    @Argument(help: "Text of the stop's name.") var text: String
    @Option(help: "At most this many stops (1–100).") var limit = 10

    func run() async throws {
        try await guarded {
            try await options.run { client in
                let answer = try await client.search(text, limit: limit)
                if options.json { return options.printLine(answer.line) }
                options.print(ListRenderer(mode: options.colorMode).stops(answer.data.stops))
            }
        }
    }
}

struct NearbyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nearby", abstract: "Stops near a place, nearest first.")
    @OptionGroup var options: GatewayOptions
    @Argument(help: "Latitude.") var lat: Double
    @Argument(help: "Longitude.") var lon: Double
    @Option(help: "Radius in metres (up to 5000).") var radius: Double = 500
    @Option(help: "At most this many stops (1–100).") var limit = 10

    func run() async throws {
        try await guarded {
            try await options.run { client in
                let answer = try await client.nearby(lat: lat, lon: lon, radius: radius, limit: limit)
                if options.json { return options.printLine(answer.line) }
                options.print(ListRenderer(mode: options.colorMode).stops(answer.data.stops))
            }
        }
    }
}

struct StopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop", abstract: "A stop: its station, platforms and routes.")
    @OptionGroup var options: GatewayOptions
    @Argument(help: "The stop id.") var stopId: String

    func run() async throws {
        try await guarded {
            try await options.run { client in
                let answer = try await client.stop(stopId)
                if options.json { return options.printLine(answer.line) }
                options.print(ListRenderer(mode: options.colorMode).stop(answer.data))
            }
        }
    }
}

struct RoutesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "routes", abstract: "Every route, A–Z.")
    @OptionGroup var options: GatewayOptions
    @Option(help: "Only routes of this mode: all, train, bus, metro, ferry, tram.") var mode: String = "all"

    func validate() throws {
        guard RouteModeFilter(rawValue: mode) != nil else {
            throw ValidationError("--mode expects one of all, train, bus, metro, ferry, tram; got \"\(mode)\"")
        }
    }

    func run() async throws {
        let filter = RouteModeFilter(rawValue: mode) ?? .all
        try await guarded {
            try await options.run { client in
                let answer = try await client.routes(mode: filter == .all ? nil : filter.rawValue)
                if options.json { return options.printLine(answer.line) }
                options.print(ListRenderer(mode: options.colorMode).routes(answer.data.routes, filter: filter))
            }
        }
    }
}

struct TripCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "trip", abstract: "A trip's stops, live.")
    @OptionGroup var options: GatewayOptions
    @Argument(help: "The trip id.") var tripId: String
    @Option(help: "The service date, YYYYMMDD (default: the run nearest to now).") var date: String?

    func run() async throws {
        try await guarded {
            try await options.run { client in
                let answer = try await client.trip(tripId, date: date)
                if options.json { return options.printLine(answer.line) }
                let now = answer.meta.at ?? Int64(Date().timeIntervalSince1970)
                options.print(ListRenderer(mode: options.colorMode).trip(answer.data, now: now))
            }
        }
    }
}

struct AlertsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "alerts", abstract: "Active alerts at a stop.")
    @OptionGroup var options: GatewayOptions
    @Argument(help: "The stop id.") var stopId: String

    func run() async throws {
        try await guarded {
            try await options.run { client in
                let answer = try await client.alerts(stopId: stopId)
                if options.json { return options.printLine(answer.line) }
                options.print(ListRenderer(mode: options.colorMode).alerts(answer.data.alerts))
            }
        }
    }
}

struct VehiclesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "vehicles", abstract: "A route's vehicles.")
    @OptionGroup var options: GatewayOptions
    @Argument(help: "The route id.") var routeId: String

    func run() async throws {
        try await guarded {
            try await options.run { client in
                let answer = try await client.vehicles(routeId: routeId)
                if options.json { return options.printLine(answer.line) }
                options.print(ListRenderer(mode: options.colorMode).vehicles(answer.data.vehicles))
            }
        }
    }
}

struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health", abstract: "The gateway and the services behind it.")
    @OptionGroup var options: GatewayOptions

    func run() async throws {
        try await guarded {
            try await options.run { client in
                let answer = try await client.health()
                if options.json { return options.printLine(answer.line) }
                options.print(ListRenderer(mode: options.colorMode).health(answer.data))
            }
        }
    }
}

/// A stop named on the command line: its id, or (part of) its name.
struct StopArgument {
    let text: String

    /// The stop's id: an id the gateway knows, else the one stop the name matches (an exact name wins over
    /// partial ones). No match exits 1; several exit 2 and list them.
    func resolve(_ client: TransitClient) async throws -> Stop {
        do {
            return try await client.stop(text).data.stop
        } catch TransitClientError.server(.notFound, _) {}
        let found = try await client.search(text, limit: 20).data.stops
        let exact = found.filter { $0.name.caseInsensitiveCompare(text) == .orderedSame }
        if exact.count == 1 { return exact[0] }
        if found.count == 1 { return found[0] }
        if found.isEmpty {
            throw Failure(message: "transit: no stop has the id or a name like \"\(text)\"", code: 1)
        }
        let list = ListRenderer(mode: .none).stops(found).joined(separator: "\n")
        throw Failure(
            message: "transit: \"\(text)\" matches \(found.count) stops; give one's id:\n\(list)", code: 2)
    }
}
