/// A deterministic pseudo-random generator: xoshiro256** seeded through SplitMix64.
///
/// Every draw uses only integer arithmetic and correctly rounded IEEE operations, so a seed
/// yields the same sequence on every platform and every run. Streams for different purposes
/// (delays, ids, probabilities, faults) are derived with ``derived(stream:)`` so that adding a
/// draw to one purpose never shifts the values of another.
package struct SeededRandom: RandomNumberGenerator, Sendable, Hashable {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// Creates a generator whose whole sequence is determined by `seed`.
    package init(seed: UInt64) {
        var mixer = SplitMix64(state: seed)
        state = (mixer.next(), mixer.next(), mixer.next(), mixer.next())
        if state == (0, 0, 0, 0) { state.0 = 0x9E37_79B9_7F4A_7C15 }
    }

    /// A generator for an independent purpose, derived from this seed and a stream number.
    package static func stream(_ stream: UInt64, seed: UInt64) -> SeededRandom {
        var mixer = SplitMix64(state: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        return SeededRandom(seed: mixer.next())
    }

    /// The next 64 random bits (xoshiro256**).
    package mutating func next() -> UInt64 {
        let result = rotateLeft(state.1 &* 5, 7) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = rotateLeft(state.3, 45)
        return result
    }

    /// A double uniformly distributed in `[0, 1)` with 53 random bits.
    package mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A double uniformly distributed in `[lower, upper)`.
    package mutating func nextDouble(in lower: Double, _ upper: Double) -> Double {
        lower + (upper - lower) * nextUnit()
    }

    /// `true` with the given probability (clamped to `[0, 1]`); always draws once.
    package mutating func chance(_ probability: Double) -> Bool {
        nextUnit() < probability
    }

    /// A standard normal deviate: Box–Muller in Marsaglia's polar form, which needs only a
    /// logarithm and a square root, both computed deterministically (``DeterministicMath``).
    package mutating func nextStandardNormal() -> Double {
        while true {
            let u = nextUnit() * 2 - 1
            let v = nextUnit() * 2 - 1
            let s = u * u + v * v
            if s > 0 && s < 1 {
                return u * (-2 * DeterministicMath.log(s) / s).squareRoot()
            }
        }
    }

    /// A uniformly distributed integer in `0..<bound` (Lemire's method without bias).
    package mutating func nextInt(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        let range = UInt64(bound)
        let threshold = (0 &- range) % range
        while true {
            let product = next().multipliedFullWidth(by: range)
            if product.low >= threshold { return Int(product.high) }
        }
    }

    package static func == (lhs: SeededRandom, rhs: SeededRandom) -> Bool {
        lhs.state == rhs.state
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(state.0)
        hasher.combine(state.1)
        hasher.combine(state.2)
        hasher.combine(state.3)
    }

    private func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }
}

/// SplitMix64, used only to expand a 64-bit seed into xoshiro's 256-bit state.
private struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
