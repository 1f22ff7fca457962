import ArgumentParser
import Dispatch
import Foundation
import TransitClient
import TransitPresentation
import TransitTerminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct BoardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "A stop's live departure board, redrawn in place (q or Ctrl-C quits).",
        discussion: """
            The board follows a subscription and polls every 30 s when it is quiet or refused. With --plain, \
            --json, or when the output is not a terminal it prints the board once. A name that matches several \
            stops lists them (name, id, mode) and exits 2.
            """)
    @OptionGroup var options: GatewayOptions
    @Argument(help: "A stop id, or (part of) a stop's name.") var stop: String
    @Option(help: "Rows on the board (1–100).") var limit = 10

    func validate() throws {
        guard (1...100).contains(limit) else { throw ValidationError("--limit expects 1 to 100, got \(limit)") }
    }

    func run() async throws {
        try await guarded {
            try await options.run { client in
                let found = try await StopArgument(text: stop).resolve(client)
                let (stopId, name) = (found.stopId, found.name)
                if options.json || options.plain || !options.isTerminal {
                    try await printOnce(client, stopId: stopId, name: name)
                } else {
                    try await LiveScreen(client: client, stopId: stopId, stopName: name, limit: limit).run()
                }
            }
        }
    }

    func printOnce(_ client: TransitClient, stopId: String, name: String?) async throws {
        let board = try await client.departures(stopId: stopId, limit: limit)
        let alerts = (try? await client.alerts(stopId: stopId).data.alerts) ?? []
        if options.json { return options.printLine(board.line) }
        let now = board.meta.at ?? Int64(Date().timeIntervalSince1970)
        let renderer = BoardRenderer(mode: options.colorMode, width: Terminal.columns() ?? 80)
        options.print(
            renderer.render(board.data, .init(stopName: name, now: now, alerts: alerts, meta: board.meta)))
    }
}

/// The terminal while the live board runs: no echo, no line buffering, the alternate screen, no cursor;
/// `restore()` puts it back as it was.
enum Terminal {
    nonisolated(unsafe) private static var saved: termios?

    static func columns() -> Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    static func rows() -> Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }

    static func enter() {
        if isatty(STDIN_FILENO) == 1 {
            var original = termios()
            if tcgetattr(STDIN_FILENO, &original) == 0 {
                saved = original
                var raw = original
                raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
                tcsetattr(STDIN_FILENO, TCSANOW, &raw)
            }
        }
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }

    static func restore() {
        write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        if var original = saved {
            tcsetattr(STDIN_FILENO, TCSANOW, &original)
            saved = nil
        }
    }

    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// The live board: a subscription feeds it, a poll every 30 s backs it up, a tick each second redraws the
/// countdowns, and q, Ctrl-C or SIGTERM end it with the terminal restored.
actor LiveScreen {
    let client: TransitClient
    let stopId: String
    let stopName: String?
    let limit: Int
    private var board: Board?
    private var meta: AnswerMeta?
    private var receivedAt = ContinuousClock.now
    private var alerts: [Alert] = []
    private var status = "connecting…"
    static let pollInterval: Duration = .seconds(30)

    init(client: TransitClient, stopId: String, stopName: String?, limit: Int) {
        self.client = client
        self.stopId = stopId
        self.stopName = stopName
        self.limit = limit
    }

    func run() async throws {
        let (quit, quitContinuation) = AsyncStream<Void>.makeStream()
        Terminal.enter()
        defer { Terminal.restore() }
        let signals = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { quitContinuation.yield() }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(STDIN_FILENO, &byte, 1) == 1 {
                if byte == UInt8(ascii: "q") || byte == UInt8(ascii: "Q") || byte == 3 { break }
            }
            quitContinuation.yield()
        }
        draw()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.follow() }
            group.addTask { await self.poll() }
            group.addTask { await self.refreshAlerts() }
            group.addTask { await self.tick() }
            group.addTask {
                var iterator = quit.makeAsyncIterator()
                _ = await iterator.next()
            }
            await group.next()
            group.cancelAll()
        }
    }

    private func update(_ board: Board, _ meta: AnswerMeta, via: String) {
        self.board = board
        self.meta = meta
        receivedAt = .now
        status = via == "live" ? BoardRenderer.liveState(meta) : via
        draw()
    }

    private func setStatus(_ text: String) {
        status = text
        draw()
    }

    private func follow() async {
        do {
            for try await event in await client.subscribe(stopId: stopId, limit: limit) {
                switch event {
                case .board(let board, let meta): update(board, meta, via: "live")
                case .interrupted(let error): setStatus("reconnecting: \(error)")
                }
            }
        } catch {
            // An older gateway without subscriptions, or one that refuses it: the poll carries the board.
            setStatus("polling every 30 s (\(error))")
        }
    }

    /// Asks for the board when no update came for 30 s.
    private func poll() async {
        while !Task.isCancelled {
            if board == nil || ContinuousClock.now - receivedAt >= Self.pollInterval {
                do {
                    let answer = try await client.departures(stopId: stopId, limit: limit)
                    update(answer.data, answer.meta, via: board == nil ? "live" : status)
                } catch is CancellationError {
                    return
                } catch {
                    setStatus("\(error)")
                }
            }
            try? await Task.sleep(for: board == nil ? .seconds(2) : .seconds(5))
        }
    }

    private func refreshAlerts() async {
        while !Task.isCancelled {
            if let answer = try? await client.alerts(stopId: stopId) {
                alerts = answer.data.alerts
                draw()
            }
            try? await Task.sleep(for: .seconds(60))
        }
    }

    private func tick() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            draw()
        }
    }

    /// Now on the services' clock: the board's `at` plus the time since it came.
    private var now: Int64 {
        guard let at = meta?.at else { return Int64(Date().timeIntervalSince1970) }
        return at + (ContinuousClock.now - receivedAt).components.seconds
    }

    private func draw() {
        let width = Terminal.columns() ?? 80
        let mode = ColorMode.detect(environment: ProcessInfo.processInfo.environment, isTerminal: true)
        let footer = "q quit · \(status)"
        var lines: [String]
        if let board {
            lines = BoardRenderer(mode: mode, width: width).render(
                board, .init(stopName: stopName, now: now, alerts: alerts, meta: meta, footer: footer))
        } else {
            lines = [stopName ?? stopId, "", footer]
        }
        if let rows = Terminal.rows(), lines.count > rows { lines = Array(lines.prefix(rows - 1)) + [lines.last!] }
        // Home, each line then clear to its end, then clear below: redrawn in place without flicker.
        Terminal.write("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J")
    }
}
