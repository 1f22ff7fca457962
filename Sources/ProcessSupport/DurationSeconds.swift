extension Duration {
    /// The duration in seconds, with its fraction: the default of a seconds flag (`--idle-timeout 30.0`) read from a
    /// configuration struct's `Duration` default, so that the flag's help states the struct's default; a duration
    /// as metrics count it.
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
