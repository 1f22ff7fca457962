import Foundation
import Testing
import TransitTesting

@testable import Gateway

/// Lines, order, half-close and ids over a real socket (GATEWAY.md §1).
@Suite struct FramingTests {
    @Test func tenPipelinedRequestsInOneWriteAreAnsweredInOrder() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            // Mixed ops: slow static round trips, instant local answers and parse errors, so completions
            // come back out of order and must be put back in order.
            let at = SampleTimes.mondayEvening
            let lines = [
                #"{"id":0,"op":"departures","stop_id":"200060","at":\#(at),"limit":20}"#,
                #"{"id":1,"op":"stats"}"#,
                #"{"id":2,"op":"stop","stop_id":"200070"}"#,
                "{bad json",
                #"{"id":4,"op":"routes"}"#,
                #"{"id":5,"op":"unsubscribe","sub":3}"#,
                #"{"id":6,"op":"search","q":"central"}"#,
                #"{"id":7,"op":"feed_info"}"#,
                #"{"id":8,"op":"nope"}"#,
                #"{"id":9,"op":"health"}"#,
            ]
            try client.sendLines(lines)
            let answers = try await client.readLines(10).map { try JSONLine($0) }
            let ids = answers.map { $0.id as? Int }
            #expect(ids == [0, 1, 2, nil, 4, 5, 6, 7, 8, 9])
            #expect(answers[3].errorCode == "BAD_JSON")
            #expect(answers[5].errorCode == "NOT_FOUND")
            #expect(answers[8].errorCode == "UNKNOWN_OP")
            #expect(answers[0].ok && answers[2].ok && answers[9].ok)
        }
    }

    @Test func crlfLinesAndBlankLines() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            try client.send(
                "{\"id\":1,\"op\":\"stop\",\"stop_id\":\"200060\"}\r\n\r\n   \n{\"id\":2,\"op\":\"stats\"}\r\n")
            let first = try JSONLine(try await client.readLine())
            let second = try JSONLine(try await client.readLine())
            #expect(first.id as? Int == 1 && first.ok)
            #expect(second.id as? Int == 2 && second.ok)
            // Blank lines got no answer: nothing else arrives.
            await #expect(throws: LineClient.TimedOut.self) {
                _ = try await client.readLine(timeout: .milliseconds(200))
            }
        }
    }

    @Test func halfCloseStillGetsEveryAnswerThenTheGatewayCloses() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            let at = SampleTimes.mondayEvening
            // The last line has no terminator: it is still a request.
            try client.send(
                #"{"id":1,"op":"departures","stop_id":"200060","at":\#(at)}"# + "\n"
                    + #"{"id":2,"op":"stop","stop_id":"200070"}"# + "\n"
                    + #"{"id":3,"op":"feed_info"}"#)
            client.shutdownWrite()
            let lines = try await client.readUntilClosed()
            let answers = try lines.map { try JSONLine($0) }
            #expect(answers.map { $0.id as? Int } == [1, 2, 3])
            #expect(answers.allSatisfy { $0.ok })
            #expect(lines.allSatisfy { !$0.contains("\r") })
        }
    }

    @Test func idsAreEchoedByteForByte() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            let ids = [#"12345678901234567890123"#, #"1.5e300"#, #"-0"#, #""a\u00e9\"b""#, "true", "null", #""""#]
            try client.sendLines(ids.map { #"{"id":\#($0),"op":"stats"}"# })
            for id in ids {
                let line = try await client.readLine()
                #expect(line.hasPrefix(#"{"id":\#(id),"ok":true,"#), "\(line)")
            }
            // Absent id → null; an object id → INVALID_ARGUMENT with a null id.
            let absent = try await client.ask(#"{"op":"stats"}"#)
            #expect(absent.text.hasPrefix(#"{"id":null,"ok":true"#))
            let object = try await client.ask(#"{"id":{"a":1},"op":"stats"}"#)
            #expect(object.errorCode == "INVALID_ARGUMENT")
            #expect(object.text.hasPrefix(#"{"id":null,"#))
            // An error answer echoes the id too.
            let error = try await client.ask(#"{"id":98765432109876543210,"op":"stop"}"#)
            #expect(error.text.hasPrefix(#"{"id":98765432109876543210,"ok":false"#))
        }
    }

    @Test func aTooLongLineIsAnsweredAndTheConnectionStaysUsable() async throws {
        try await withGateway(configure: { $0.maxLineBytes = 1024 }) { fixture in
            let client = try fixture.client()
            let long = #"{"id":1,"op":"search","q":""# + String(repeating: "x", count: 5000) + #""}"#
            // The long line, then a normal one in the same write.
            try client.send(long + "\n" + #"{"id":2,"op":"stats"}"# + "\n")
            let tooLong = try JSONLine(try await client.readLine())
            #expect(tooLong.errorCode == "LINE_TOO_LONG")
            #expect(tooLong.id is NSNull)
            let next = try JSONLine(try await client.readLine())
            #expect(next.id as? Int == 2 && next.ok)

            // A long line arriving in pieces: answered once, its tail discarded up to the newline.
            try client.send(String(repeating: "y", count: 800))
            try client.send(String(repeating: "y", count: 800))
            let early = try JSONLine(try await client.readLine())
            #expect(early.errorCode == "LINE_TOO_LONG")
            try client.send(
                String(repeating: "z", count: 3000) + "\n" + #"{"id":3,"op":"stop","stop_id":"200060"}"# + "\n")
            let after = try JSONLine(try await client.readLine())
            #expect(after.id as? Int == 3 && after.ok, "\(after)")

            // Exactly the limit (terminator excluded), with \r\n: a request, not too long.
            let exact = #"{"id":4,"op":"stats"}"#
            try client.send(exact + String(repeating: " ", count: 1024 - exact.utf8.count) + "\r\n")
            let fits = try JSONLine(try await client.readLine())
            #expect(fits.id as? Int == 4 && fits.ok)
        }
    }

    @Test func theDefaultLineLimitIs64KiB() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            let padding = String(repeating: " ", count: 64 * 1024)
            try client.send(#"{"id":1,"op":"stats"}"# + padding + "\n" + #"{"id":2,"op":"stats"}"# + "\n")
            #expect(try JSONLine(try await client.readLine()).errorCode == "LINE_TOO_LONG")
            #expect(try JSONLine(try await client.readLine()).id as? Int == 2)
        }
    }
}
