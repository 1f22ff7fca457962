import ArgumentParser
import Foundation
import LoadGenerator

/// A TCP line echo (`load --mode line-echo` drives it): the floor under the gateway's line protocol.
struct LineEchoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "line-echo-server", abstract: "Echo every line over TCP (the line protocol's floor).")

    @Option(help: "host:port to listen on") var listen: String = "127.0.0.1:17880"
    @Option(help: "event loop threads") var threads: Int = 1

    func run() async throws {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]) else {
            throw ValidationError("--listen must be host:port")
        }
        let server = try await LineEchoServer.start(host: String(listen[..<colon]), port: port, threads: threads)
        print("line echo listening on \(listen[..<colon]):\(server.port)")
        // Runs until the parent kills it.
        while true { try await Task.sleep(for: .seconds(3600)) }
    }
}
