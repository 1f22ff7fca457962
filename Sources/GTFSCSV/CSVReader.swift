#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A header column of a `CSVReader`: its 0-based index in the record, or -1 when the file has no such column
/// (reading a missing column gives an empty field, which is how GTFS treats absent optional columns).
public struct CSVColumn: Sendable, Equatable {
    public let index: Int
    public let name: String
    public var isPresent: Bool { index >= 0 }
}

/// Streaming, byte-level CSV reader for GTFS files (RFC 4180).
///
/// Written by hand, not with a general CSV library, because it is the import's hot path (tens of millions of
/// stop_times fields): it scans bytes in a fixed-size buffer filled by `read(2)`-sized chunks, never holds a
/// whole file, and hands out fields as byte slices of that buffer, so reading a record allocates nothing.
///
/// Accepted input: RFC 4180 quoting (`""` escapes, commas and line breaks inside quotes), an optional UTF-8
/// BOM, LF, CRLF or CR line ends, blank lines (skipped), a last line without line end, header names with
/// spaces around them (trimmed), columns in any order, unknown columns (ignored), missing columns (empty).
/// A record shorter than the header reads its missing fields as empty; a record longer than the header is
/// accepted only when the extra fields are empty (trailing commas, common in the wild), else it is an error.
/// Values are trimmed of spaces and tabs around them, and spaces around a quoted field are tolerated. Errors: an
/// unterminated quote, a quote inside an unquoted field, text after a closing quote, bad values through the typed
/// accessors, a header naming a column twice, a UTF-16 or UTF-32 file (by byte-order mark or by its NUL
/// pattern), and a file, record or field over the caps of `CSVLimits`, each with file, line and column.
///
/// Problems the reader can read past (`CSVIssue`: NUL bytes, invalid UTF-8 in text, stray byte-order marks) go
/// to the issue handler, which throws to fail or returns to go on; without a handler they are errors. They cost
/// nothing per byte on the hot path: NUL bytes and byte-order marks are searched for once per chunk (`memchr`,
/// `memmem`), and UTF-8 is validated only in fields read as text.
///
/// Field bytes are valid until the next call of `next()`.
public final class CSVReader {
    public let fileName: String
    /// Header names, trimmed; empty for an empty file.
    public private(set) var header: [String] = []
    /// Physical line (1-based) where the current record starts.
    public private(set) var line = 0
    /// Fields in the current record.
    public private(set) var fieldCount = 0
    /// Bytes read from the source so far (for progress).
    public private(set) var bytesRead = 0

    private let source: CSVByteSource
    private let chunkSize: Int
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var start = 0
    private var end = 0
    private var atEOF = false
    /// Physical line number of the byte at `start`.
    private var nextLine = 1
    private var fieldStarts: UnsafeMutablePointer<Int>
    private var fieldEnds: UnsafeMutablePointer<Int>
    private var fieldEscaped: UnsafeMutablePointer<Bool>
    private var fieldCapacity = 64
    private var headerCount = Int.max
    private var headerLine = 1
    private var columnIndex: [String: Int] = [:]
    private var readingHeader = true

    private let limits: CSVLimits
    /// A record at least this long (line end included) has its line and field lengths checked.
    private let lengthCheckFrom: Int
    /// A pending (incomplete) record longer than this is over the line cap whatever its line end.
    private let pendingRecordCap: Int
    private let issueHandler: ((CSVIssue) throws -> Void)?

    /// The current record: its first byte and the end of its content (line end excluded).
    private var recordStart = 0
    private var recordEnd = 0
    /// Buffer index of the first NUL byte / byte-order mark not yet reported, `Int.max` when none in the bytes
    /// searched so far (`..<searchedTo`); `suspectAt` is the smaller of the two.
    private var nulAt = Int.max
    private var markAt = Int.max
    private var suspectAt = Int.max
    private var searchedTo = 0

    private enum Outcome { case record, needMore, end }

    private static let lf: UInt8 = 0x0A
    private static let cr: UInt8 = 0x0D
    private static let quote: UInt8 = 0x22
    private static let comma: UInt8 = 0x2C

