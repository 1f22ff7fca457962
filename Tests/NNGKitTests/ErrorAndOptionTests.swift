import Foundation
import Testing
import TransitTesting

@testable import NNGKit

@Suite struct ErrorAndOptionTests {
    /// NNGKIT_EXIT_ON_UNFINISHED_CLOSE takes an exit code 1…255; anything else is ignored (and named on stderr).
    @Test func theExitOnUnfinishedCloseSettingTakesAnExitCode() {
        #expect(UnfinishedCloses.exitCode("75") == 75)
        #expect(UnfinishedCloses.exitCode("255") == 255)
        for bad in ["0", "256", "-1", "", "abc", "75 "] { #expect(UnfinishedCloses.exitCode(bad) == nil, "\(bad)") }
    }

    @Test func errorNamesOperationURLAndNngText() throws {
        let url = UniqueURL.ipc("nngkit")
        let first = try NNGSocket.rep()
        try first.listen(url)
        defer { first.close() }
        let second = try NNGSocket.rep()
        let error = #expect(throws: NNGError.self) { try second.listen(url) }
        #expect(error?.description.contains("Address in use") == true, "\(String(describing: error))")
        #expect(error?.description.contains(url) == true)
        #expect(error?.isTimedOut == false)
    }

    @Test func badURLIsRejectedAtDial() throws {
        let socket = try NNGSocket.req()
        let error = #expect(throws: NNGError.self) { try socket.dial("nosuchtransport://x") }
        #expect(error?.description.contains("nosuchtransport://x") == true)
        #expect(error?.reason.isEmpty == false)
    }

    @Test func blockingDialFailsWhenNobodyListens() throws {
        let socket = try NNGSocket.req()
        #expect(throws: NNGError.self) { try socket.dial(UniqueURL.ipc("nngkit"), blocking: true) }
        try socket.dial(UniqueURL.ipc("nngkit"))  // non-blocking: fine
    }

    @Test func timeoutErrorsAreRecognisable() {
        #expect(NNGError(operation: "x", code: 5).isTimedOut)
        #expect(NNGError(operation: "x", code: 7).isClosed)
        #expect(NNGError(operation: "receive", code: 5).description == "receive failed: Timed out (nng error 5)")
    }

    @Test func plainSocketTimeoutsApply() throws {
        let socket = try NNGSocket.sub()
        try socket.setReceiveTimeout(.milliseconds(50))
        let start = ContinuousClock.now
        let error = #expect(throws: NNGError.self) { try socket.receive() }
        #expect(error?.isTimedOut == true)
        #expect(elapsed(since: start) < .seconds(5))  // generous: only "no hang" matters
    }

    @Test func closeWakesPendingReceivesAndIsIdempotent() async throws {
        let sub = try NNGSubscriber(dialing: UniqueURL.inproc("nngkit"), topics: [[]])
        let asyncReceive = Task { () -> (any Error)? in
            do { _ = try await sub.receive(timeout: .seconds(10)); return nil } catch { return error }
        }
        let blockingDone = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var blockingError: NNGError?
        DispatchQueue.global().async {
            do throws(NNGError) { _ = try sub.receive(timeout: .seconds(10)) } catch { blockingError = error }
            blockingDone.signal()
        }
        try await Task.sleep(for: .milliseconds(50))
        let start = ContinuousClock.now
        #expect(sub.close())
        #expect(sub.close())
        #expect((await asyncReceive.value as? NNGError)?.isClosed == true)
        blockingDone.wait()
        #expect(blockingError?.isClosed == true)
        #expect(elapsed(since: start) < .seconds(5))  // generous: only "no hang" matters
    }

    @Test func durationsConvertToNngMilliseconds() {
        #expect(Duration.milliseconds(1500).nngMilliseconds == 1500)
        #expect(Duration.microseconds(200).nngMilliseconds == 1)  // rounded up, never "poll"
        #expect(Duration.zero.nngMilliseconds == 0)
        #expect(Duration.seconds(-3).nngMilliseconds == 0)
        #expect(Duration.seconds(Int64.max).nngMilliseconds == Int32.max - 1)
        #expect(nngDuration(nil) == -1)
    }
}
