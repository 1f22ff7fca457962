import Foundation
import GTFSCSV
import ZIPFoundation

/// The .txt files of one GTFS feed, in a folder or a zip archive, opened as streaming CSV readers.
/// Zip entries are inflated on a helper thread while the reader parses (see `ZipEntryByteSource`), so
/// nothing is extracted to disk and the import uses the second core for decompression.
///
/// The caps of `ImportLimits` on file size and compression ratio are checked here against the sizes a zip
/// declares, before anything is read; while inflating, an entry may not pass the size it declared (a zip may
/// lie), so memory and time stay bounded by the declared sizes whatever the bytes say. A zip whose central
/// directory cannot be read through, or that holds a file twice, is refused with its own error.
final class FeedFiles {
    static let requiredFiles = ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt"]

    let path: String
    let limits: ImportLimits
    private let zipURL: URL?
    /// File name (e.g. `stops.txt`) -> path inside the archive, or full path in the folder.
    private var files: [String: String] = [:]
    private var sizes: [String: Int] = [:]
    private var compressedSizes: [String: Int] = [:]

    init(path: String, limits: ImportLimits = ImportLimits()) throws {
        self.path = path
        self.limits = limits
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImportError("\(path): no such file or folder")
        }
        if isDirectory.boolValue {
            zipURL = nil
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            for name in names where name.hasSuffix(".txt") {
                let full = (path as NSString).appendingPathComponent(name)
                files[name] = full
                sizes[name] = (try? FileManager.default.attributesOfItem(atPath: full)[.size] as? Int) ?? nil
            }
        } else {
            let url = URL(fileURLWithPath: path)
            zipURL = url
            let archive: Archive
            do {
                archive = try Archive(url: url, accessMode: .read)
            } catch {
                throw ImportError("\(path): not a readable zip archive (\(error))")
            }
            // Feeds are sometimes zipped with a top folder: take the shallowest entry of each name. Two entries
            // of one name at that depth (the same path twice, or two top folders) leave the feed ambiguous.
            var depths: [String: Int] = [:]
            var ambiguous: [String: [String]] = [:]
            var entriesRead: UInt64 = 0
            for entry in archive {
                entriesRead += 1
                guard entry.type == .file else { continue }
                let components = entry.path.split(separator: "/")
                guard let last = components.last, last.hasSuffix(".txt"),
                    !components.contains("__MACOSX")
                else { continue }
                let name = String(last)
                if let depth = depths[name] {
                    if depth == components.count { ambiguous[name, default: [files[name]!]].append(entry.path) }
                    if depth <= components.count { continue }
                    ambiguous[name] = nil
                }
                depths[name] = components.count
                files[name] = entry.path
                sizes[name] = Int(clamping: entry.uncompressedSize)
                compressedSizes[name] = Int(clamping: entry.compressedSize)
            }
            // ZIPFoundation's iteration ends quietly at the first record it cannot read: compare with the count
            // the end-of-central-directory record declares.
            if let declared = ZipEndRecord.entryCount(ofZipAt: path), entriesRead < declared {
                throw ImportError(
                    "\(path): corrupt zip archive: its central directory lists \(declared) entries but entry "
                        + "\(entriesRead + 1) cannot be read (the file is damaged or truncated; fetch it again)")
            }
            if let (name, paths) = ambiguous.min(by: { $0.key < $1.key }) {
                let listed = paths.map { "\"\($0)\"" }.joined(separator: ", ")
                throw ImportError(
                    "\(path): the zip holds \(paths.count) entries named \(name) (\(listed)): it is ambiguous "
                        + "which one is the feed's; remove all but one")
            }
        }
        let missing = Self.requiredFiles.filter { files[$0] == nil }
        let hasCalendar = files["calendar.txt"] != nil || files["calendar_dates.txt"] != nil
        if !missing.isEmpty || !hasCalendar {
            var names = missing
            if !hasCalendar { names.append("calendar.txt or calendar_dates.txt") }
            let what = files.isEmpty ? "is empty or not a GTFS feed (no .txt files)" : "is not a complete GTFS feed"
            throw ImportError("\(path): \(what): missing required file(s) \(names.joined(separator: ", "))")
        }
        for name in files.keys.sorted() { try checkDeclaredSize(name) }
    }

    private func displayName(_ name: String) -> String {
        "\(path.hasSuffix("/") ? String(path.dropLast()) : path)/\(name)"
    }

    private func checkDeclaredSize(_ name: String) throws {
        guard let size = sizes[name] else { return }
        if size > limits.maxFileBytes {
            throw ImportError(
                "\(displayName(name)): \(CSVLimits.describe(bytes: size)) uncompressed, over the "
                    + "size cap "
                    + "of \(CSVLimits.describe(bytes: limits.maxFileBytes)) per file "
                    + "(raise it with \(ImportLimits.fileSizeFlag))")
        }
        if let compressed = compressedSizes[name], size >= ImportLimits.ratioExemptBytes,
            Double(size) / Double(max(compressed, 1)) > Double(limits.maxCompressionRatio)
        {
            throw ImportError(
                "\(displayName(name)): inflates \(size / max(compressed, 1))× (from "
                    + "\(CSVLimits.describe(bytes: compressed, approximately: true)) to "
                    + "\(CSVLimits.describe(bytes: size, approximately: true))), over the compression-ratio cap of "
                    + "\(limits.maxCompressionRatio)× per zip entry (raise it with \(ImportLimits.compressionRatioFlag))"
            )
        }
    }

    func has(_ name: String) -> Bool { files[name] != nil }

    /// A reader for `name`, or nil when the feed has no such file. Error locations read `path/name`.
    func reader(_ name: String, onIssue: ((CSVIssue) throws -> Void)? = nil) throws -> CSVReader? {
        guard let location = files[name] else { return nil }
        let source: CSVByteSource
        if let zipURL {
            // The declared size passed the caps (`checkDeclaredSize`); inflating stops just past it, so an entry
            // that lies costs at most its declared size and one chunk.
            let declared = sizes[name] ?? 0
            source = ZipEntryByteSource(
                archiveURL: zipURL, entryPath: location, declaredBytes: declared,
                refusal: "\(displayName(name)): inflates past the \(CSVLimits.describe(bytes: declared)) its zip "
                    + "headers declare (the zip is damaged or lies about its sizes); refused while inflating")
        } else {
            source = try FileByteSource(path: location)
        }
        return try CSVReader(source: source, fileName: displayName(name), limits: limits.csv, onIssue: onIssue)
    }

    /// Uncompressed size in bytes, for progress percentages.
    func size(_ name: String) -> Int? { sizes[name] }
}

