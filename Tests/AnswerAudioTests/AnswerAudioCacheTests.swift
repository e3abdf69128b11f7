import AnswerAudio
import Foundation
import ProtocolModel
import ScenarioEngine
import Synchronization
import Testing
import WireAudio

@Suite struct AnswerAudioCacheTests {
    static let cadence = AudioCadence(chunkMs: 100, realTimeFactor: 1)

    static func key(_ text: String, rate: Int = 24000, encoding: AnswerAudioKey.Encoding = .pcm) -> AnswerAudioKey {
        AnswerAudioKey(
            source: .synthesized(text: text, rate: 1), sampleRate: rate, seed: 7, encoding: encoding, cadence: cadence)
    }

    @Test func inlineCacheRendersOnceAndShares() {
        let cache = AnswerAudioCache(workers: 0)
        let first = cache.answer(Self.key("Hello there, how are you?"))
        let second = cache.answer(Self.key("Hello there, how are you?"))
        #expect(first === second)
        let rendered = try! #require(first.rendered)
        #expect(cache.statistics.misses == 1)
        #expect(cache.statistics.hits == 1)
        // 100 ms chunks of 24 kHz s16le: 4800 bytes each, sent every 100 ms.
        #expect(rendered.frames.count > 10)
        #expect(rendered.frames.dropLast().allSatisfy { $0.bytes.count == 4800 })
        #expect(rendered.frames[3].sendOffsetMicros == 300_000)
        let expected = VoiceSynthesizer.duration(forText: "Hello there, how are you?")
        #expect(abs(Double(rendered.durationMicros) / 1e6 - expected) < 0.001)
    }

    @Test func sameKeySameBytesDifferentKeyDifferentBytes() {
        let a = AnswerRenderer.render(Self.key("One two three."))
        let b = AnswerRenderer.render(Self.key("One two three."))
        #expect(a.frames == b.frames)
        let other = AnswerRenderer.render(Self.key("One two three.", rate: 16000))
        #expect(other.frames.first?.bytes.count == 3200)
        #expect(other.frames != a.frames)
    }

    @Test func workersRenderOffTheCallingThreadAndNotify() async {
        let cache = AnswerAudioCache(workers: 1)
        let handle = cache.answer(Self.key("A longer answer, rendered on a worker thread while the caller goes on."))
        await withCheckedContinuation { continuation in
            handle.whenReady { continuation.resume() }
        }
        #expect(handle.rendered != nil)
        // Registered after it is ready: runs at once.
        let ran = Mutex(false)
        handle.whenReady { ran.withLock { $0 = true } }
        #expect(ran.withLock { $0 })
    }

    /// Scenarios loaded in a loop cannot grow the prefetch queue without bound: beyond
    /// `maxQueuedPrefetches` waiting, prefetches are dropped (and counted), sessions still get theirs.
    @Test func thePrefetchQueueIsBounded() async {
        let cache = AnswerAudioCache(workers: 1)
        let keys = (0..<1000).map { Self.key("Answer \($0).", encoding: .mp3) }
        let handles = cache.prefetch(keys)
        let statistics = cache.statistics
        #expect(handles.count <= AnswerAudioCache.maxQueuedPrefetches + 4, "\(handles.count) queued")
        #expect(statistics.prefetchesSkipped == keys.count - handles.count)
        #expect(statistics.entries == handles.count)
        let asked = cache.answer(keys[999])
        await withCheckedContinuation { continuation in asked.whenReady { continuation.resume() } }
    }

    @Test func anAnswerASessionWaitsForGoesBeforeQueuedPrefetches() async {
        let cache = AnswerAudioCache(workers: 1)
        // Long answers in MP3 take milliseconds each: the worker is still on the first few
        // when the session asks for the last one.
        let long = String(repeating: "A long prefetched answer that takes a while to encode. ", count: 2)
        let prefetched = (0..<6).map { Self.key("\($0) " + long, encoding: .mp3) }
        let handles = cache.prefetch(prefetched)
        let wanted = prefetched[5]
        _ = cache.answer(wanted)
        // Completion order, registered at once (a render takes far longer than this loop).
        let order = FinishOrder()
        for handle in handles { handle.whenReady { order.append(handle.key) } }
        for handle in handles {
            await withCheckedContinuation { continuation in handle.whenReady { continuation.resume() } }
        }
        let finished = order.keys
        // The worker may have started one or two prefetches before the ask; then the wanted one.
        let position = finished.firstIndex(of: wanted) ?? .max
        #expect(position <= 2, "rendered \(position + 1)th of \(finished.count)")
    }

