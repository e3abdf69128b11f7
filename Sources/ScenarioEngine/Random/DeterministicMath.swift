/// Natural logarithm and exponential in pure Swift.
///
/// The C library's `log`/`exp` may differ in the last bit between platforms; these use only
/// `+ - * /` and exact scaling by powers of two (correctly rounded everywhere, and Swift never
/// contracts them into fused operations), so seeded samples are bit-identical across platforms.
/// Accuracy is a few ulp, far below anything a delay in microseconds can notice.
package enum DeterministicMath {
    private static let ln2 = 0.693_147_180_559_945_309_417_232_121_458

    /// The natural logarithm of a positive finite `x` (`-infinity` for 0, `nan` for negatives).
    package static func log(_ x: Double) -> Double {
        guard x > 0 else { return x == 0 ? -.infinity : .nan }
        guard x.isFinite else { return x }
        // x = m · 2^e with m in [√½, √2), so the series argument stays small.
        var exponent = Int(x.exponent)
        var mantissa = x.significand
        if mantissa > 1.414_213_562_373_095_048_801_688 {
            mantissa /= 2
            exponent += 1
        }
        // ln m = 2·atanh(s), s = (m − 1)/(m + 1), |s| < 0.172.
        let s = (mantissa - 1) / (mantissa + 1)
        let s2 = s * s
        var term = s
        var sum = 0.0
        var denominator = 1.0
        for _ in 0..<14 {
            sum += term / denominator
            term *= s2
            denominator += 2
        }
        return Double(exponent) * ln2 + 2 * sum
    }

    /// The exponential of `x` (0 below about −745, `infinity` above about 709.8).
    package static func exp(_ x: Double) -> Double {
        guard x.isFinite else { return x > 0 ? x : (x.isNaN ? x : 0) }
        if x > 709.8 { return .infinity }
        if x < -745.2 { return 0 }
        // x = k·ln2 + r with |r| ≤ ln2/2; e^r by its Taylor series, then scale by 2^k.
        let k = (x / ln2).rounded()
        let r = x - k * ln2
        var term = 1.0
        var sum = 1.0
        for n in 1...22 {
            term *= r / Double(n)
            sum += term
        }
        return scale(sum, byPowerOfTwo: Int(k))
    }

    private static func scale(_ value: Double, byPowerOfTwo power: Int) -> Double {
        var result = value
        var remaining = power
        // Step in ranges a single Double power of two can represent, to avoid overflow.
        while remaining > 1000 {
            result *= Double(sign: .plus, exponent: 1000, significand: 1)
            remaining -= 1000
        }
        while remaining < -1000 {
            result *= Double(sign: .plus, exponent: -1000, significand: 1)
            remaining += 1000
        }
        return result * Double(sign: .plus, exponent: remaining, significand: 1)
    }
}
