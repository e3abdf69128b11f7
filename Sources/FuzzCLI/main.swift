import FuzzTargets
import Glibc

// libFuzzer's driver of the fuzz targets: `DIALOGMOCK_FUZZ_TARGET` names the target, every
// other argument is libFuzzer's (corpus directories, -runs=, -max_total_time=, -dict=, …).
// With `DIALOGMOCK_FUZZ_WRITE_SEEDS=DIR` it writes the target's seeds into DIR and its
// dictionary to DIR.dict instead (what `.ci/fuzz` does first).
//
// Release builds link this file's `main` (SwiftPM points `main` at it), which starts libFuzzer
// with `LLVMFuzzerRunDriver`; debug builds link libFuzzer's own `main`. Either way libFuzzer
// calls the two C entry points below.

/// libFuzzer's entry point for a program that has its own `main` (it ships in libFuzzer).
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

func fail(_ message: String, code: Int32) -> Never {
    let line = "dialogmock-fuzz: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(code)
}

/// The target this process fuzzes (set once, before the first input).
nonisolated(unsafe) var selectedTarget = FuzzTarget.wireJSON

/// Reads the environment once, before the first input: the target, or the seeds to write.
@_cdecl("LLVMFuzzerInitialize")
func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<Int32>?,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> Int32 {
    guard let name = getenv("DIALOGMOCK_FUZZ_TARGET").map({ String(cString: $0) }),
        let target = FuzzTarget(rawValue: name)
    else {
        fail(
            "set DIALOGMOCK_FUZZ_TARGET to one of: " + FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "),
            code: 2)
    }
    if let directory = getenv("DIALOGMOCK_FUZZ_WRITE_SEEDS").map({ String(cString: $0) }) {
        let root = getenv("DIALOGMOCK_FUZZ_ROOT").map { String(cString: $0) } ?? "."
        do {
            try FuzzSeeds(root: root).write(target, seedsTo: directory, dictionaryTo: directory + ".dict")
        } catch {
            fail("cannot write the seeds to \(directory): \(error)", code: 1)
        }
        exit(0)
    }
    selectedTarget = target
    return 0
}

/// One input.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    selectedTarget.run(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzerTestOneInput))
