import CLISupport
import Testing

/// Exact help text for small specs; any layout change must update these on purpose.
@Suite struct HelpFormatterTests {
    @Test func positionalCommandHelpIsRenderedExactly() {
        let expected = """
            OVERVIEW: Copy files.

            USAGE: copy [--force] <source> <destination> [<extra> ...]

            ARGUMENTS:
              <source>       File to copy.
              <destination>  Where to copy it.
              <extra>        More files.

            OPTIONS:
              -f, --force    Overwrite.
              -h, --help     Show help information.
            """
        #expect(HelpFormatter.render(Fixtures.copy, commandPath: ["copy"]) == expected)
    }

    @Test func subcommandListingIsRenderedExactly() {
        let expected = """
            OVERVIEW: Check a client against the DialogMock conformance suites.

            USAGE: conformance [--quiet] <subcommand>

            OPTIONS:
              -q, --quiet  Print only the summary.
              -h, --help   Show help information.

            SUBCOMMANDS:
              list         List the cases.
              lint         Check the suite definitions.
              run          Run cases against a client.

              See 'conformance help <subcommand>' for detailed help.
            """
        #expect(HelpFormatter.render(Fixtures.conformance, commandPath: ["conformance"]) == expected)
    }

    @Test func longUsageWrapsAndDefaultsAreShown() {
        let expected = """
            OVERVIEW: Serve the DialogMock protocols on one port.

            USAGE: mock-server [--host <host>] [--port <port>] [--scenario <name-or-file>]
                               [--api-key <key> ...] [--time-scale <factor>]
                               [--log-level <level>] [--verbose]

            OPTIONS:
              --host <host>             Address to bind. (default: 127.0.0.1)
              -p, --port <port>         Port to listen on; 0 picks a free port. (default:
                                        8765)
              --scenario <name-or-file>
                                        Scenario to serve.
              --api-key <key>           Accepted API key. (repeatable)
              --time-scale <factor>     Multiply every scripted delay. (default: 1.0)
              --log-level <level>       Log verbosity. (default: info)
              -v, --verbose             Log more.
              -h, --help                Show help information.
            """
        #expect(HelpFormatter.render(Fixtures.mockServer, commandPath: ["mock-server"]) == expected)
    }

    @Test func handWrittenUsageAndDiscussionAreUsedAsGiven() {
        let spec = CommandSpec(
            name: "lint", abstract: "Check the suite.", usage: "conformance lint [--fix]",
            options: [.flag("fix", help: "Rewrite files in place.")],
            discussion: "Reports every problem, then exits 2 if any was found.")
        let expected = """
            OVERVIEW: Check the suite.

            Reports every problem, then exits 2 if any was found.

            USAGE: conformance lint [--fix]

            OPTIONS:
              --fix       Rewrite files in place.
              -h, --help  Show help information.
            """
        #expect(HelpFormatter.render(spec, commandPath: ["conformance", "lint"]) == expected)
    }

    @Test func subcommandUsageStartsWithTheFullCommandPath() {
        let run = Fixtures.conformance.subcommands[2]
        let usage = HelpFormatter.usage(for: run, commandPath: ["conformance", "run"])
        #expect(
            usage == """
                conformance run [--protocol <protocol>] [--client <command>]
                                       [--case <glob> ...] [--strict] [--jobs <n>]
                """)
    }

    @Test func everyLineFitsTheLineWidth() {
        let help = HelpFormatter.render(Fixtures.mockServer, commandPath: ["mock-server"])
        #expect(help.split(separator: "\n").allSatisfy { $0.count <= HelpFormatter.lineWidth })
    }
}
