// The fuzz executable. Built with `-sanitize=fuzzer,address -DFUZZING` (scripts/fuzz, into .build-fuzz) it hands
// control to libFuzzer; in the normal build it replays input files through a target, without the fuzzer.
// The target is named by TRANSIT_FUZZ_TARGET (FuzzTarget's raw values).
import FuzzTargets

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The target of this process, read once from the environment.
let selectedTarget: FuzzTarget? = getenv("TRANSIT_FUZZ_TARGET").flatMap { FuzzTarget(rawValue: String(cString: $0)) }

/// libFuzzer's callback: one input through the selected target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let target = selectedTarget else {
        fail("transit-fuzz: set TRANSIT_FUZZ_TARGET to one of \(targetNames)", status: 2)
    }
    target.run(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}

/// Writes `message` to standard error and exits.
func fail(_ message: String, status: Int32) -> Never {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(status)
}

let targetNames = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")

#if FUZZING
/// libFuzzer's driver, from the fuzzer runtime that `-sanitize=fuzzer` links.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
#endif

@main
struct TransitFuzz {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--write-seeds", arguments.count == 2 {
            writeSeeds(into: arguments[1])
            return
        }
        #if FUZZING
        // SwiftPM links an executable's `main` to this function, so libFuzzer's own `main` is never pulled
        // in; the driver is started from here instead, with the process's arguments.
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzTestOneInput))
        #else
        replay(arguments)
        #endif
    }

    /// Runs every file named through the selected target: what libFuzzer does with file arguments, without
    /// the sanitizers.
    static func replay(_ paths: [String]) {
        guard let target = selectedTarget, !paths.isEmpty else {
            fail("usage: TRANSIT_FUZZ_TARGET=<\(targetNames)> transit-fuzz FILE... | --write-seeds DIR", status: 2)
        }
        for path in paths {
            guard let bytes = readFile(path) else {
                fail("transit-fuzz: cannot read \(path)", status: 1)
            }
            target.run(bytes)
        }
        print("transit-fuzz: \(paths.count) input(s) through \(target.rawValue), no crash")
    }

    /// Writes the selected target's generated seeds (FuzzTarget.generatedSeeds) into the existing folder `path`.
    static func writeSeeds(into path: String) {
        guard let target = selectedTarget else {
            fail("transit-fuzz: set TRANSIT_FUZZ_TARGET to one of \(targetNames)", status: 2)
        }
        for seed in target.generatedSeeds {
            guard let file = fopen(path + "/" + seed.name, "wb") else {
                fail("transit-fuzz: cannot write into \(path)", status: 1)
            }
            _ = seed.bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            fclose(file)
        }
    }

    static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if n < chunk.count { break }
        }
        return bytes
    }
}
