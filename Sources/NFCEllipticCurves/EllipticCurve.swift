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
    /// The field F_p for the point arithmetic; `nil` when p is not an odd number of at least 3.
    let field: MontgomeryField?
    /// a in Montgomery form.
    let aElement: MontgomeryField.Element
    /// Whether a = −3 (mod p), which shortens every doubling.
    let aIsMinusThree: Bool

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
        field = MontgomeryField(modulus: p)
        aElement = field?.element(self.a) ?? []
        aIsMinusThree = p >= 3 && self.a == p - 3
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

    /// `k`·`point`, by double-and-add over Jacobian coordinates (SEC 1 §2.2.1). A curve whose
    /// prime is even or below 3 is no prime field: every product is the point at infinity.
    public func multiply(_ point: ECPoint, by k: BigUInt) -> ECPoint {
        guard case .affine = point, let field else { return .infinity }
        var result = jacobian(.infinity, in: field)
        let base = jacobian(point, in: field)
        var index = k.bitWidth - 1
        while index >= 0 {
            result = double(result, in: field)
            if k[bitAt: index] { result = addAffine(result, base, in: field) }
            index -= 1
        }
        return affine(result, in: field)
    }

    /// `k1`·`p1` + `k2`·`p2` in one pass of doublings (Shamir's trick, as in ECDSA verification:
    /// SEC 1 §4.1.4 step 5), adding p1, p2 or their sum at each bit.
    public func multiplyAndAdd(_ p1: ECPoint, _ k1: BigUInt, _ p2: ECPoint, _ k2: BigUInt) -> ECPoint {
        guard let field else { return .infinity }
        let first = jacobian(p1, in: field)
        let second = jacobian(p2, in: field)
        let both = add(first, second, in: field)
        var result = jacobian(.infinity, in: field)
        var index = max(k1.bitWidth, k2.bitWidth) - 1
        while index >= 0 {
            result = double(result, in: field)
            switch (k1[bitAt: index], k2[bitAt: index]) {
            case (true, true): result = add(result, both, in: field)
            case (true, false): result = add(result, first, in: field)
            case (false, true): result = add(result, second, in: field)
            case (false, false): break
            }
            index -= 1
        }
        return affine(result, in: field)
    }

    /// `first` + `second`.
    public func add(_ first: ECPoint, _ second: ECPoint) -> ECPoint {
        guard let field else { return .infinity }
        return affine(add(jacobian(first, in: field), jacobian(second, in: field), in: field), in: field)
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

    // MARK: Jacobian arithmetic (X/Z², Y/Z³), in the Montgomery field

    /// A point in Jacobian coordinates, each in Montgomery form; Z = 0 is the point at infinity.
    struct Jacobian {
        var x: MontgomeryField.Element
        var y: MontgomeryField.Element
        var z: MontgomeryField.Element
    }

    func jacobian(_ point: ECPoint, in field: MontgomeryField) -> Jacobian {
        switch point {
        case .infinity: return Jacobian(x: field.one, y: field.one, z: field.zero)
        case .affine(let x, let y): return Jacobian(x: field.element(x), y: field.element(y), z: field.one)
        }
    }

    /// 2·`point` (the "dbl-1998-cmo-2" formulas; with a = −3, as on the NIST curves,
    /// 3X² + aZ⁴ = 3(X − Z²)(X + Z²) saves two products: "dbl-2001-b", Explicit-Formulas Database).
    func double(_ point: Jacobian, in field: MontgomeryField) -> Jacobian {
        if point.z == field.zero || point.y == field.zero { return Jacobian(x: field.one, y: field.one, z: field.zero) }
        let yy = field.square(point.y)
        let s = field.twice(field.twice(field.multiply(point.x, yy)))
        let zz = field.square(point.z)
        let m: MontgomeryField.Element
        if aIsMinusThree {
            let product = field.multiply(field.subtract(point.x, zz), field.add(point.x, zz))
            m = field.add(field.twice(product), product)
        } else {
            let xx = field.square(point.x)
            m = field.add(field.add(field.twice(xx), xx), field.multiply(aElement, field.square(zz)))
        }
        let x = field.subtract(field.square(m), field.twice(s))
        let yyyy8 = field.twice(field.twice(field.twice(field.square(yy))))
        let y = field.subtract(field.multiply(m, field.subtract(s, x)), yyyy8)
        let z = field.twice(field.multiply(point.y, point.z))
        return Jacobian(x: x, y: y, z: z)
    }

    /// `first` + `second` ("add-1998-cmo-2").
    func add(_ first: Jacobian, _ second: Jacobian, in field: MontgomeryField) -> Jacobian {
        if first.z == field.zero { return second }
        if second.z == field.zero { return first }
        let z1z1 = field.square(first.z)
        let z2z2 = field.square(second.z)
        let u1 = field.multiply(first.x, z2z2)
        let u2 = field.multiply(second.x, z1z1)
        let s1 = field.multiply(first.y, field.multiply(second.z, z2z2))
        let s2 = field.multiply(second.y, field.multiply(first.z, z1z1))
        return finishAddition(u1: u1, u2: u2, s1: s1, s2: s2, z: field.multiply(first.z, second.z), first, in: field)
    }

    /// `first` + `second` where `second` has Z = 1 (mixed addition: Z₂² and Z₂³ are 1).
    func addAffine(_ first: Jacobian, _ second: Jacobian, in field: MontgomeryField) -> Jacobian {
        if first.z == field.zero { return second }
        if second.z == field.zero { return first }
        let z1z1 = field.square(first.z)
        let u2 = field.multiply(second.x, z1z1)
        let s2 = field.multiply(second.y, field.multiply(first.z, z1z1))
        return finishAddition(u1: first.x, u2: u2, s1: first.y, s2: s2, z: first.z, first, in: field)
    }

    /// The common end of both additions: H = U₂ − U₁, R = S₂ − S₁, X₃ = R² − H³ − 2U₁H²,
    /// Y₃ = R(U₁H² − X₃) − S₁H³, Z₃ = Z·H; equal points double, opposite ones cancel.
    private func finishAddition(
        u1: MontgomeryField.Element, u2: MontgomeryField.Element, s1: MontgomeryField.Element,
        s2: MontgomeryField.Element, z: MontgomeryField.Element, _ first: Jacobian, in field: MontgomeryField
    ) -> Jacobian {
        if u1 == u2 {
            return s1 == s2 ? double(first, in: field) : Jacobian(x: field.one, y: field.one, z: field.zero)
        }
        let h = field.subtract(u2, u1)
        let r = field.subtract(s2, s1)
        let hh = field.square(h)
        let hhh = field.multiply(h, hh)
        let u1hh = field.multiply(u1, hh)
        let x = field.subtract(field.subtract(field.square(r), hhh), field.twice(u1hh))
        let y = field.subtract(field.multiply(r, field.subtract(u1hh, x)), field.multiply(s1, hhh))
        return Jacobian(x: x, y: y, z: field.multiply(h, z))
    }

    func affine(_ point: Jacobian, in field: MontgomeryField) -> ECPoint {
        let z = field.integer(point.z)
        guard z != 0, let inverse = z.inverse(p) else { return .infinity }
        let zz = inverse * inverse % p
        return .affine(x: field.integer(point.x) * zz % p, y: field.integer(point.y) * (zz * inverse % p) % p)
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
