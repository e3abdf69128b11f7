import Glibc

/// The running state of `VoiceSynthesizer`: glottal phase, filters and random generator, kept
/// across syllables and pauses so filters ring out naturally instead of clicking.
struct VoiceState {
    /// What to say in one syllable.
    struct Syllable {
        enum Onset { case none, fricative, plosive, nasal }
        var onset: Onset
        var first: Vowel
        var second: Vowel
        var stress: Double
        var pitchStart: Double
        var pitchEnd: Double
        var fricativeHz: Double
        var samples = 0
    }

    let sampleRate: Int
    var random: SeededGenerator
    var formants: [Resonator]
    var fricative: Resonator
    var lowPass: Resonator
    var phase = 0.0
    var previousPulse = 0.0
    var jitter = 1.0
    var shimmer = 1.0

    init(sampleRate: Int, seed: UInt64) {
        self.sampleRate = sampleRate
        random = SeededGenerator(seed: seed)
        let bandwidths = [Vowel.bandwidths.0, Vowel.bandwidths.1, Vowel.bandwidths.2]
        formants = [500.0, 1500, 2500].enumerated().map {
            Resonator(frequency: $0.element, bandwidth: bandwidths[$0.offset], sampleRate: sampleRate)
        }
        fricative = Resonator(frequency: 3000, bandwidth: 900, sampleRate: sampleRate)
        lowPass = .lowPass(cutoff: 3800, sampleRate: sampleRate)
    }

    mutating func chooseSyllable(progress: Double, wordFinal: Bool, pitch: Double) -> Syllable {
        let onsets: [Syllable.Onset] = [.none, .fricative, .fricative, .plosive, .plosive, .nasal]
        let onset = onsets[Int(random.next() % UInt64(onsets.count))]
        let first = Vowel.all[Int(random.next() % UInt64(Vowel.all.count))]
        let glide = random.uniform(0...1) < 0.5
        let second = glide ? Vowel.all[Int(random.next() % UInt64(Vowel.all.count))] : first
        let start = pitch * (1.1 - 0.25 * progress) * (1 + random.uniform(-0.06...0.12))
        let end = start * (wordFinal ? random.uniform(0.8...0.9) : random.uniform(0.92...1.08))
        return Syllable(
            onset: onset, first: first, second: second, stress: random.uniform(0.6...1.0),
            pitchStart: start, pitchEnd: end, fricativeHz: random.uniform(2400...3400))
    }

    /// Appends `count` samples: a syllable, or silence (filters ringing out) when nil.
    mutating func render(count: Int, into output: inout [Double], syllable: Syllable?) {
        guard count > 0 else { return }
        let rate = Double(sampleRate)
        let onsetCount = syllable.map { $0.onset == .none ? 0 : Int(Double($0.samples) * 0.22) } ?? 0
        let attack = Int(0.025 * rate)
        let release = Int(0.05 * rate)
        for k in 0..<count {
            var voiced = 0.0
            var noise = 0.0
            if let syllable {
                let t = Double(k) / Double(count)
                if k % 16 == 0 { retune(syllable, k: k, onsetCount: onsetCount) }
                let vowelK = k - onsetCount
                if vowelK >= 0 {
                    let fadeIn = min(1, Double(vowelK) / Double(attack))
                    let fadeOut = min(1, Double(count - k) / Double(release))
                    voiced = syllable.stress * 0.5 * (1 - cos(Double.pi * min(fadeIn, fadeOut)))
                } else {
                    let u = Double(k) / Double(max(1, onsetCount))
                    switch syllable.onset {
                    case .none: break
                    case .nasal: voiced = 0.35 * syllable.stress * sin(Double.pi * u)
                    case .fricative: noise = 0.35 * sin(Double.pi * u)
                    case .plosive: noise = u < 0.6 ? 0 : 0.8 * exp(-(u - 0.6) * 12)
                    }
                }
                advancePhase(pitch: syllable.pitchStart + (syllable.pitchEnd - syllable.pitchStart) * t)
            }
            let pulse = glottalPulse(phase)
            var source = (pulse - previousPulse) * rate / 1000 * voiced * shimmer
            previousPulse = pulse
            source += random.uniform(-1...1) * 0.01 * voiced  // breathiness
            var y = source
            for index in formants.indices { y = formants[index].process(y) }
            let hiss = fricative.process(random.uniform(-1...1) * noise)
            output.append(lowPass.process(y + hiss * 0.6))
        }
    }

    private mutating func retune(_ syllable: Syllable, k: Int, onsetCount: Int) {
        let target: (Double, Double, Double)
        if k < onsetCount, syllable.onset == .nasal {
            target = Vowel.nasal.formants
        } else {
            let span = max(1, syllable.samples - onsetCount)
            let t = min(1, max(0, Double(k - onsetCount) / Double(span)))
            target = syllable.first.formants(towards: syllable.second, t * t * (3 - 2 * t))
        }
        let nyquistGuard = 0.45 * Double(sampleRate)
        let frequencies = [target.0, target.1, target.2].map { min($0, nyquistGuard) }
        let bandwidths = [Vowel.bandwidths.0, Vowel.bandwidths.1, Vowel.bandwidths.2]
        for index in formants.indices {
            formants[index].tune(frequency: frequencies[index], bandwidth: bandwidths[index], sampleRate: sampleRate)
        }
        fricative.tune(frequency: min(syllable.fricativeHz, nyquistGuard), bandwidth: 900, sampleRate: sampleRate)
    }

    private mutating func advancePhase(pitch: Double) {
        phase += pitch * jitter / Double(sampleRate)
        if phase >= 1 {
            phase -= 1
            jitter = 1 + random.uniform(-0.01...0.01)
            shimmer = 1 + random.uniform(-0.05...0.05)
        }
    }

    /// Rosenberg glottal flow over one period: opening 40 %, closing 16 %, then closed.
    private func glottalPulse(_ phase: Double) -> Double {
        if phase < 0.4 { return 0.5 * (1 - cos(Double.pi * phase / 0.4)) }
        if phase < 0.56 { return cos(Double.pi * (phase - 0.4) / 0.32) }
        return 0
    }
}
