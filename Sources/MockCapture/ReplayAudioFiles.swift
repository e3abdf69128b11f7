import Glibc
package import MockSessions
package import ScenarioEngine
import WireJSON

/// Puts the audio a recorded scenario keeps in files beside it (`audioFile` of its replay
/// steps) back: into JSON frames, base64 at `audioPointer`; a binary frame's bytes as its payload. Runs when the server is made (never
/// on a service thread); a file that cannot be read is a scenario error.
package enum ReplayAudioFiles {
    package static func resolve(
        _ scenario: Scenario, file: String, directory: String
    ) throws(ScenarioFileError) -> Scenario {
        guard var steps = scenario.replay, steps.contains(where: { $0.audioFile != nil }) else { return scenario }
        for index in steps.indices {
            guard let path = steps[index].audioFile else { continue }
            guard let bytes = read(directory + "/" + path) else {
                throw ScenarioFileError(description: "\(file): replay.steps[\(index)].audioFile: cannot read '\(path)'")
            }
            guard case .json(let value) = steps[index].frame, var object = value.objectValue else {
                steps[index].payload = bytes  // a binary frame's recorded bytes
                steps[index].audioFile = nil
                continue
            }
            let tokens = (steps[index].audioPointer ?? "/delta").split(separator: "/").map(String.init)
            object.set(tokens, .string(Base64.encode(bytes)))
            steps[index].frame = .json(.object(object))
            steps[index].audioFile = nil
        }
        var resolved = scenario
        resolved.replay = steps
        return resolved
    }

    private static func read(_ path: String) -> [UInt8]? {
        guard let handle = fopen(path, "rb") else { return nil }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, handle)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return ferror(handle) == 0 ? bytes : nil
    }
}

extension Recordings {
    /// A recorded scenario with the audio of its files beside it put back (``ReplayAudioFiles``),
    /// for scenarios handed over as values (the conformance harness's `recorded:` cases).
    package static func resolvingRecordedAudio(
        _ scenario: Scenario, file: String, directory: String
    ) throws(ScenarioFileError) -> Scenario {
        try ReplayAudioFiles.resolve(scenario, file: file, directory: directory)
    }
}
