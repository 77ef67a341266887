import BigInt
import Foundation

/// A short Weierstrass curve y² = x³ + ax + b over the prime field F_p, with a generator G of
/// prime order n and cofactor h (SEC 1 v2 §3.1.1). Points are multiplied in Jacobian
/// coordinates; any point may serve as the generator, as PACE's generic mapping needs (ICAO Doc
/// 9303 Part 11 §4.4.3.3.1: Ĝ = s·G + H).
///
/// The arithmetic is not constant-time: it serves test cards and a reader's ephemeral keys, not
/// a long-term secret on a shared machine.
public struct EllipticCurve: Sendable, Hashable, CustomStringConvertible {
    /// The curve's name (`brainpoolP256r1`).
    public let name: String
    /// The field prime.
    public let p: BigUInt
    /// The coefficient a.
    public let a: BigUInt
    /// The coefficient b.
    public let b: BigUInt
    /// The standard generator.
    public let generator: ECPoint
    /// The generator's order.
    public let order: BigUInt
    /// The cofactor.
    public let cofactor: BigUInt
    /// The length of a field element in bytes.
    public let byteCount: Int

    /// A curve from its domain parameters (hex, big-endian).
    public init(name: String, p: String, a: String, b: String, x: String, y: String, order: String, cofactor: UInt = 1) {
        self.init(
            name: name, p: BigUInt(p, radix: 16) ?? 0, a: BigUInt(a, radix: 16) ?? 0, b: BigUInt(b, radix: 16) ?? 0,
            generator: .affine(x: BigUInt(x, radix: 16) ?? 0, y: BigUInt(y, radix: 16) ?? 0), order: BigUInt(order, radix: 16) ?? 0,
            cofactor: BigUInt(cofactor))
    }

    /// A curve from its domain parameters as integers, as explicit ECParameters carry them
    /// (SEC 1 v2 §C.2; ICAO Doc 9303 Part 11 §9.1: DG14 and DG15 often spell the curve out).
    public init(name: String, p: BigUInt, a: BigUInt, b: BigUInt, generator: ECPoint, order: BigUInt, cofactor: BigUInt = 1) {
        self.name = name
        self.p = p
        self.a = a % max(p, 1)
        self.b = b % max(p, 1)
        self.generator = generator
        self.order = order
        self.cofactor = cofactor
        byteCount = (p.bitWidth + 7) / 8
    }

    public var description: String { name }

    // MARK: Points

    /// Whether `point` satisfies the curve's equation (the point at infinity does).
    public func contains(_ point: ECPoint) -> Bool {
        guard case .affine(let x, let y) = point else { return true }
        guard x < p, y < p else { return false }
        let left = (y * y) % p
        let right = (x * x % p * x + a * x + b) % p
        return left == right
    }

    /// `k`·`point`, by double-and-add over Jacobian coordinates (SEC 1 §2.2.1).
    public func multiply(_ point: ECPoint, by k: BigUInt) -> ECPoint {
        guard case .affine = point else { return .infinity }
        var result = Jacobian.infinity
        let base = Jacobian(point)
        var index = k.bitWidth - 1
        while index >= 0 {
            result = double(result)
            if k[bitAt: index] { result = addAffine(result, base) }
            index -= 1
        }
        return affine(result)
    }

    /// `k1`·`p1` + `k2`·`p2` in one pass of doublings (Shamir's trick, as in ECDSA verification:
    /// SEC 1 §4.1.4 step 5), adding p1, p2 or their sum at each bit.
    public func multiplyAndAdd(_ p1: ECPoint, _ k1: BigUInt, _ p2: ECPoint, _ k2: BigUInt) -> ECPoint {
        let first = Jacobian(p1)
        let second = Jacobian(p2)
        let both = add(first, second)
        var result = Jacobian.infinity
        var index = max(k1.bitWidth, k2.bitWidth) - 1
        while index >= 0 {
            result = double(result)
            switch (k1[bitAt: index], k2[bitAt: index]) {
            case (true, true): result = add(result, both)
            case (true, false): result = add(result, first)
            case (false, true): result = add(result, second)
            case (false, false): break
            }
            index -= 1
        }
        return affine(result)
    }

    /// `first` + `second`.
    public func add(_ first: ECPoint, _ second: ECPoint) -> ECPoint {
        affine(add(Jacobian(first), Jacobian(second)))
    }

    /// The uncompressed encoding `04 ‖ x ‖ y` (SEC 1 §2.3.3); the point at infinity is `00`.
    public func encode(_ point: ECPoint) -> [UInt8] {
        guard case .affine(let x, let y) = point else { return [0x00] }
        return [0x04] + fixed(x) + fixed(y)
    }