    @Test(arguments: [
        AnswerAudioKey.Encoding.mp3, .oggOpus(frameMs: 20, bitRateKbps: 32), .rawOpus(frameMs: 20, bitRateKbps: 32),
    ])
    func encodedFormatsAreFramed(_ encoding: AnswerAudioKey.Encoding) {
        let rendered = AnswerRenderer.render(Self.key("Encoded once, sent in slices.", encoding: encoding))
        #expect(!rendered.frames.isEmpty)
        #expect(rendered.frames.allSatisfy { !$0.bytes.isEmpty })
        let offsets = rendered.frames.map(\.sendOffsetMicros)
        #expect(offsets == offsets.sorted())
        if case .oggOpus = encoding { #expect(Array(rendered.frames[0].bytes.prefix(4)) == Array("OggS".utf8)) }
        // No PCM in the frames: no level for the journal.
        #expect(rendered.frames.allSatisfy { $0.level == nil })
    }

    /// PCM and WAV frames carry the level of their slice, measured once when rendered.
    @Test(arguments: [AnswerAudioKey.Encoding.pcm, .wav])
    func pcmFramesCarryTheLevelOfTheirSlice(_ encoding: AnswerAudioKey.Encoding) throws {
        let rendered = AnswerRenderer.render(Self.key("Loud and soft, measured once.", encoding: encoding))
        let pcm = AnswerRenderer.render(Self.key("Loud and soft, measured once."))
        #expect(rendered.frames.map(\.level) == pcm.frames.map(\.level))
        for frame in pcm.frames {
            let samples = PCMBuffer(littleEndianBytes: frame.bytes, sampleRate: 24000)
            let level = try #require(frame.level)
            #expect(abs(level.rmsDb - max(AudioLevel.floorDb, samples.dBFS)) <= 0.05)
            #expect(abs(level.peakDb - max(AudioLevel.floorDb, PCMBuffer.decibels(samples.peak))) <= 0.05)
        }
        #expect(Set(pcm.frames.compactMap { $0.level?.rmsDb }).count > 3)
    }

    @Test func unreadableFixtureHasAProblemAndOptionalFallback() {
        var key = Self.key("")
        key.source = .file(path: "nonexistent/answer.wav", folder: "/tmp", fallbackText: nil)
        let missing = AnswerRenderer.render(key)
        #expect(missing.frames.isEmpty)
        #expect(missing.problem?.contains("/tmp/nonexistent/answer.wav") == true)
        key.source = .file(path: "nonexistent/answer.wav", folder: "/tmp", fallbackText: "Spoken instead.")
        let fallback = AnswerRenderer.render(key)
        #expect(!fallback.frames.isEmpty)
        #expect(fallback.problem?.contains("synthesized instead") == true)
    }

    /// A fixture that `..` or a symlink leads out of the scenario's folder is never read.
    @Test func aFixtureOutsideTheScenarioFolderIsRefused() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("scenario")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let outside = root.appendingPathComponent("secret.wav").path
        try WAVFile.write(PCMBuffer(samples: [Int16](repeating: 1000, count: 1600), sampleRate: 16000), to: outside)
        try WAVFile.write(
            PCMBuffer(samples: [Int16](repeating: 1000, count: 1600), sampleRate: 16000),
            to: folder.appendingPathComponent("inside.wav").path)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link.wav").path, withDestinationPath: outside)
        var key = Self.key("")
        key.source = .file(path: "inside.wav", folder: folder.path, fallbackText: nil)
        let inside = AnswerRenderer.render(key)
        #expect(!inside.frames.isEmpty && inside.problem == nil, "\(inside.problem ?? "")")
        for escape in ["link.wav", "../secret.wav", outside] {
            key.source = .file(path: escape, folder: folder.path, fallbackText: nil)
            let refused = AnswerRenderer.render(key)
            #expect(refused.frames.isEmpty, "\(escape)")
            #expect(
                refused.problem?.contains("outside the scenario's folder") == true,
                "\(escape): \(refused.problem ?? "")")
        }
    }

    @Test func budgetEvictsLeastRecentlyUsed() {
        let texts = ["First answer here.", "Second answer here.", "Third answer here.", "Fourth answer here."]
        let size = AnswerRenderer.render(Self.key(texts[0])).byteCount
        // A budget of about two and a half answers keeps two.
        let budget = size * 5 / 2
        let cache = AnswerAudioCache(byteBudget: budget, workers: 0)
        for text in texts { _ = cache.answer(Self.key(text)) }
        let statistics = cache.statistics
        #expect(statistics.evictions >= 2)
        #expect(statistics.bytes <= budget)
        #expect(statistics.entries < texts.count)
        // The newest stays.
        _ = cache.answer(Self.key(texts[3]))
        #expect(cache.statistics.hits == 1)
    }
}

/// The order in which answers became ready (appended from worker threads).
final class FinishOrder: Sendable {
    private let list = Mutex<[AnswerAudioKey]>([])
    func append(_ key: AnswerAudioKey) { list.withLock { $0.append(key) } }
    var keys: [AnswerAudioKey] { list.withLock { $0 } }
}
