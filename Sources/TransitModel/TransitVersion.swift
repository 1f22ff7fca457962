/// The version of the whole system: what `--version` prints for each of the three services and what the
/// gateway's `health` answer reports.
public enum TransitVersion {
    /// Semantic version of this release, e.g. "0.1.0".
    public static let current = "0.1.0"
}
