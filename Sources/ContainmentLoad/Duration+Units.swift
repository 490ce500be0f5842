/// Durations as the load commands report them.
extension Duration {
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    public var nanoseconds: UInt64 {
        UInt64(clamping: components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000)
    }
}
