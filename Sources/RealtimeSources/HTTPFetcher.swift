// Polls one http(s) source through the project's HTTP client: conditional GET (remembering ETag and
// Last-Modified), status mapping.
import Foundation
import HTTPFetching

struct HTTPFetcher {
    let url: URL
    let headers: [HTTPHeader]
    let timeout: Duration
    let maxBytes: Int
    let client: HTTPFetchClient
    private var validators = CacheValidators()

    init(url: URL, source: SourceConfig, client: HTTPFetchClient) {
        self.url = url
        headers = source.headers
        timeout = source.timeout
        maxBytes = source.maxBytes
        self.client = client
    }

    mutating func fetch() async -> FetchOutcome {
        var requestHeaders: [(name: String, value: String)] = [
            ("Accept", "application/x-google-protobuf, application/x-protobuf, application/octet-stream, */*;q=0.1")
        ]
        for header in headers { requestHeaders.append((header.name, header.value.revealed)) }
        let request = HTTPFetchRequest(
            url: url.absoluteString, headers: requestHeaders, validators: validators, maxBytes: maxBytes,
            timeout: timeout)
        switch await client.fetch(request) {
        case .failure(let error):
            return .failed(FetchError(error), retryAfter: nil)
        case .success(let (response, body)):
            let httpDate = response.headers["date"].flatMap(HTTPDate.parse)
            switch response.status {
            case 304:
                return .notModified
            case 200..<300:
                validators = CacheValidators(responseHeaders: response.headers)
                return .fetched(bytes: body, httpDate: httpDate)
            default:
                let retryAfter = response.headers["retry-after"].flatMap { HTTPDate.retryAfter($0, now: Date()) }
                return .failed(.httpStatus(response.status), retryAfter: retryAfter)
            }
        }
    }
}

extension FetchError {
    /// The HTTP client's failure as a source's.
    init(_ error: HTTPFetchError) {
        switch error {
        case .timeout(let limit): self = .timeout(limit)
        case .tooLarge(let limit): self = .tooLarge(limit: limit)
        case .connection(let reason): self = .connection(reason)
        case .destination(let reason): self = .connection(reason)
        case .cancelled: self = .cancelled
        }
    }
}
