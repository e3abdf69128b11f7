import FuzzTargets
import ProtocolModel
import Testing
import WireAudio

/// Every fuzz target on its seeds, on every input libFuzzer once found failing (kept under
/// `Regressions/<target>/`), and on a fixed sample of mutated seeds, so that a regression
/// fails `swift test` and not only a fuzz run.
@Suite struct FuzzTargetsTests {
    static let root: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()
    static let seeds = FuzzSeeds(root: root)

    @Test(arguments: FuzzTarget.allCases)
    func seedsRun(_ target: FuzzTarget) {
        let seeds = Self.seeds.seeds(for: target)
        #expect(seeds.count >= 3, "too few seeds for \(target.rawValue)")
        for seed in seeds { target.run(seed) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func regressionsRun(_ target: FuzzTarget) throws {
        let directory = "\(Self.root)/Tests/FuzzTargetsTests/Regressions/\(target.rawValue)"
        for name in FuzzSeeds.names(in: directory) {
            target.run(try FileBytes.read(path: "\(directory)/\(name)"))
        }
    }

    /// A few hundred byte-level mutations of the seeds (flips, cuts, splices, repeated bytes),
    /// the same every run.
    @Test(arguments: FuzzTarget.allCases)
    func mutatedSeedsRun(_ target: FuzzTarget) {
        var generator = SeededGenerator(seed: 0x5EED_F022)
        let seeds = Self.seeds.seeds(for: target)
        for round in 0..<200 {
            var input = seeds[round % seeds.count]
            for _ in 0..<(1 + round % 4) { Self.mutate(&input, with: &generator, splicing: seeds) }
            target.run(input)
        }
    }

    /// Each protocol's engine has a target of its own (Qwen-Audio-Live was fuzzed as Qwen
    /// realtime, whose dialects never see a live session), with seeds.
    @Test func everyProtocolsEngineIsFuzzedWithSeeds() {
        #expect(Set(FuzzTarget.engines) == [.multimodalDialog, .qwenRealtime, .qwenAudioLive])
        #expect(Set(FuzzTarget.engines).count == DialogProtocol.allCases.count)
        for target in FuzzTarget.engines { #expect(!Self.seeds.seeds(for: target).isEmpty, "\(target)") }
    }

    @Test func dictionariesHoldProtocolNames() {
        #expect(Self.seeds.dictionary(for: .qwenRealtime).contains(#""\x22input_audio_buffer.append\x22""#))
        #expect(Self.seeds.dictionary(for: .multimodalDialog).contains(#""\x22RequestToRespond\x22""#))
        #expect(Self.seeds.dictionary(for: .qwenAudioLive).contains(#""\x22session.input_audio.append\x22""#))
    }

    /// The live seeds speak the live dialect: each opens with its `session.update` (or audio
    /// before it, on purpose once), and every client event of the protocol model is in one.
    @Test func liveSeedsCoverEveryClientEvent() {
        let seeds = Self.seeds.seeds(for: .qwenAudioLive)
        let texts = seeds.flatMap { EngineInput.parse($0).steps }.compactMap { step -> String? in
            guard case .text(let bytes) = step else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
        for event in QwenAudioLiveClientEvent.allCases {
            #expect(texts.contains { $0.contains(#""type":"\#(event.rawValue)""#) }, "\(event.rawValue)")
        }
    }

    /// `.ci/fuzz` runs every target by default and accepts no other.
    @Test func theFuzzScriptListsEveryTarget() throws {
        let script = String(decoding: try FileBytes.read(path: "\(Self.root)/.ci/fuzz"), as: UTF8.self)
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("all=(") })
        let listed = line.dropFirst("all=(".count).prefix { $0 != ")" }.split(separator: " ").map(String.init)
        #expect(listed == FuzzTarget.allCases.map(\.rawValue))
    }

    @Test func engineInputRoundTrips() {
        let steps: [EngineInput.Step] = [
            .text(Array("{}".utf8)), .binary([0, 1, 2]), .wait(milliseconds: 200), .close,
        ]
        let parsed = EngineInput.parse(EngineInput.encode(variant: 9, steps))
        #expect(parsed.variant == 9)
        #expect(parsed.steps == steps)
    }

    static func mutate(_ input: inout [UInt8], with generator: inout SeededGenerator, splicing seeds: [[UInt8]]) {
        guard !input.isEmpty else {
            input = [UInt8.random(in: 0...255, using: &generator)]
            return
        }
        let at = Int.random(in: 0..<input.count, using: &generator)
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: input[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &generator))
        case 1: input.removeSubrange(at..<min(input.count, at + Int.random(in: 1...64, using: &generator)))
        case 2:
            input.insert(contentsOf: repeatElement(input[at], count: Int.random(in: 1...32, using: &generator)), at: at)
        case 3:
            let other = seeds[Int.random(in: 0..<seeds.count, using: &generator)]
            let from = Int.random(in: 0..<max(1, other.count), using: &generator)
            input.replaceSubrange(at..<input.count, with: other[min(from, other.count)...])
        default: input[at] = [0x00, 0xFF, 0x22, 0x7B, 0x7D, 0x5B, 0x2C, 0x3A][Int.random(in: 0..<8, using: &generator)]
        }
    }
}
