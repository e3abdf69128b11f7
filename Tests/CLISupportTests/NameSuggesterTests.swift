import Testing

@testable import CLISupport

/// The edit distance behind "did you mean".
@Suite struct NameSuggesterTests {
    @Test func editDistanceCountsInsertionsDeletionsAndSubstitutions() {
        #expect(NameSuggester.editDistance("", "abc") == 3)
        #expect(NameSuggester.editDistance("port", "port") == 0)
        #expect(NameSuggester.editDistance("prot", "port") == 2)
        #expect(NameSuggester.editDistance("kitten", "sitting") == 3)
    }

    @Test func onlyCandidatesWithinTwoEditsAreSuggested() {
        #expect(NameSuggester.closest(to: "--prot", among: ["--host", "--port"]) == "--port")
        #expect(NameSuggester.closest(to: "--colour", among: ["--host", "--port"]) == nil)
    }

    @Test func tiesGoToTheEarlierCandidate() {
        #expect(NameSuggester.closest(to: "--hast", among: ["--host", "--hash"]) == "--host")
    }
}
