import Foundation

/// A whole GTFS file parsed in memory: enough for the tests' small feeds (the real streaming reader
/// lives in GTFSCSV). Handles a UTF-8 BOM, CRLF, quoted fields with commas, quotes and line breaks.
struct CSVTable {
    let header: [String]
    let rows: [[String]]
    private let index: [String: Int]

    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try self.init(bytes: [UInt8](data), name: path)
    }

    init(bytes input: [UInt8], name: String) throws {
        var bytes = input[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var i = bytes.startIndex
        func endField() {
            record.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        while i < bytes.endIndex {
            let b = bytes[i]
            if quoted {
                if b == 34 {
                    if i + 1 < bytes.endIndex && bytes[i + 1] == 34 {
                        field.append(34)
                        i += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(b)
                }
            } else if b == 34 && field.isEmpty {
                quoted = true
            } else if b == 44 {
                endField()
            } else if b == 10 || b == 13 {
                if b == 13 && i + 1 < bytes.endIndex && bytes[i + 1] == 10 { i += 1 }
                endField()
                records.append(record)
                record = []
            } else {
                field.append(b)
            }
            i += 1
        }
        if quoted { throw CSVTableError(message: "\(name): unterminated quote") }
        if !field.isEmpty || !record.isEmpty {
            endField()
            records.append(record)
        }
        guard let first = records.first else { throw CSVTableError(message: "\(name): empty file") }
        header = first.map { $0.trimmingCharacters(in: .whitespaces) }
        for (n, r) in records.enumerated() where r.count != header.count {
            throw CSVTableError(message: "\(name): record \(n + 1) has \(r.count) fields, header has \(header.count)")
        }
        rows = Array(records.dropFirst())
        var index: [String: Int] = [:]
        for (k, column) in header.enumerated() { index[column] = k }
        self.index = index
    }

    func has(_ column: String) -> Bool { index[column] != nil }

    /// The column's values, "" when the column is absent.
    func column(_ name: String) -> [String] {
        guard let k = index[name] else { return rows.map { _ in "" } }
        return rows.map { $0[k] }
    }

    func value(_ row: [String], _ column: String) -> String {
        guard let k = index[column] else { return "" }
        return row[k]
    }

    /// Rows whose column equals the value.
    func rows(where column: String, is value: String) -> [[String]] {
        guard let k = index[column] else { return [] }
        return rows.filter { $0[k] == value }
    }
}

struct CSVTableError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// GTFS `H:MM:SS` / `HH:MM:SS` (hours may exceed 24) to seconds; nil when malformed.
func gtfsSeconds(_ text: String) -> Int? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 3, (1...3).contains(parts[0].count), parts[1].count == 2, parts[2].count == 2,
        let h = Int(parts[0]), let m = Int(parts[1]), let s = Int(parts[2]), h >= 0, m < 60, s < 60
    else { return nil }
    return h * 3600 + m * 60 + s
}
