import Foundation

/// Prints import progress as one self-overwriting line on standard error, only when it is a terminal.
public enum TerminalProgress {
    /// A progress handler for `ImportOptions.progress`, or nil when standard error is not a TTY (quiet).
    public static func standardErrorIfTerminal() -> (@Sendable (ImportProgress) -> Void)? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        return { progress in
            let line: String
            if progress.finished {
                line = "\r\u{1B}[K"
            } else {
                var text = "\r\u{1B}[K\(progress.feed)/\(progress.file): \(progress.rows) rows"
                text += ", \(Int(progress.rowsPerSecond)) rows/s"
                if let fraction = progress.fraction { text += ", \(Int(fraction * 100))%" }
                line = text
            }
            FileHandle.standardError.write(Data(line.utf8))
        }
    }
}
