// Polls a local file: re-read only when it changed, and never deliver a half-replaced file.
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What identifies a version of a file: a rename over it changes the inode, an in-place write the size or
/// the modification time (nanoseconds).
struct FileSignature: Hashable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64

    init(_ s: stat) {
        device = UInt64(s.st_dev)
        inode = UInt64(s.st_ino)
        size = Int64(s.st_size)
        #if canImport(Darwin)
        modifiedSeconds = Int64(s.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int64(s.st_mtimespec.tv_nsec)
        #else
        modifiedSeconds = Int64(s.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(s.st_mtim.tv_nsec)
        #endif
    }

    /// The signature of the file at `path` now.
    static func of(path: String) -> Result<FileSignature, FetchError> {
        var s = stat()
        guard stat(path, &s) == 0 else { return .failure(FileFetcher.error(errno: errno, path: path)) }
        return .success(FileSignature(s))
    }

    static func of(descriptor: Int32) -> FileSignature? {
        var s = stat()
        guard fstat(descriptor, &s) == 0 else { return nil }
        return FileSignature(s)
    }
}

struct FileFetcher {
    let path: String
    let maxBytes: Int
    /// The version last delivered.
    private var delivered: FileSignature?

    init(path: String, maxBytes: Int) {
        self.path = path
        self.maxBytes = maxBytes
    }

    mutating func fetch() -> FetchOutcome {
        switch FileSignature.of(path: path) {
        case .failure(let error):
            return .failed(error, retryAfter: nil)
        case .success(let current):
            if current == delivered { return .notModified }
        }
        switch FileReader.read(path: path, maxBytes: maxBytes) {
        case .failure(let error):
            return .failed(error, retryAfter: nil)
        case .success(nil):
            return .nothing  // changed while being read: try again next tick, keep what we delivered
        case .success(let read?):
            delivered = read.signature
            return .fetched(bytes: read.bytes, httpDate: nil)
        }
    }

    static func error(errno code: Int32, path: String) -> FetchError {
        if code == ENOENT || code == ENOTDIR { return .fileMissing(path) }
        return .fileUnreadable(path: path, reason: String(cString: strerror(code)))
    }
}

/// Reads a whole file and checks that it stayed the same file, unchanged, while being read.
enum FileReader {
    struct Read {
        var bytes: [UInt8]
        var signature: FileSignature
    }

    /// The bytes and the version read; `.success(nil)` when the file changed or was replaced meanwhile.
    static func read(path: String, maxBytes: Int) -> Result<Read?, FetchError> {
        // O_NONBLOCK: opening a FIFO without a writer would otherwise block the poller for good (and reading
        // it blocks too); only a regular file is read (O_NONBLOCK changes nothing for those).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failure(FileFetcher.error(errno: errno, path: path)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(FileFetcher.error(errno: errno, path: path)) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return .failure(.fileUnreadable(path: path, reason: "\(fileTypeName(info.st_mode)), not a regular file"))
        }
        let before = FileSignature(info)
        guard before.size <= Int64(maxBytes) else { return .failure(.tooLarge(limit: maxBytes)) }
        // One byte more than the size, to notice a file still growing.
        let capacity = Int(before.size) + 1
        var bytes = [UInt8](repeating: 0, count: capacity)
        var count = 0
        while count < capacity {
            let n = bytes.withUnsafeMutableBytes { buffer in
                systemRead(fd, buffer.baseAddress! + count, capacity - count)
            }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(FileFetcher.error(errno: errno, path: path))
            }
            if n == 0 { break }
            count += n
        }
        guard count == Int(before.size), FileSignature.of(descriptor: fd) == before,
            case .success(let now) = FileSignature.of(path: path), now == before
        else { return .success(nil) }
        bytes.removeLast(capacity - count)
        return .success(Read(bytes: bytes, signature: before))
    }
}

/// What a file that is not a regular file is, for the error message.
private func fileTypeName(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: "a FIFO (named pipe)"
    case S_IFDIR: "a directory"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    default: "a special file"
    }
}

/// read(2), named apart from FileReader.read.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #else
    Darwin.read(fd, buffer, count)
    #endif
}
