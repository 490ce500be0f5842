import ContainmentConfig
/// Warnings about a peer's bad input, at most one line per peer per interval, with how many were held back since:
/// 10,000 garbage messages make a handful of lines, not 10,000. Bounded: past `peers` peers it starts afresh.
struct WarningLimiter {
    private var last: [[UInt8]: (at: ContinuousClock.Instant, held: Int)] = [:]
    let interval: Duration
    let peers: Int

    init(interval: Duration = .seconds(1), peers: Int = 4_096) {
        self.interval = interval
        self.peers = peers
    }

    /// Whether to log a warning about `peer` now; if so, how many were held back since the last one logged.
    mutating func allow(_ peer: [UInt8], at now: ContinuousClock.Instant) -> Int? {
        if let entry = last[peer], now - entry.at < interval {
            last[peer]?.held += 1
            return nil
        }
        if last.count >= peers, last[peer] == nil { last.removeAll(keepingCapacity: true) }
        let held = last[peer]?.held ?? 0
        last[peer] = (now, 0)
        return held
    }
}
