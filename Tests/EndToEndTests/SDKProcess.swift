import Foundation
import MockServer

/// Runs the official SDKs' Python flows (Tests/EndToEndTests/Clients) against a mock.
enum SDKProcess {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let clients = root.appendingPathComponent("Tests/EndToEndTests/Clients")
    static let fixtures = root.appendingPathComponent("Tests/EndToEndTests/Fixtures")
    static let speech = root.appendingPathComponent("Tests/WireAudioTests/Fixtures/speech-16k.wav").path

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The venv's python, created once by `.ci/sdk-venv` (pip from PyPI the first time).
    static let python: Result<String, Failure> = {
        let result = runBlocking(["/bin/bash", root.appendingPathComponent(".ci/sdk-venv").path])
        guard result.status == 0, let path = result.stdout.split(separator: "\n").last else {
            return .failure(Failure(description: ".ci/sdk-venv failed: \(result.stderr)"))
        }
        return .success(String(path))
    }()

    /// Runs `script` with `arguments`; returns the JSON object printed on its last stdout line.
    static func flow(_ script: String, _ arguments: [String], timeout: TimeInterval = 90) async throws -> [String: Any] {
        let python = try python.get()
        let result = await run([python, clients.appendingPathComponent(script).path] + arguments, timeout: timeout)
        guard result.status == 0, let line = result.stdout.split(separator: "\n").last,
              let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else {
            throw Failure(description: "\(script) \(arguments.first ?? "") exited \(result.status)\nstdout: \(result.stdout.suffix(2000))\nstderr: \(result.stderr.suffix(3000))")
        }
        return object
    }

    /// Runs a command with stdout and stderr in temporary files (no pipe can fill up), waiting
    /// without blocking a thread of the test runner's pool.
    static func run(_ command: [String], timeout: TimeInterval) async -> (status: Int32, stdout: String, stderr: String) {
        let directory = FileManager.default.temporaryDirectory
        let outURL = directory.appendingPathComponent("e2e-\(UUID().uuidString).out")
        let errURL = directory.appendingPathComponent("e2e-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        guard let out = try? FileHandle(forWritingTo: outURL), let err = try? FileHandle(forWritingTo: errURL) else {
            return (-1, "", "cannot create output files")
        }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return (-1, "", "\(error)") }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? out.close()
        try? err.close()
        let stdout = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        return (process.terminationStatus, stdout, stderr)
    }

    /// Runs a short setup command to completion on the calling thread.
    static func runBlocking(_ command: [String]) -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch { return (-1, "", "\(error)") }
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    /// A mock on 127.0.0.1:0 with a scenario file from Fixtures (or the default).
    static func startMock(scenario: String? = nil) throws -> MockServer {
        var configuration = MockServer.Configuration()
        // The tests validate every frame the mock sent, audio payloads included.
        configuration.journalAudio = true
        if let scenario {
            let path = fixtures.appendingPathComponent(scenario).path
            configuration.scenarioSource = (path, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        let server = try MockServer(configuration: configuration)
        try server.start()
        return server
    }
}
