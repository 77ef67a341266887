/// A sink the optimiser cannot see through.
@inline(never) func blackHole(_ x: Int) { if x == Int.min { print("") } }

/// Best rate over several runs of `body`, in calls per second: calibrated so one run lasts about
/// a fifth of `seconds`, then the best of five runs.
func measure(seconds: Double, _ body: () throws -> Int) rethrows -> Double {
    let clock = ContinuousClock()
    var best = 0.0
    var n = 1
    while true {
        let t = clock.now
        var sink = 0
        for _ in 0..<n { sink &+= try body() }
        blackHole(sink)
        let elapsed = (clock.now - t) / .seconds(1)
        if elapsed > seconds / 5 || n > 1 << 28 {
            best = max(best, Double(n) / elapsed)
            break
        }
        n *= 2
    }
    for _ in 0..<5 {
        let t = clock.now
        var sink = 0
        for _ in 0..<n { sink &+= try body() }
        blackHole(sink)
        let elapsed = (clock.now - t) / .seconds(1)
        best = max(best, Double(n) / elapsed)
    }
    return best
}
