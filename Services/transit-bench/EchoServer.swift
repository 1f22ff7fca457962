import ArgumentParser
import Foundation
import NNGKit

/// An nng REP peer that answers every request with its own bytes: the floor under every query latency.
struct EchoServer: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "echo-server", abstract: "Echo over nng REP.")

    @Option(help: "nng URL to listen on") var listen: String
    @Option(help: "concurrent REP contexts") var contexts: Int = 8

    func run() throws {
        let server = try NNGReplyServer(listeningOn: listen, contexts: contexts) { request in
            request.withUnsafeBufferPointer { Array($0) }
        }
        // Runs until the parent kills it.
        withExtendedLifetime(server) {
            while true { sleep(3600) }
        }
    }
}
