import ArgumentParser
import Logging
import Prometheus

/// `--metrics host:port`: where a service serves its Prometheus text (`MetricsEndpoint`); none without it.
public struct MetricsOptions: ParsableArguments, Sendable {
    @Option(
        help: ArgumentHelp(
            "Serve Prometheus metrics at http://host:port/metrics (e.g. 127.0.0.1:9465; port 0: any free one).",
            valueName: "host:port"))
    public var metrics: String?

    public init() {}

    public func validate() throws {
        if let metrics, MetricsEndpoint.parseAddress(metrics) == nil {
            throw ValidationError("--metrics must be host:port, got \(metrics)")
        }
    }

    /// The metrics backend of the process when `--metrics` is given (`MetricsEndpoint.bootstrap`): call it before
    /// anything makes its metric handles.
    public func bootstrap() -> PrometheusCollectorRegistry? { metrics.map { _ in MetricsEndpoint.bootstrap() } }

    /// The endpoint serving `registry` at `--metrics` (nil without it), its URL logged; `refresh` as
    /// `MetricsEndpoint.init` takes it. Throws `MetricsListenError` when it cannot listen there.
    public func endpoint(
        _ registry: PrometheusCollectorRegistry?, logger: Logger,
        refresh: @escaping @Sendable (ScrapedValues) -> Void = { _ in }
    ) async throws(MetricsListenError) -> MetricsEndpoint? {
        guard let registry, let address = metrics.flatMap(MetricsEndpoint.parseAddress) else { return nil }
        do {
            let endpoint = try await MetricsEndpoint(
                host: address.host, port: address.port, registry: registry, refresh: refresh)
            logger.info("metrics", metadata: ["url": "http://\(address.host):\(endpoint.port)/metrics"])
            return endpoint
        } catch {
            throw MetricsListenError(address: "\(address.host):\(address.port)", reason: "\(error)")
        }
    }
}

/// `--metrics`' address could not be listened on.
public struct MetricsListenError: Error, CustomStringConvertible {
    public let address: String
    public let reason: String
    public var description: String { "cannot listen for --metrics on \(address): \(reason)" }
}
