import NDEF
import NFCBytes

/// Bytes from hex in test vectors; a malformed literal is a bug in the test itself.
package func hexBytes(_ text: String) -> [UInt8] {
    (try? Hex.decode(text)) ?? []  // vectors are literals checked by the round-trip tests
}

/// Runs `body` and returns the `NDEFError` it throws, or nil if it threw nothing or something else.
package func ndefError<T>(_ body: () throws -> T) -> NDEFError? {
    do {
        _ = try body()
        return nil
    } catch let error as NDEFError {
        return error
    } catch {
        return nil
    }
}

/// A deterministic pseudo-random generator (SplitMix64) so generated tests repeat exactly.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64
    /// A generator whose sequence is fixed by `seed`.
    package init(seed: UInt64) { state = seed }
    /// The next 64-bit value of the SplitMix64 sequence.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
