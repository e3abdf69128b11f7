import Testing
import WireJSON

/// The edit distance behind both "did you mean" hints (command line and scenario fields).
@Suite struct EditDistanceTests {
    @Test func countsInsertionsDeletionsAndSubstitutions() {
        #expect("".editDistance(to: "abc") == 3)
        #expect("abc".editDistance(to: "") == 3)
        #expect("port".editDistance(to: "port") == 0)
        #expect("prot".editDistance(to: "port") == 2)
        #expect("kitten".editDistance(to: "sitting") == 3)
    }

    @Test func anAdjacentSwapIsOneEditWhenTranspositionsCount() {
        #expect("prot".editDistance(to: "port", countingTranspositions: true) == 1)
        #expect("tokensPerSecnod".editDistance(to: "tokensPerSecond", countingTranspositions: true) == 1)
        #expect("kitten".editDistance(to: "sitting", countingTranspositions: true) == 3)
        // Optimal string alignment: no substring is edited twice ("ca" → "abc" is 3, not 2).
        #expect("ca".editDistance(to: "abc", countingTranspositions: true) == 3)
    }
}