    /// A field element as exactly ``byteCount`` big-endian bytes.
    public func fixed(_ value: BigUInt) -> [UInt8] {
        let bytes = Array(value.serialize())
        if bytes.count >= byteCount { return Array(bytes.suffix(byteCount)) }
        return [UInt8](repeating: 0, count: byteCount - bytes.count) + bytes
    }

    /// The point an uncompressed encoding names, or `nil` when it is not one on this curve.
    public func decode(_ bytes: [UInt8]) -> ECPoint? {
        guard bytes.count == 1 + 2 * byteCount, bytes[0] == 0x04 else { return nil }
        let point = ECPoint.affine(
            x: BigUInt(Data(bytes[1...byteCount])), y: BigUInt(Data(bytes[(1 + byteCount)...])))
        return contains(point) ? point : nil
    }

    /// A private key from bytes: reduced modulo the order, never zero.
    public func scalar(_ bytes: [UInt8]) -> BigUInt {
        let value = BigUInt(Data(bytes)) % order
        return value == 0 ? 1 : value
    }

    // MARK: Jacobian arithmetic (X/Z², Y/Z³)

    struct Jacobian {
        var x: BigUInt
        var y: BigUInt
        var z: BigUInt

        static let infinity = Jacobian(x: 1, y: 1, z: 0)

        init(x: BigUInt, y: BigUInt, z: BigUInt) {
            self.x = x
            self.y = y
            self.z = z
        }

        init(_ point: ECPoint) {
            switch point {
            case .infinity: self = .infinity
            case .affine(let x, let y): self.init(x: x, y: y, z: 1)
            }
        }
    }

    private func sub(_ left: BigUInt, _ right: BigUInt) -> BigUInt {
        left >= right ? left - right : p - (right - left) % p
    }

    func double(_ point: Jacobian) -> Jacobian {
        if point.z == 0 || point.y == 0 { return .infinity }
        let yy = point.y * point.y % p
        let s = 4 * point.x % p * yy % p
        let zz = point.z * point.z % p
        let m = (3 * (point.x * point.x % p) + a * (zz * zz % p)) % p
        let x = sub(m * m % p, 2 * s % p)
        let y = sub(m * sub(s, x) % p, 8 * (yy * yy % p) % p)
        let z = 2 * point.y % p * point.z % p
        return Jacobian(x: x, y: y, z: z)
    }

    func add(_ first: Jacobian, _ second: Jacobian) -> Jacobian {
        if first.z == 0 { return second }
        if second.z == 0 { return first }
        let z1z1 = first.z * first.z % p
        let z2z2 = second.z * second.z % p
        let u1 = first.x * z2z2 % p
        let u2 = second.x * z1z1 % p
        let s1 = first.y * (second.z * z2z2 % p) % p
        let s2 = second.y * (first.z * z1z1 % p) % p
        if u1 == u2 { return s1 == s2 ? double(first) : .infinity }
        let h = sub(u2, u1)
        let r = sub(s2, s1)
        let hh = h * h % p
        let hhh = h * hh % p
        let u1hh = u1 * hh % p
        let x = sub(sub(r * r % p, hhh), 2 * u1hh % p)
        let y = sub(r * sub(u1hh, x) % p, s1 * hhh % p)
        let z = h * (first.z * second.z % p) % p
        return Jacobian(x: x, y: y, z: z)
    }

    /// `first` + `second` where `second` has Z = 1 (mixed addition: Z₂² and Z₂³ are 1).
    func addAffine(_ first: Jacobian, _ second: Jacobian) -> Jacobian {
        if first.z == 0 { return second }
        if second.z == 0 { return first }
        let z1z1 = first.z * first.z % p
        let u2 = second.x * z1z1 % p
        let s2 = second.y * (first.z * z1z1 % p) % p
        if first.x == u2 { return first.y == s2 ? double(first) : .infinity }
        let h = sub(u2, first.x)
        let r = sub(s2, first.y)
        let hh = h * h % p
        let hhh = h * hh % p
        let u1hh = first.x * hh % p
        let x = sub(sub(r * r % p, hhh), 2 * u1hh % p)
        let y = sub(r * sub(u1hh, x) % p, first.y * hhh % p)
        let z = h * first.z % p
        return Jacobian(x: x, y: y, z: z)
    }

    func affine(_ point: Jacobian) -> ECPoint {
        guard point.z != 0, let inverse = point.z.inverse(p) else { return .infinity }
        let zz = inverse * inverse % p
        return .affine(x: point.x * zz % p, y: point.y * (zz * inverse % p) % p)
    }
}

/// A point of an ``EllipticCurve``: affine coordinates, or the point at infinity.
public enum ECPoint: Sendable, Hashable {
    /// The neutral element.
    case infinity
    /// A finite point.
    case affine(x: BigUInt, y: BigUInt)

    /// The x-coordinate (`nil` at infinity).
    public var x: BigUInt? {
        if case .affine(let x, _) = self { return x }
        return nil
    }
}
