import Foundation

/// A `mock-server` child process: started from the build folder, ready line read from stdout.
final class MockServerProcess {
    let process = Process()
    private let stdout = Pipe()
    private let stderr = Pipe()
    private(set) var readyLine: String?
    private(set) var readyAfter: Duration?

    /// The built binary next to the test bundle (`.build/<config>/mock-server`).
    static var binary: URL {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return executable.deletingLastPathComponent().appendingPathComponent("mock-server")
    }

    init(arguments: [String]) {
        process.executableURL = Self.binary
        process.arguments = arguments
        process.standardOutput = stdout
        process.standardError = stderr
    }

    /// Starts the process and waits up to `timeout` for the first stdout line.
    func start(timeout: Duration = .seconds(5)) throws {
        let clock = ContinuousClock()
        let began = clock.now
        try process.run()
        var buffer = Data()
        let handle = stdout.fileHandleForReading
        while clock.now - began < timeout {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            if let newline = buffer.firstIndex(of: 10) {
                readyLine = String(decoding: buffer[..<newline], as: UTF8.self)
                readyAfter = clock.now - began
                return
            }
        }
    }

    var port: UInt16? {
        guard let line = readyLine, let colon = line.lastIndex(of: ":") else { return nil }
        return UInt16(line[line.index(after: colon)...])
    }

    func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for exit (without blocking a thread of the test pool) and returns the status and
    /// everything written to stderr.
    func waitForExit() async -> (status: Int32, stderr: String) {
        await ChildProcess.waitForExit(process)
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, errors)
    }

    /// Runs to completion (for commands that exit by themselves).
    static func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(binary, arguments)
    }
}
