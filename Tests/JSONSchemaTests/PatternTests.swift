import JSONSchema
import Testing
import WireJSON

/// `pattern` follows ECMA-262, not ICU, where the two differ.
@Suite struct PatternTests {
    private func matches(_ pattern: String, _ text: String) throws -> Bool {
        try JSONSchemaValidator(schema: ["pattern": .string(pattern)]).isValid(.string(text))
    }

    @Test func dollarIsTheEndOfInputOnly() throws {
        #expect(try matches("^abc$", "abc"))
        #expect(try !matches("^abc$", "abc\n"))
        #expect(try matches("[$]", "a$"))
        #expect(try matches("\\$", "a$"))
    }

    @Test func digitAndWordClassesAreASCII() throws {
        #expect(try matches("^\\d+$", "42"))
        #expect(try !matches("^\\d+$", "\u{9EA}\u{9E8}"))
        #expect(try matches("^\\D$", "\u{7C0}"))
        #expect(try matches("^\\w$", "a"))
        #expect(try !matches("^\\w$", "é"))
        #expect(try matches("^\\W$", "é"))
        #expect(try matches("^[\\d_]+$", "1_2"))
        #expect(try !matches("^[\\w]+$", "é"))
    }

    @Test func whitespaceClassIsECMAs() throws {
        for space in ["\t", "\u{B}", "\u{C}", "\u{A0}", "\u{FEFF}", "\n", "\u{2029}", "\u{2003}"] {
            #expect(try matches("^\\s$", space), "\(space.unicodeScalars.first!.value)")
            #expect(try !matches("^\\S$", space))
        }
        #expect(try !matches("^\\s$", "\u{1}"))
        #expect(try matches("^\\S$", "\u{2013}"))
    }

    @Test func unicodePropertiesAndControlEscapesWork() throws {
        #expect(try matches("^\\p{Letter}+$", "école"))
        #expect(try !matches("^\\p{Letter}+$", "l'école"))
        #expect(try matches("^\\cC$", "\u{3}"))
        #expect(try matches("^\\p{digit}+$", "\u{9EA}\u{9E8}"))
    }

    @Test func matchingIsUnanchored() throws {
        #expect(try matches("a+", "xxaxx"))
        #expect(try !matches("^a", "ba"))
    }
}

/// Group syntax `Regex` accepts but ECMA-262 does not is an invalid pattern.
@Suite struct NonECMAGroupTests {
    @Test(arguments: ["(?P<name>a)", "(?P=name)", "(?i)a", "(?ims)a", "(?>a)", "(?#comment)a"])
    func isRejected(_ pattern: String) {
        #expect(throws: (any Error).self) { try JSONSchemaValidator(schema: ["pattern": .string(pattern)]) }
    }

    @Test(arguments: ["(?:a)", "(?=a)", "(?!a)", "(?<name>a)\\k<name>", "[(?P]"])
    func ecmaGroupsCompile(_ pattern: String) throws {
        _ = try JSONSchemaValidator(schema: ["pattern": .string(pattern)])
    }

    /// A known limit: the standard library's `Regex` has no lookbehind yet, so a pattern with
    /// one is a schema error (never a silent mismatch). No shipped schema uses one.
    @Test(arguments: ["(?<=a)b", "(?<!a)b"])
    func lookbehindIsASchemaError(_ pattern: String) {
        #expect(throws: (any Error).self) { try JSONSchemaValidator(schema: ["pattern": .string(pattern)]) }
    }
}

/// ECMA-262 constructs `Regex` spells differently.
@Suite struct TranslatedConstructTests {
    private func matches(_ pattern: String, _ text: String) throws -> Bool {
        try JSONSchemaValidator(schema: ["pattern": .string(pattern)]).isValid(.string(text))
    }

    @Test func emptyClassesMatchNothingOrAnything() throws {
        #expect(try !matches("a[]", "a"))
        #expect(try matches("^[^]$", "\n"))
        #expect(try !matches("^[^]$", ""))
    }

    @Test func controlEscapesOfBothCases() throws {
        #expect(try matches("^\\cc$", "\u{3}"))
        #expect(try matches("^[\\cJ]$", "\n"))
        #expect(try !matches("^\\cC$", "C"))
    }
}
