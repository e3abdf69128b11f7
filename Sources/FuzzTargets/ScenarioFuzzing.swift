import ProtocolModel
import ScenarioEngine

enum ScenarioFuzzing {
    /// The bytes as a scenario file, as a fault object (`POST /_mock/faults`) and as a journal
    /// for `--replay`: each is loaded or refused with an error that names a place in the file.
    static func run(_ bytes: [UInt8]) {
        do {
            _ = try Scenario.load(bytes: bytes, file: "fuzz.json") as Scenario
        } catch {
            check(error)
        }
        do {
            _ = try FaultSpec.load(bytes: bytes, file: "fault.json") as FaultSpec
        } catch {
            check(error)
        }
        if let journal = try? JournalEntry.decodeLines(String(decoding: bytes, as: UTF8.self)) {
            _ = Scenario.replay(journal: journal)
        }
    }

    private static func check(_ error: ScenarioError) {
        precondition(error.file == "fuzz.json" || error.file == "fault.json", "a load error that names no file")
        precondition(!error.description.isEmpty, "a load error without a message")
    }
}
