import ArgumentParser
import Foundation
import NNGKit
import ServiceSupport
import Synchronization
import TransitModel
import TransitProto

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Debug client: send JSON queries to a running realtime service, print the answers as JSON lines.",
        discussion: """
            Each request is one JSON object with an "op" (protocol/README.md, "Realtime debug queries"): \
            '{"op":"sources"}', '{"op":"snapshot","topic":"tu"}', '{"op":"trip","trip_id":"T1.WKD.0.0740"}', \
            '{"op":"stop","stop_id":"200060","limit":5}', '{"op":"vehicles","route_id":"ST_T1"}', \
            '{"op":"alerts","stop_id":"200060"}'. `-` reads one request per line from standard input. Exit status: \
            0 when every request got an answer (NOT_FOUND included), 1 when the service could not be reached or \
            answered garbage, 2 when a request line was invalid.
            """
    )

    @Option(help: ArgumentHelp("The realtime service's REP URL.", valueName: "url"))
    var connect: String

    @Option(help: ArgumentHelp("Per-request timeout in milliseconds.", valueName: "ms"))
    var timeout = 2000

    @Argument(help: ArgumentHelp("JSON requests, or - for lines from standard input.", valueName: "json"))
    var requests: [String]

    func validate() throws {
        guard !requests.isEmpty else { throw ValidationError("give at least one JSON request (or - for stdin)") }
        guard timeout > 0 else { throw ValidationError("--timeout must be > 0 ms") }
    }

    /// A topic snapshot holds the whole live state (protocol/README.md: REQ → realtime 256 MiB).
    static let maxReplyBytes = 256 << 20

    func run() throws {
        let requester: NNGRequester
        do {
            requester = try NNGRequester(
                dialing: connect, defaultTimeout: .milliseconds(timeout), maxReplySize: Self.maxReplyBytes)
        } catch {
            printError("query: \(error)")
            throw ExitCode.failure
        }
        defer { requester.close() }
        var worst: Int32 = 0
        var nextId: UInt64 = 1
        func send(_ line: String) {
            let bytes = Array(line.utf8)
            guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return }
            switch QueryLine.parse(bytes) {
            case .failure(let failure):
                writeOut(LiveJSON.error(id: failure.id, code: failure.code, message: failure.message))
                worst = max(worst, 2)
            case .success(let parsed):
                defer { nextId += 1 }
                do {
                    let reply = try requester.request(
                        RealtimeCodec.encode(RealtimeRequest(requestId: nextId, query: parsed.query)))
                    let response = try RealtimeCodec.decodeResponse(reply)
                    writeOut(LiveJSON.answer(id: parsed.id, response.result))
                } catch {
                    writeOut(LiveJSON.error(id: parsed.id, code: "REALTIME_UNAVAILABLE", message: "\(error)"))
                    printError("query: \(error)")
                    worst = max(worst, 1)
                }
            }
        }
        for request in requests {
            if request == "-" {
                while let line = readLine(strippingNewline: true) { send(line) }
            } else {
                send(request)
            }
        }
        if worst != 0 { throw ExitCode(worst) }
    }
}
