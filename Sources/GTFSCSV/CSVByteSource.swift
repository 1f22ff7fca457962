#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// At file scope `read` is the C function (inside the class it would be the method).
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// Where a `CSVReader` pulls its bytes from. `read` fills at most `buffer.count` bytes and returns how many
/// it wrote; 0 means end of input.
public protocol CSVByteSource: AnyObject {
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Reads a file through its descriptor with plain `read(2)`, never mapping or loading it whole.
public final class FileByteSource: CSVByteSource {
    public let path: String
    private var fd: Int32

    public init(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw CSVError(file: path, line: 0, reason: "cannot open: \(String(cString: strerror(errno)))")
        }
        self.fd = fd
        self.path = path
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// The file's size in bytes (for progress), or nil when unknown.
    public var size: Int? {
        var info = stat()
        return fstat(fd, &info) == 0 ? Int(info.st_size) : nil
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = systemRead(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw CSVError(file: path, line: 0, reason: "read failed: \(String(cString: strerror(errno)))")
        }
    }
}

/// Serves bytes from memory, at most `maxRead` per call (tests use tiny reads to hit chunk boundaries).
public final class MemoryByteSource: CSVByteSource {
    private let bytes: [UInt8]
    private var offset = 0
    private let maxRead: Int

    public init(_ bytes: [UInt8], maxRead: Int = .max) {
        self.bytes = bytes
        self.maxRead = max(1, maxRead)
    }

    public convenience init(_ text: String, maxRead: Int = .max) {
        self.init(Array(text.utf8), maxRead: maxRead)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, maxRead, bytes.count - offset)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { all in
            buffer.baseAddress!.copyMemory(from: all.baseAddress! + offset, byteCount: n)
        }
        offset += n
        return n
    }
}
