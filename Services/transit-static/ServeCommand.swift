import ArgumentParser
import Dispatch
import Foundation
import Logging
import ServiceSupport
import StaticService

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Answer static queries (protobuf over nng REQ/REP) from an imported database.",
        discussion: """
            SIGHUP reopens the database (run after a new import; queries in flight finish on the old file). \
            SIGINT/SIGTERM stop cleanly: no new requests, the ones in progress finish.
            """
    )

    @Option(help: ArgumentHelp("The database written by `transit-static import`.", valueName: "file"))
    var db: String

    @Option(help: ArgumentHelp("nng URL to listen on, e.g. ipc:///tmp/static.sock or tcp://127.0.0.1:5555.",
                               valueName: "url"))
    var listen: String

    @Option(help: "Requests answered at once (REP contexts, each with its own database connection).")
    var contexts = 8

    @Option(help: ArgumentHelp("Also reopen when the database file is replaced, checking every N seconds "
                               + "(0: only on SIGHUP).", valueName: "seconds"))
    var watchInterval = 0.0

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    func validate() throws {
        guard contexts >= 1, contexts <= 256 else { throw ValidationError("--contexts must be 1…256, got \(contexts)") }
        guard watchInterval >= 0, watchInterval.isFinite else { throw ValidationError("--watch-interval must be ≥ 0") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
    }

    func run() throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "transit-static")

        let server: StaticServer
        do {
            server = try StaticServer(databasePath: db, listen: listen, contexts: contexts, logger: logger)
        } catch {
            printError("serve: \(error)")
            throw ExitCode.failure
        }
        let stop = DispatchSemaphore(value: 0)
        let signals = SignalHandlers()
        signals.on(SIGHUP) {
            logger.info("SIGHUP: reopening the database", metadata: ["path": "\(db)"])
            server.reload()
        }
        for signalNumber in [SIGINT, SIGTERM] {
            signals.on(signalNumber) {
                logger.info("stopping", metadata: ["signal": "\(signalNumber == SIGINT ? "SIGINT" : "SIGTERM")"])
                stop.signal()
            }
        }
        let watch = watchInterval > 0 ? startWatch(server, every: watchInterval) : nil

        logger.info("ready", metadata: [
            "listen": "\(listen)", "db": "\(db)", "database_version": "\(server.databaseVersion)",
            "contexts": "\(contexts)", "pid": "\(getpid())",
        ])
        stop.wait()
        watch?.cancel()
        server.stop()
        logger.info("stopped")
    }

    private func startWatch(_ server: StaticServer, every seconds: Double) -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "transit-static.watch"))
        timer.schedule(deadline: .now() + seconds, repeating: seconds, leeway: .milliseconds(100))
        timer.setEventHandler { server.reloadIfReplaced() }
        timer.resume()
        return timer
    }
}

