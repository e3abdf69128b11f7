import Testing

@testable import ScenarioEngine

@Suite struct SeededRandomTests {
    @Test func sameSeedGivesSameSequence() {
        var a = SeededRandom(seed: 42)
        var b = SeededRandom(seed: 42)
        for _ in 0..<100 { #expect(a.next() == b.next()) }
    }
}
