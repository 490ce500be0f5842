extension Duration {
    /// The duration in whole milliseconds, rounded up (so that a non-zero duration never becomes "no wait at
    /// all"), or `nil` when it is negative or does not fit in `Int64`.
    var roundedUpMilliseconds: Int64? {
        guard self >= .zero else {
            return nil
        }
        let (seconds, attoseconds) = components
        let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
        let (whole, remainder) = attoseconds.quotientAndRemainder(dividingBy: attosecondsPerMillisecond)
        let fraction = whole + (remainder > 0 ? 1 : 0)
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else {
            return nil
        }
        let (total, overflowAdding) = milliseconds.addingReportingOverflow(fraction)
        return overflowAdding ? nil : total
    }
}
