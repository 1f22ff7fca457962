import ArgumentParser
import Foundation
import NNGKit
import ServiceSupport

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Debug client: send gateway-style JSON requests to a running service, print the answers.",
        discussion: """
            Each request is one JSON object as the gateway takes it (protocol/GATEWAY.md), for the ops stop, \
            search, nearby, routes, departures, trip and feed_info, e.g. \
            '{"op":"departures","stop_id":"200060","limit":5}'. It is sent as protobuf; the answer is printed \
            as one line in the gateway's shape, realtime fields null. `-` reads one request per line from \
            standard input. Exit status: 0 when every request got an answer (errors such as NOT_FOUND \
            included), 1 when the service could not be reached or answered garbage, 2 when a request line \
            was invalid.
            """
    )

    @Option(help: ArgumentHelp("The service's nng URL.", valueName: "url"))
    var connect: String

    @Option(help: ArgumentHelp("Per-request timeout in milliseconds.", valueName: "ms"))
    var timeout = 2000

    @OptionGroup(title: "Service clock")
    var clock: ClockOptions

    @Argument(help: ArgumentHelp("JSON requests, or - for lines from standard input.", valueName: "json"))
    var requests: [String]

    func validate() throws {
        guard !requests.isEmpty else { throw ValidationError("give at least one JSON request (or - for stdin)") }
        guard timeout > 0 else { throw ValidationError("--timeout must be > 0 ms") }
    }

    func run() throws {
        let requester: NNGRequester
        do {
            requester = try NNGRequester(dialing: connect, defaultTimeout: .milliseconds(timeout))
        } catch {
            printError("query: \(error)")
            throw ExitCode.failure
        }
        defer { requester.close() }
        let client = DebugClient(requester: requester, clock: clock.serviceClock)

        var worst = DebugClient.Outcome.answered
        func send(_ line: String) {
            let (output, outcome) = client.answer(line)
            guard let output else { return }
            writeOut(output)
            if case .transportFailed(let message) = outcome { printError("query: \(message)") }
            if outcome.exitCode > worst.exitCode { worst = outcome }
        }
        for request in requests {
            if request == "-" {
                while let line = readLine(strippingNewline: true) { send(line) }
            } else {
                send(request)
            }
        }
        if worst.exitCode != 0 { throw ExitCode(worst.exitCode) }
    }
}
