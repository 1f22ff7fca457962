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
/// Values are trimmed of spaces and tabs around them, and spaces around a quoted field are tolerated. Errors: an unterminated quote, a quote inside an
/// unquoted field, text after a closing quote, and bad values through the typed accessors, each with file,
/// line and column.
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

    private enum Outcome { case record, needMore, end }

    private static let lf: UInt8 = 0x0A
    private static let cr: UInt8 = 0x0D
    private static let quote: UInt8 = 0x22
    private static let comma: UInt8 = 0x2C

    /// Reads the header right away. `chunkSize` is the size of each read from the source (1 MiB by default);
    /// the buffer grows only when a single record is longer than it.
    public init(source: CSVByteSource, fileName: String, chunkSize: Int = 1 << 20) throws {
        self.source = source
        self.fileName = fileName
        self.chunkSize = max(1, chunkSize)
        self.capacity = self.chunkSize
        buffer = .allocate(capacity: capacity)
        fieldStarts = .allocate(capacity: fieldCapacity)
        fieldEnds = .allocate(capacity: fieldCapacity)
        fieldEscaped = .allocate(capacity: fieldCapacity)
        try skipByteOrderMark()
        if try next() {
            for i in 0..<fieldCount {
                let name = string(CSVColumn(index: i, name: ""))
                header.append(name)
                if columnIndex[name] == nil { columnIndex[name] = i }
            }
            headerCount = fieldCount
            headerLine = line
        }
    }

    public convenience init(path: String, fileName: String? = nil, chunkSize: Int = 1 << 20) throws {
        let name = fileName ?? String(path.split(separator: "/").last ?? Substring(path))
        try self.init(source: FileByteSource(path: path), fileName: name, chunkSize: chunkSize)
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

    private func skipByteOrderMark() throws {
        while end - start < 3, !atEOF { try refill() }
        if end - start >= 3, buffer[start] == 0xEF, buffer[start + 1] == 0xBB, buffer[start + 2] == 0xBF {
            start += 3
        }
    }

    private func refill() throws {
        if start > 0 {
            if end > start { memmove(buffer, buffer + start, end - start) }
            end -= start
            start = 0
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

        for i in 0..<count where fieldEscaped[i] { unescape(i) }
        fieldCount = count
        line = recordLine
        nextLine = recordLine + breaks
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
        for i in headerCount..<fieldCount where bytes(CSVColumn(index: i, name: "")).count > 0 {
            throw CSVError(
                file: fileName, line: line, column: i + 1,
                reason: "record has \(fieldCount) fields but the header has \(headerCount) columns")
        }
    }
}
