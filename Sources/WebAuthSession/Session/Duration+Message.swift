extension Duration {
    /// The duration to a tenth of a second, for a message a person reads: a timeout that got what
    /// was left of a command's time says `11.3 seconds`, not `11.289737147 seconds`.
    var roundedForMessage: Duration {
        let (seconds, attoseconds) = components
        let tenths = (Double(seconds) * 10 + Double(attoseconds) / 1e17).rounded()
        return .milliseconds(Int64(tenths) * 100)
    }
}