/// Streams one zip entry: a helper thread inflates it (ZIPFoundation's consumer closure) into a small queue
/// of chunks that `read` drains, so the CSV reader pulls as from a file and memory stays bounded.
final class ZipEntryByteSource: CSVByteSource {
    private let stream = ZipStream()

    /// Fails with `refusal` once the entry inflates past `declaredBytes`; one that ends short of it, or whose
    /// CRC-32 differs from the one the zip declares, fails as damaged.
    init(archiveURL: URL, entryPath: String, declaredBytes: Int, refusal: String) {
        let stream = self.stream
        let thread = Thread {
            stream.produce(
                archiveURL: archiveURL, entryPath: entryPath, declaredBytes: declaredBytes, refusal: refusal)
        }
        thread.name = "zip-inflate"
        thread.start()
    }

    deinit {
        stream.cancel()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try stream.read(into: buffer)
    }
}

/// The queue between the inflating thread and the reader. `@unchecked Sendable`: every shared property is
/// touched only under `condition`; `current`/`offset` belong to the reading thread alone.
private final class ZipStream: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [Data] = []
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false
    private var current = Data()
    private var offset = 0
    private static let maxQueuedChunks = 4

    private struct Cancelled: Error {}

    private struct OverCap: Error {}

    func produce(archiveURL: URL, entryPath: String, declaredBytes: Int, refusal: String) {
        var produced = 0
        do {
            let archive = try Archive(url: archiveURL, accessMode: .read)
            guard let entry = archive[entryPath] else {
                throw ImportError("\(archiveURL.path): entry \(entryPath) disappeared")
            }
            // Chunks of 256 KiB: a lying entry is stopped at most that far past its declared size.
            let checksum = try archive.extract(entry, bufferSize: 256 << 10, skipCRC32: false) { data in
                produced += data.count
                if produced > declaredBytes { throw OverCap() }
                self.condition.lock()
                defer { self.condition.unlock() }
                while self.chunks.count >= Self.maxQueuedChunks, !self.cancelled { self.condition.wait() }
                if self.cancelled { throw Cancelled() }
                self.chunks.append(data)
                self.condition.broadcast()
            }
            // ZIPFoundation computes the checksum but leaves the comparison to its caller.
            if produced < declaredBytes {
                throw ImportError(
                    "\(archiveURL.path): \(entryPath) inflates to \(produced) bytes, fewer than the "
                        + "\(declaredBytes) its zip headers declare (the zip is damaged)")
            }
            // (0: ZIPFoundation found no data descriptor to read it from; nothing to compare with.)
            if entry.checksum != 0, checksum != entry.checksum {
                throw ImportError(
                    "\(archiveURL.path): \(entryPath) fails its CRC-32 check (the zip is damaged; fetch it again)")
            }
            finish(nil)
        } catch is Cancelled {
            finish(nil)
        } catch is OverCap {
            finish(ImportError(refusal))
        } catch let error as ImportError {
            finish(error)
        } catch {
            finish(ImportError("\(archiveURL.path): cannot inflate \(entryPath): \(error)"))
        }
    }

    private func finish(_ error: (any Error)?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while offset == current.count {
            condition.lock()
            while chunks.isEmpty, !finished { condition.wait() }
            if chunks.isEmpty {
                let failure = self.failure
                condition.unlock()
                if let failure { throw failure }
                return 0
            }
            current = chunks.removeFirst()
            offset = 0
            condition.broadcast()
            condition.unlock()
        }
        let n = min(buffer.count, current.count - offset)
        current.withUnsafeBytes { bytes in
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + offset, byteCount: n)
        }
        offset += n
        return n
    }
}