    /// Reads the header right away. `chunkSize` is the size of each read from the source (1 MiB by default);
    /// the buffer grows only when a single record is longer than it (up to the line cap). `onIssue` decides
    /// about each `CSVIssue` (nil: each is an error).
    public init(
        source: CSVByteSource, fileName: String, chunkSize: Int = 1 << 20, limits: CSVLimits = .default,
        onIssue: ((CSVIssue) throws -> Void)? = nil
    ) throws {
        self.source = source
        self.fileName = fileName
        self.chunkSize = max(1, chunkSize)
        self.capacity = self.chunkSize
        self.limits = limits
        lengthCheckFrom = min(limits.maxLineBytes, limits.maxFieldBytes)
        pendingRecordCap = limits.maxLineBytes > Int.max - 2 ? Int.max : limits.maxLineBytes + 2
        issueHandler = onIssue
        buffer = .allocate(capacity: capacity)
        fieldStarts = .allocate(capacity: fieldCapacity)
        fieldEnds = .allocate(capacity: fieldCapacity)
        fieldEscaped = .allocate(capacity: fieldCapacity)
        try checkEncoding()
        if try next() {
            for i in 0..<fieldCount {
                let name = try string(CSVColumn(index: i, name: ""))
                header.append(name)
                if let first = columnIndex[name], !name.isEmpty {
                    throw CSVError(
                        file: fileName, line: line, column: i + 1, columnName: name,
                        reason: "the header names column \"\(name)\" twice (columns \(first + 1) and \(i + 1))")
                }
                if columnIndex[name] == nil { columnIndex[name] = i }
            }
            headerCount = fieldCount
            headerLine = line
        }
        readingHeader = false
    }

    public convenience init(
        path: String, fileName: String? = nil, chunkSize: Int = 1 << 20,
        limits: CSVLimits = .default, onIssue: ((CSVIssue) throws -> Void)? = nil
    ) throws {
        let name = fileName ?? String(path.split(separator: "/").last ?? Substring(path))
        try self.init(
            source: FileByteSource(path: path), fileName: name, chunkSize: chunkSize, limits: limits,
            onIssue: onIssue)
    }

    deinit {
        buffer.deallocate()
        fieldStarts.deallocate()
        fieldEnds.deallocate()
        fieldEscaped.deallocate()
    }

    // MARK: Columns

    /// The column named `name` (index -1 when the header lacks it).
    public func column(_ name: String) -> CSVColumn {
        CSVColumn(index: columnIndex[name] ?? -1, name: name)
    }

    /// The column named `name`, or an error `missing required column "name"` on the header line.
    public func requireColumn(_ name: String) throws -> CSVColumn {
        guard let index = columnIndex[name] else {
            throw CSVError(file: fileName, line: headerLine, reason: "missing required column \"\(name)\"")
        }
        return CSVColumn(index: index, name: name)
    }

    // MARK: Records

    /// Advances to the next record; false at the end of the input.
    public func next() throws -> Bool {
        while true {
            switch try parseRecord() {
            case .record:
                if start - recordStart >= lengthCheckFrom { try checkLengths() }
                if suspectAt < start, try !handleSuspectBytes() { continue }
                for i in 0..<fieldCount where fieldEscaped[i] { unescape(i) }
                if fieldCount > headerCount { try checkExtraFieldsEmpty() }
                return true
            case .end:
                fieldCount = 0
                return false
            case .needMore:
                try refill()
            }
        }
    }

    /// The field's bytes, trimmed of spaces and tabs; empty when the column is missing or the record short.
    /// Valid until the next `next()`.
    @inline(__always)
    public func bytes(_ column: CSVColumn) -> UnsafeRawBufferPointer {
        let i = column.index
        guard i >= 0, i < fieldCount else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        var s = fieldStarts[i]
        var e = fieldEnds[i]
        while s < e, buffer[s] == 0x20 || buffer[s] == 0x09 { s += 1 }
        while e > s, buffer[e - 1] == 0x20 || buffer[e - 1] == 0x09 { e -= 1 }
        return UnsafeRawBufferPointer(start: buffer + s, count: e - s)
    }

    /// An error about the current record (and column, when given), for values the caller rejects.
    public func error(_ reason: String, column: CSVColumn? = nil) -> CSVError {
        let number = column.flatMap { $0.isPresent ? $0.index + 1 : nil }
        return CSVError(file: fileName, line: line, column: number, columnName: column?.name, reason: reason)
    }

    // MARK: Parsing

