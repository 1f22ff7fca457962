import Foundation

/// The end-of-central-directory record of a zip file (and its ZIP64 form), read for the one figure
/// ZIPFoundation does not expose: how many entries the central directory declares. Its iteration stops quietly
/// at the first record it cannot read, so a damaged directory would otherwise look like a zip with fewer files.
enum ZipEndRecord {
    private static let endSignature: UInt32 = 0x0605_4B50
    private static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    private static let zip64EndSignature: UInt32 = 0x0606_4B50
    /// The record is 22 bytes and may be followed by a comment of up to 65,535.
    private static let searchBytes = 22 + 0xFFFF

    /// The number of entries the zip at `path` declares, or nil when no end record is found (not a zip).
    static func entryCount(ofZipAt path: String) -> UInt64? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { return nil }
        let start = size > UInt64(searchBytes) ? size - UInt64(searchBytes) : 0
        guard (try? handle.seek(toOffset: start)) != nil, let tail = try? handle.readToEnd() else { return nil }
        let bytes = [UInt8](tail)
        guard bytes.count >= 22 else { return nil }
        // The last signature whose record (with its comment) ends exactly at the end of the file.
        for at in stride(from: bytes.count - 22, through: 0, by: -1)
        where le32(bytes, at) == endSignature && at + 22 + le16(bytes, at + 20) == bytes.count {
            let count = UInt64(le16(bytes, at + 10))
            guard count == 0xFFFF, at >= 20, le32(bytes, at - 20) == zip64LocatorSignature else { return count }
            // ZIP64: the locator points at the ZIP64 end record, which holds the 64-bit count.
            let offset = le64(bytes, at - 20 + 8)
            guard (try? handle.seek(toOffset: offset)) != nil, let record = try? handle.read(upToCount: 40),
                record.count == 40
            else { return nil }
            let recordBytes = [UInt8](record)
            guard le32(recordBytes, 0) == zip64EndSignature else { return nil }
            return le64(recordBytes, 32)
        }
        return nil
    }

    private static func le16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }

    private static func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
    }

    private static func le64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * $1) }
    }
}
