import BigInt

/// Arithmetic modulo an odd modulus m of n 64-bit words, on residues kept in Montgomery form
/// (x·R mod m, R = 2⁶⁴ⁿ): a product is reduced by word-wise additions of multiples of m, never
/// by a division (P. L. Montgomery, "Modular Multiplication Without Trial Division", Math. Comp.
/// 44 (1985); the word ordering is CIOS from Ç. K. Koç, T. Acar and B. S. Kaliski, "Analyzing and
/// Comparing Montgomery Multiplication Algorithms", IEEE Micro 16(3), 1996, §3).
///
/// Elements are little-endian word arrays of exactly ``wordCount`` words, each < m. A curve's
/// point arithmetic runs here; `BigUInt` is used only at the edges (in and out of Montgomery form,
/// and the one inversion per point conversion).
struct MontgomeryField: Sendable, Hashable {
    typealias Element = [UInt64]

    /// The modulus as an integer.
    let modulus: BigUInt
    /// The modulus's words, little-endian.
    let words: [UInt64]
    /// n, the number of words of every element.
    let wordCount: Int
    /// −m⁻¹ mod 2⁶⁴ (Montgomery's m′ for one word).
    let negatedInverse: UInt64
    /// R² mod m, which brings an integer into Montgomery form by one product.
    let rSquared: Element
    /// 1 in Montgomery form (R mod m).
    let one: Element
    /// 0.
    let zero: Element

    /// The field of residues modulo `modulus`; `nil` unless it is odd and at least 3 (Montgomery
    /// reduction needs m coprime to the word base).
    init?(modulus: BigUInt) {
        guard modulus >= 3, modulus[bitAt: 0] else { return nil }
        self.modulus = modulus
        let count = modulus.words.count
        wordCount = count
        words = Self.words(of: modulus, count: count)
        // Newton's iteration for m₀⁻¹ mod 2⁶⁴: m₀·m₀ ≡ 1 (mod 8) for odd m₀, and each step
        // doubles the correct low bits (3 → 6 → 12 → 24 → 48 → 96).
        let low = words[0]
        var inverse = low
        for _ in 0..<5 { inverse = inverse &* (2 &- low &* inverse) }
        negatedInverse = 0 &- inverse
        let r = BigUInt(1) << (64 * count)
        one = Self.words(of: r % modulus, count: count)
        rSquared = Self.words(of: (r * r) % modulus, count: count)
        zero = [UInt64](repeating: 0, count: count)
    }

    /// `value` (reduced modulo m) in Montgomery form.
    func element(_ value: BigUInt) -> Element {
        multiply(Self.words(of: value % modulus, count: wordCount), rSquared)
    }

    /// The integer an element stands for.
    func integer(_ element: Element) -> BigUInt {
        var unit = zero
        unit[0] = 1
        return BigUInt(words: multiply(element, unit).map { UInt($0) })
    }

    /// a·b·R⁻¹ mod m: the Montgomery product, so the product of two elements in Montgomery form
    /// stays in it.
    func multiply(_ a: Element, _ b: Element) -> Element {
        let n = wordCount
        var t = [UInt64](repeating: 0, count: n + 2)
        for i in 0..<n {
            // t += a·bᵢ
            let factor = b[i]
            var carry: UInt64 = 0
            for j in 0..<n { (carry, t[j]) = Self.multiplyAdd(a[j], factor, t[j], carry) }
            let (top, overflow) = t[n].addingReportingOverflow(carry)
            t[n] = top
            t[n + 1] = overflow ? 1 : 0
            // t = (t + q·m) / 2⁶⁴, with q chosen so that the low word vanishes
            let q = t[0] &* negatedInverse
            (carry, _) = Self.multiplyAdd(q, words[0], t[0], 0)
            for j in 1..<n { (carry, t[j - 1]) = Self.multiplyAdd(q, words[j], t[j], carry) }
            let (last, lastOverflow) = t[n].addingReportingOverflow(carry)
            t[n - 1] = last
            t[n] = t[n + 1] &+ (lastOverflow ? 1 : 0)
        }
        // t < 2m: one conditional subtraction reduces it.
        var result = Array(t[0..<n])
        if t[n] != 0 || !Self.less(result, words) { Self.subtractInPlace(&result, words) }
        return result
    }

    /// a² in Montgomery form.
    func square(_ a: Element) -> Element { multiply(a, a) }

    /// a + b mod m.
    func add(_ a: Element, _ b: Element) -> Element {
        var result = a
        var carry = false
        for index in 0..<wordCount {
            let (sum, first) = result[index].addingReportingOverflow(b[index])
            let (withCarry, second) = sum.addingReportingOverflow(carry ? 1 : 0)
            result[index] = withCarry
            carry = first || second
        }
        if carry || !Self.less(result, words) { Self.subtractInPlace(&result, words) }
        return result
    }

    /// a − b mod m.
    func subtract(_ a: Element, _ b: Element) -> Element {
        var result = a
        if Self.subtractInPlace(&result, b) { Self.addInPlace(&result, words) }
        return result
    }

    /// 2a mod m.
    func twice(_ a: Element) -> Element { add(a, a) }

    /// a^exponent mod m, left to right by squaring and multiplying.
    func power(_ a: Element, _ exponent: BigUInt) -> Element {
        var result = one
        var index = exponent.bitWidth - 1
        while index >= 0 {
            result = square(result)
            if exponent[bitAt: index] { result = multiply(result, a) }
            index -= 1
        }
        return result
    }

    // MARK: Words

    /// a·b + c + d as two words; it cannot overflow: (2⁶⁴−1)² + 2(2⁶⁴−1) = 2¹²⁸ − 1.
    private static func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (high: UInt64, low: UInt64) {
        let product = a.multipliedFullWidth(by: b)
        let (low, first) = product.low.addingReportingOverflow(c)
        let (sum, second) = low.addingReportingOverflow(d)
        return (product.high &+ (first ? 1 : 0) &+ (second ? 1 : 0), sum)
    }

    /// Whether a < b, both of the same word count.
    private static func less(_ a: [UInt64], _ b: [UInt64]) -> Bool {
        var index = a.count - 1
        while index >= 0 {
            if a[index] != b[index] { return a[index] < b[index] }
            index -= 1
        }
        return false
    }

    /// a −= b modulo 2⁶⁴ⁿ; whether it borrowed.
    @discardableResult
    private static func subtractInPlace(_ a: inout [UInt64], _ b: [UInt64]) -> Bool {
        var borrow = false
        for index in 0..<a.count {
            let (difference, first) = a[index].subtractingReportingOverflow(b[index])
            let (withBorrow, second) = difference.subtractingReportingOverflow(borrow ? 1 : 0)
            a[index] = withBorrow
            borrow = first || second
        }
        return borrow
    }

    /// a += b modulo 2⁶⁴ⁿ.
    private static func addInPlace(_ a: inout [UInt64], _ b: [UInt64]) {
        var carry = false
        for index in 0..<a.count {
            let (sum, first) = a[index].addingReportingOverflow(b[index])
            let (withCarry, second) = sum.addingReportingOverflow(carry ? 1 : 0)
            a[index] = withCarry
            carry = first || second
        }
    }

    /// The low `count` words of `value`, little-endian, zero-padded.
    private static func words(of value: BigUInt, count: Int) -> [UInt64] {
        var result = [UInt64](repeating: 0, count: count)
        for (index, word) in value.words.prefix(count).enumerated() { result[index] = UInt64(word) }
        return result
    }
}