    /// Skips a UTF-8 byte-order mark; a file in UTF-16 or UTF-32 is an error saying so (its header would
    /// otherwise only be "missing" every column).
    private func checkEncoding() throws {
        while end - start < 4, !atEOF { try refill() }
        let n = end - start
        let b = buffer + start
        if n >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF {
            start += 3
            if markAt < start { findNextMark(from: start) }
            return
        }
        var encoding: String?
        if n >= 4, b[0] == 0, b[1] == 0, b[2] == 0xFE, b[3] == 0xFF {
            encoding = "UTF-32 (it starts with the byte-order mark 00 00 FE FF)"
        } else if n >= 4, b[0] == 0xFF, b[1] == 0xFE, b[2] == 0, b[3] == 0 {
            encoding = "UTF-32 (it starts with the byte-order mark FF FE 00 00)"
        } else if n >= 2, (b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF) {
            encoding = "UTF-16 (it starts with the byte-order mark \(b[0] == 0xFF ? "FF FE" : "FE FF"))"
        } else if n >= 4, b[0] != 0, b[1] == 0, b[2] != 0, b[3] == 0 {
            encoding = "UTF-16 little-endian without a byte-order mark (every second byte is NUL)"
        } else if n >= 4, b[0] == 0, b[1] != 0, b[2] == 0, b[3] != 0 {
            encoding = "UTF-16 big-endian without a byte-order mark (every second byte is NUL)"
        }
        if let encoding {
            throw CSVError(
                file: fileName, line: 1,
                reason: "the file is \(encoding); GTFS files must be UTF-8 "
                    + "(convert it, e.g. iconv -f UTF-16 -t UTF-8)")
        }
    }

