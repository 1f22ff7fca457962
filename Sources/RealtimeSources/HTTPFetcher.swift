// Polls one http(s) source: conditional GET (remembering ETag and Last-Modified), status mapping.
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct HTTPFetcher {
    let url: URL
    let headers: [HTTPHeader]
    let timeout: Duration
    let maxBytes: Int
    let client: HTTPClient
    private var etag: String?
    private var lastModified: String?

    init(url: URL, source: SourceConfig, client: HTTPClient) {
        self.url = url
        headers = source.headers
        timeout = source.timeout
        maxBytes = source.maxBytes
        self.client = client
    }

    mutating func fetch() async -> FetchOutcome {
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.setValue(
            "application/x-google-protobuf, application/x-protobuf, application/octet-stream, */*;q=0.1",
            forHTTPHeaderField: "Accept")
        for header in headers { request.setValue(header.value.revealed, forHTTPHeaderField: header.name) }
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified { request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }

        switch await client.perform(request, maxBytes: maxBytes, timeout: timeout) {
        case .failure(let error):
            return .failed(error, retryAfter: nil)
        case .success(let response):
            let httpDate = response.headers["date"].flatMap(HTTPDate.parse)
            switch response.status {
            case 304:
                return .notModified
            case 200..<300:
                // Remember the validators of these bytes; a server that drops them gets plain requests again.
                etag = response.headers["etag"]
                lastModified = response.headers["last-modified"]
                return .fetched(bytes: response.body, httpDate: httpDate)
            default:
                let retryAfter = response.headers["retry-after"].flatMap { HTTPDate.retryAfter($0, now: Date()) }
                return .failed(.httpStatus(response.status), retryAfter: retryAfter)
            }
        }
    }
}
