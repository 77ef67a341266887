/// Random bytes for a virtual card: the ones a test scripted first (to replay a published or
/// recorded exchange), then the system's generator.
enum ScriptedRandom {
    /// Takes `count` bytes, consuming scripted ones first.
    static func take(_ count: Int, from scripted: inout [UInt8]) -> [UInt8] {
        var out = Array(scripted.prefix(count))
        scripted.removeFirst(out.count)
        var generator = SystemRandomNumberGenerator()
        while out.count < count { out.append(UInt8.random(in: .min ... .max, using: &generator)) }
        return out
    }
}