    private func refill() throws {
        if start > 0 {
            if end > start { memmove(buffer, buffer + start, end - start) }
            let shift = start
            end -= shift
            start = 0
            searchedTo -= shift
            if nulAt != .max { nulAt -= shift }
            if markAt != .max { markAt -= shift }
            suspectAt = min(nulAt, markAt)
        }
        if end > pendingRecordCap {
            // The record being read is already over the cap: refuse before buffering more of it.
            throw CSVError(
                file: fileName, line: nextLine,
                reason: "record longer than the line-length cap of \(CSVLimits.describe(bytes: limits.maxLineBytes))",
                exceededLimit: .lineBytes)
        }
        if end == capacity {
            // One record is longer than the buffer: grow it.
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = bigger
            capacity *= 2
        }
        let room = min(capacity - end, chunkSize)
        let n = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer + end, count: room))
        if n == 0 {
            atEOF = true
        } else {
            end += n
            bytesRead += n
            if bytesRead > limits.maxFileBytes {
                throw CSVError(
                    file: fileName, line: nextLine,
                    reason: "file larger than the size cap of \(CSVLimits.describe(bytes: limits.maxFileBytes))",
                    exceededLimit: .fileBytes)
            }
            searchNewBytes()
        }
    }

    // MARK: NUL bytes and stray byte-order marks

    /// Searches the bytes read since the last search (once per chunk, not per record).
    private func searchNewBytes() {
        if nulAt == .max, let hit = memchr(buffer + searchedTo, 0, end - searchedTo) {
            nulAt = buffer.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        if markAt == .max {
            // A mark may straddle the previous end: look from two bytes before it.
            findNextMark(from: max(searchedTo - 2, start))
        }
        searchedTo = end
        suspectAt = min(nulAt, markAt)
    }

    /// `memchr` for the mark's first byte (0xEF starts only U+F000–U+FFFF, rare in GTFS), then the other two.
    private func findNextMark(from position: Int) {
        markAt = .max
        var p = position
        while end - p >= 3, let hit = memchr(buffer + p, 0xEF, end - p - 2) {
            let at = buffer.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if buffer[at + 1] == 0xBB, buffer[at + 2] == 0xBF {
                markAt = at
                break
            }
            p = at + 1
        }
        suspectAt = min(nulAt, markAt)
    }

    private func findNextNul(from position: Int) {
        nulAt = .max
        if position < searchedTo, let hit = memchr(buffer + position, 0, searchedTo - position) {
            nulAt = buffer.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        suspectAt = min(nulAt, markAt)
    }

    /// The current record holds a NUL byte or a byte-order mark: reports each (through the issue handler).
    /// False when the record is to be skipped (a NUL byte); marks are cut out of their fields.
    private func handleSuspectBytes() throws -> Bool {
        if nulAt < start {
            let column = fieldIndex(containing: nulAt)
            let problem = CSVError(
                file: fileName, line: line, column: column.map { $0 + 1 }, columnName: column.flatMap(headerName),
                reason: readingHeader ? "NUL byte (0x00) in the header" : "NUL byte (0x00) in the record")
            findNextNul(from: start)
            if markAt < start { findNextMark(from: start) }
            if readingHeader { throw problem }
            try report(.nulByte, problem)
            return false
        }
        while markAt < start {
            let at = markAt
            let column = fieldIndex(containing: at)
            try report(
                .strayByteOrderMark,
                CSVError(
                    file: fileName, line: line, column: column.map { $0 + 1 }, columnName: column.flatMap(headerName),
                    reason: "byte-order mark (EF BB BF) inside the file, not at its start (were two files joined?)"))
            guard let i = column, fieldEnds[i] - at >= 3 else {
                findNextMark(from: at + 3)
                continue
            }
            if at == fieldStarts[i] {
                fieldStarts[i] += 3
                findNextMark(from: at + 3)
            } else {
                // Cut it out: the rest of the field moves left, the three freed bytes (now outside every
                // field) become spaces, and the search goes on from the same place.
                let fieldEnd = fieldEnds[i]
                memmove(buffer + at, buffer + at + 3, fieldEnd - at - 3)
                (buffer + fieldEnd - 3).update(repeating: 0x20, count: 3)
                fieldEnds[i] = fieldEnd - 3
                findNextMark(from: at)
            }
        }
        return true
    }

    private func fieldIndex(containing position: Int) -> Int? {
        for i in 0..<fieldCount where fieldStarts[i] <= position && position < fieldEnds[i] { return i }
        return nil
    }

    func reportInvalidText(_ column: CSVColumn) throws {
        try report(.invalidUTF8, error("invalid UTF-8 (is the file in Latin-1 or another encoding?)", column: column))
    }

    private func report(_ kind: CSVIssue.Kind, _ problem: CSVError) throws {
        guard let issueHandler else { throw problem }
        try issueHandler(CSVIssue(kind: kind, error: problem))
    }

    /// The record is long enough that it may be over the line cap or hold a field over the field cap.
    private func checkLengths() throws {
        if recordEnd - recordStart > limits.maxLineBytes {
            throw CSVError(
                file: fileName, line: line,
                reason: "record longer than the line-length cap of \(CSVLimits.describe(bytes: limits.maxLineBytes))",
                exceededLimit: .lineBytes)
        }
        for i in 0..<fieldCount where fieldEnds[i] - fieldStarts[i] > limits.maxFieldBytes {
            throw CSVError(
                file: fileName, line: line, column: i + 1, columnName: headerName(i),
                reason: "field longer than the field-length cap of \(CSVLimits.describe(bytes: limits.maxFieldBytes))",
                exceededLimit: .fieldBytes)
        }
    }

    private func growFields() {
        let newCapacity = fieldCapacity * 2
        let starts = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity)
        let ends = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity)
        let escaped = UnsafeMutablePointer<Bool>.allocate(capacity: newCapacity)
        starts.update(from: fieldStarts, count: fieldCapacity)
        ends.update(from: fieldEnds, count: fieldCapacity)
        escaped.update(from: fieldEscaped, count: fieldCapacity)
        fieldStarts.deallocate()
        fieldEnds.deallocate()
        fieldEscaped.deallocate()
        fieldStarts = starts
        fieldEnds = ends
        fieldEscaped = escaped
        fieldCapacity = newCapacity
    }

    /// Parses one record starting at `start`. Nothing in the buffer is modified until the whole record is
    /// available, so on `.needMore` the caller refills and the record is parsed again from its start.
    private func parseRecord() throws -> Outcome {
        let lf = Self.lf, cr = Self.cr, quote = Self.quote, comma = Self.comma
        let buf = buffer
        let end = self.end
        let eof = atEOF
        var p = start

        // Blank lines between records are skipped (and counted).
        while true {
            if p >= end {
                start = p
                return eof ? .end : .needMore
            }
            let c = buf[p]
            if c == lf {
                p += 1
                nextLine += 1
            } else if c == cr {
                if p + 1 < end {
                    p += buf[p + 1] == lf ? 2 : 1
                } else if eof {
                    p += 1
                } else {
                    start = p
                    return .needMore
                }
                nextLine += 1
            } else {
                break
            }
        }
        start = p
        let recordLine = nextLine
        var breaks = 0  // line breaks inside quoted fields of this record
        var count = 0

        fields: while true {
            if count == fieldCapacity { growFields() }
            // Spaces before an opening quote are tolerated (` "x"`): look past them for the quote.
            var q = p
            while q < end, buf[q] == 0x20 || buf[q] == 0x09 { q += 1 }
            if q >= end, !eof { return .needMore }
            if q < end, buf[q] == quote {
                p = q
                let quoteLine = recordLine + breaks
                p += 1
                let contentStart = p
                var escaped = false
                var contentEnd = p
                while true {
                    if p >= end {
                        if eof {
                            throw CSVError(
                                file: fileName, line: quoteLine, column: count + 1, columnName: headerName(count),
                                reason: "unterminated quoted field: the quote opened here is never closed")
                        }
                        return .needMore
                    }
                    let c = buf[p]
                    if c == quote {
                        if p + 1 < end {
                            if buf[p + 1] == quote {
                                escaped = true
                                p += 2
                                continue
                            }
                        } else if !eof {
                            return .needMore
                        }
                        contentEnd = p
                        p += 1
                        break
                    }
                    if c == lf { breaks += 1 }
                    p += 1
                }
                fieldStarts[count] = contentStart
                fieldEnds[count] = contentEnd
                fieldEscaped[count] = escaped
                count += 1
                while p < end, buf[p] == 0x20 || buf[p] == 0x09 { p += 1 }  // and spaces after the closing one
                if p >= end {
                    if eof { break fields }
                    return .needMore
                }
                let c = buf[p]
                if c == comma {
                    p += 1
                    continue fields
                }
                if c == lf || c == cr { break fields }
                throw CSVError(
                    file: fileName, line: recordLine + breaks, column: count, columnName: headerName(count - 1),
                    reason: "unexpected character after the closing quote of a quoted field")
            } else {
                let fieldStart = p
                while p < end {
                    let c = buf[p]
                    // Fast path: letters, digits, '.', '-', ':' are all above ','.
                    if c > comma { p += 1; continue }
                    if c == comma || c == lf || c == cr || c == quote { break }
                    p += 1
                }
                if p >= end {
                    if !eof { return .needMore }
                    fieldStarts[count] = fieldStart
                    fieldEnds[count] = p
                    fieldEscaped[count] = false
                    count += 1
                    break fields
                }
                let c = buf[p]
                if c == quote {
                    throw CSVError(
                        file: fileName, line: recordLine + breaks, column: count + 1, columnName: headerName(count),
                        reason: "stray quote inside an unquoted field (quote the whole field and double inner quotes)")
                }
                fieldStarts[count] = fieldStart
                fieldEnds[count] = p
                fieldEscaped[count] = false
                count += 1
                if c == comma {
                    p += 1
                    continue fields
                }
                break fields
            }
        }

        // Consume the line end (absent at the end of the input).
        let contentEnd = p
        if p < end {
            if buf[p] == lf {
                p += 1
            } else if p + 1 < end {
                p += buf[p + 1] == lf ? 2 : 1
            } else if eof {
                p += 1
            } else {
                return .needMore
            }
            breaks += 1
        }

        fieldCount = count
        line = recordLine
        nextLine = recordLine + breaks
        recordStart = start
        recordEnd = contentEnd
        start = p
        return .record
    }

    /// Turns `""` into `"` in place (the result is never longer than the input).
    private func unescape(_ i: Int) {
        var read = fieldStarts[i]
        var write = read
        let end = fieldEnds[i]
        while read < end {
            let c = buffer[read]
            buffer[write] = c
            write += 1
            read += c == Self.quote ? 2 : 1
        }
        fieldEnds[i] = write
    }

    private func headerName(_ index: Int) -> String? {
        index >= 0 && index < header.count ? header[index] : nil
    }

    private func checkExtraFieldsEmpty() throws {
        for i in headerCount..<fieldCount where !bytes(CSVColumn(index: i, name: "")).isEmpty {
            throw CSVError(
                file: fileName, line: line, column: i + 1,
                reason: "record has \(fieldCount) fields but the header has \(headerCount) columns")
        }
    }
}
