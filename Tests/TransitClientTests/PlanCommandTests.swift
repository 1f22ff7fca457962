import ArgumentParser
import Testing
import TransitClient

@testable import transit

/// `transit plan FROM TO`: negative coordinates are places, not options, and one time is given at most.
@Suite struct PlanCommandTests {
    static func parse(_ arguments: [String]) throws -> PlanCommand {
        let command = try Transit.parseAsRoot(Transit.negativeNumbersAsValues(arguments))
        return try #require(command as? PlanCommand)
    }

    @Test func negativeCoordinatesArePlaces() throws {
        #expect(
            Transit.negativeNumbersAsValues(["plan", "-33.87,151.2", "200060", "--at", "100"])
                == ["plan", "--at", "100", "--", "-33.87,151.2", "200060"])
        let south = try Self.parse(["plan", "-33.87,151.2", "200060", "--at", "100"])
        #expect(PlanCommand.place(south.from) == .coordinate(lat: -33.87, lon: 151.2))
        #expect(PlanCommand.place(south.to) == .stop("200060"))
        #expect(south.at == 100 && south.arriveBy == nil)
        let both = try Self.parse(["plan", "200060", "--plain", "-33.9,-151.1", "--arrive-by", "500"])
        #expect(PlanCommand.place(both.from) == .stop("200060"))
        #expect(PlanCommand.place(both.to) == .coordinate(lat: -33.9, lon: -151.1))
        #expect(both.arriveBy == 500 && both.at == nil && both.options.plain)
    }

    @Test func atWithArriveByIsAUsageError() {
        do {
            _ = try Self.parse(["plan", "-33.87,151.2", "200060", "--at", "100", "--arrive-by", "200"])
            Issue.record("--at with --arrive-by was accepted")
        } catch {
            #expect(Transit.exitCode(for: error) == .validationFailure)
            #expect(Transit.message(for: error).contains("--at or --arrive-by, not both"), "\(error)")
        }
    }
}
