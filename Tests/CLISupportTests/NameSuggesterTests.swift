import Testing

@testable import CLISupport

/// "Did you mean" for options (the edit distance itself: WireJSONTests' `EditDistanceTests`).
@Suite struct NameSuggesterTests {
    @Test func onlyCandidatesWithinTwoEditsAreSuggested() {
        #expect(NameSuggester.closest(to: "--prot", among: ["--host", "--port"]) == "--port")
        #expect(NameSuggester.closest(to: "--colour", among: ["--host", "--port"]) == nil)
    }

    @Test func tiesGoToTheEarlierCandidate() {
        #expect(NameSuggester.closest(to: "--hast", among: ["--host", "--hash"]) == "--host")
    }
}
