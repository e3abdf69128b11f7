import CLISupport
import ConformanceReports
import FoundationEssentials
import Glibc

/// `conformance matrix [--out DIR] [LABEL=]RUN_DIR...`: several runs side by side
/// (``ClientMatrix``) as DIR/matrix.html and DIR/matrix.json.
enum MatrixCommand: AsyncCommand {
    static let output = DefaultedOption(
        "--out", valueName: "DIR", help: "Where matrix.html and matrix.json go.", default: "reports/matrix",
        reader: .text)
    static let configuration = CommandConfiguration(
        name: "matrix",
        abstract: "Put several runs side by side: clients × cases, a verdict per cell, latency p50 per metric.",
        options: [output],
        positionals: [
            PositionalSpec(
                "run-dir", help: "A run's report folder (index.json), as LABEL=DIR to name its column.",
                variadic: true)
        ],
        discussion: "Exit 0 when the files are written, 2 when a folder has no readable index.json.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let runs = arguments.positionals("run-dir").map { text -> (label: String?, folder: String) in
            // LABEL=DIR; a folder whose name holds `=` can be given as ./a=b.
            guard let equals = text.firstIndex(of: "="), !text.hasPrefix("."), !text.hasPrefix("/") else {
                return (nil, text)
            }
            return (String(text[..<equals]), String(text[text.index(after: equals)...]))
        }
        guard !runs.isEmpty else {
            throw CommandLineError("expected at least one run folder", commandPath: ["conformance", "matrix"])
        }
        let output = URL(fileURLWithPath: try arguments.value(of: output))
        do throws(ClientMatrix.Failure) {
            let matrix = try ClientMatrix.read(runs)
            do {
                try MatrixWriter.write(matrix, to: output)
            } catch {
                ConformanceCommand.fail("matrix: cannot write \(output.path): \(error)")
            }
            let cases = Set(matrix.rows.map { "\($0.protocolName)/\($0.id)" }).count
            ConformanceCommand.printLine(
                "conformance matrix: \(matrix.columns.count) runs × \(cases) cases; "
                    + "\(output.appendingPathComponent("matrix.html").path) and matrix.json")
            exit(0)
        } catch {
            ConformanceCommand.fail("matrix: \(error.description)")
        }
    }
}
