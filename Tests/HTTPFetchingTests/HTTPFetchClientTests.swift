// The project's HTTP client against a fake server on 127.0.0.1: downloads to a file under the cap, the cap
// and the deadline, conditional GET, and errors that never name the URL's secrets.
import Foundation
import HTTPFetching
import Testing
import TransitTesting

@Suite struct HTTPFetchClientTests {
    @Test func downloadsToAFileAndRemembersTheValidators() async throws {
        let body = [UInt8](repeating: 7, count: 100_000)
        let server = try await FakeHTTPServer.start { request in
            if request.header("If-None-Match") == "\"v1\"" { return .respond(status: 304) }
            return .respond(
                status: 200, headers: [("ETag", "\"v1\""), ("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT")],
                body: body, chunked: true)
        }
        defer { Task { await server.shutdown() } }
        let folder = try TemporaryFolder()
        let path = folder.path + "/feed.zip"
        let request = HTTPFetchRequest(url: server.url(), maxBytes: 1_000_000, timeout: .seconds(5))
        let first = try await HTTPFetchClient.shared.fetch(request, to: .file(path)).get()
        #expect(first.response.status == 200 && first.response.byteCount == body.count && first.body.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(body))
        let validators = CacheValidators(responseHeaders: first.response.headers)
        #expect(validators == CacheValidators(etag: "\"v1\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT"))

        var conditional = request
        conditional.validators = validators
        let second = try await HTTPFetchClient.shared.fetch(conditional).get()
        #expect(second.response.isNotModified)
        #expect(server.requests.last?.header("If-Modified-Since") == "Wed, 21 Oct 2015 07:28:00 GMT")
    }

    @Test(arguments: [false, true])
    func aBodyOverTheCapIsAbortedAndItsFileRemoved(_ chunked: Bool) async throws {
        let server = try await FakeHTTPServer.start { _ in
            .respond(status: 200, body: [UInt8](repeating: 1, count: 200_000), chunked: chunked)
        }
        defer { Task { await server.shutdown() } }
        let folder = try TemporaryFolder()
        let path = folder.path + "/feed.zip"
        let result = await HTTPFetchClient.shared.fetch(
            HTTPFetchRequest(url: server.url(), maxBytes: 100_000, timeout: .seconds(5)), to: .file(path))
        #expect(throws: HTTPFetchError.tooLarge(limit: 100_000)) { try result.get() }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aHungServerIsATimeout() async throws {
        let server = try await FakeHTTPServer.start { _ in .hang }
        defer { Task { await server.shutdown() } }
        let start = ContinuousClock.now
        let result = await HTTPFetchClient.shared.fetch(
            HTTPFetchRequest(url: server.url(), maxBytes: 1000, timeout: .milliseconds(300)))
        #expect(throws: HTTPFetchError.timeout(.milliseconds(300))) { try result.get() }
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test func anErrorStatusComesBackWithoutItsBody() async throws {
        let server = try await FakeHTTPServer.start { _ in .respond(status: 503, body: Array("busy".utf8)) }
        defer { Task { await server.shutdown() } }
        let answer = try await HTTPFetchClient.shared.fetch(
            HTTPFetchRequest(url: server.url(), maxBytes: 1000, timeout: .seconds(5))
        ).get()
        #expect(answer.response.status == 503 && answer.body.isEmpty)
    }

    @Test func redactionDropsUserInfoQueryAndFragment() {
        #expect(
            HTTPFetchRequest.redact("https://user:secret@api.example.com:8443/v1/gtfs?api_key=abc#x")
                == "https://api.example.com:8443/v1/gtfs")
        #expect(HTTPFetchRequest.redact("http://h/p") == "http://h/p")
        #expect(CacheValidators().requestHeaders.isEmpty)
    }
}
