import CLISupport
import ConformanceReports
import FoundationEssentials
import Glibc

/// `conformance matrix [--out DIR] [LABEL=]RUN_DIR...`: several runs side by side
/// (``ClientMatrix``) as DIR/matrix.html and DIR/matrix.json.
enum MatrixCommand {
    static func run(_ arguments: ParsedArguments) -> Never {
        let runs = arguments.positionals("run-dir").map { text -> (label: String?, folder: String) in
            // LABEL=DIR; a folder whose name holds `=` can be given as ./a=b.
            guard let equals = text.firstIndex(of: "="), !text.hasPrefix("."), !text.hasPrefix("/") else {
                return (nil, text)
            }
            return (String(text[..<equals]), String(text[text.index(after: equals)...]))
        }
        guard !runs.isEmpty else {
            CommandLineRunner.exit(
                with: CommandLineError("expected at least one run folder", commandPath: ["conformance", "matrix"]),
                spec: ConformanceCommand.spec)
        }
        let output = URL(fileURLWithPath: arguments.value("--out") ?? "reports/matrix")
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
