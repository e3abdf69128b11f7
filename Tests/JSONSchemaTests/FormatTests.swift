import JSONSchema
import Testing
import WireJSON

/// `format` asserts only when asked to.
@Suite struct FormatTests {
    private func valid(_ format: String, _ text: String) throws -> Bool {
        try JSONSchemaValidator(schema: ["format": .string(format)], assertFormats: true).isValid(.string(text))
    }

    @Test func formatIsAnAnnotationByDefault() throws {
        let validator = try JSONSchemaValidator(schema: ["format": "ipv4"])
        #expect(validator.isValid("not an address"))
    }

    @Test func assertedFormatReportsAMessage() throws {
        let validator = try JSONSchemaValidator(schema: ["format": "uuid"], assertFormats: true)
        let failures = validator.validate("1234")
        #expect(failures.map(\.description) == [#"at (root): keyword format: string "1234" is not a valid "uuid""#])
        #expect(validator.isValid(42))
    }

    @Test func datesAndTimes() throws {
        #expect(try valid("date-time", "1963-06-19T08:30:06.283185Z"))
        #expect(try valid("date-time", "1963-06-19t08:30:06+01:00"))
        #expect(try !valid("date-time", "1963-06-19 08:30:06Z"))
        #expect(try valid("date", "2020-02-29"))
        #expect(try !valid("date", "2021-02-29"))
        #expect(try !valid("date", "2020-1-01"))
        #expect(try valid("time", "23:59:60Z"))
        #expect(try valid("time", "01:29:60+01:30"))
        #expect(try !valid("time", "22:59:60Z"))
        #expect(try !valid("time", "08:30:06"))
        #expect(try valid("duration", "P4DT12H30M5S"))
        #expect(try valid("duration", "P2W"))
        #expect(try !valid("duration", "PT"))
        #expect(try !valid("duration", "P1D2H"))
    }

    @Test func networkNames() throws {
        #expect(try valid("ipv4", "192.168.0.1"))
        #expect(try !valid("ipv4", "256.1.1.1"))
        #expect(try !valid("ipv4", "087.10.0.1"))
        #expect(try valid("ipv6", "::1"))
        #expect(try !valid("ipv6", "fe80::1%eth0"))
        #expect(try valid("hostname", "www.example.com"))
        #expect(try !valid("hostname", "-a.example.com"))
        #expect(try valid("email", "joe.bloggs@example.com"))
        #expect(try valid("email", "joe@[127.0.0.1]"))
        #expect(try !valid("email", "joe..bloggs@example.com"))
        #expect(try !valid("email", "2962"))
    }

    @Test func identifiersAndPointers() throws {
        #expect(try valid("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380"))
        #expect(try !valid("uuid", "2eb8aa08aa9811eab4aa73b441d16380"))
        #expect(try valid("uri", "http://foo.bar/?baz=qux#quux"))
        #expect(try !valid("uri", "//foo.bar/?baz=qux#quux"))
        #expect(try !valid("uri", "http://example.com/a b"))
        #expect(try valid("uri-reference", "/abc"))
        #expect(try !valid("uri-reference", "\\\\WINDOWS\\fileshare"))
        #expect(try valid("json-pointer", "/foo/bar~0/baz~1/%a"))
        #expect(try !valid("json-pointer", "/foo/bar~"))
        #expect(try valid("relative-json-pointer", "0/foo/bar"))
        #expect(try valid("relative-json-pointer", "2#"))
        #expect(try !valid("relative-json-pointer", "/foo/bar"))
        #expect(try valid("regex", "([abc])+\\s+$"))
        #expect(try !valid("regex", "^(abc]"))
        #expect(try valid("made-up-format", "anything"))
    }
}
