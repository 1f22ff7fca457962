// The fuzz targets run on the committed regression inputs (crashes the fuzzer once found, Tests/FuzzRegressions/
// <target>/) and on the seeds, without the fuzzer: a regression comes back as a crash of this test process.
import Foundation
import Testing

@testable import FuzzTargets

@Suite struct FuzzRegressionTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    static func files(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map {
            folder.appendingPathComponent($0)
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func regressionInputsRunWithoutCrashing(_ target: FuzzTarget) throws {
        for file in Self.files(in: Self.tests.appendingPathComponent("FuzzRegressions/\(target.rawValue)")) {
            target.run(Array(try Data(contentsOf: file)))
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func generatedSeedsAreAcceptedInputs(_ target: FuzzTarget) {
        for seed in target.generatedSeeds {
            #expect(!seed.bytes.isEmpty, "\(seed.name)")
            target.run(seed.bytes)
        }
    }

    @Test func generatedFeedsDecodeAndResolveAgainstTheFixedSchedule() throws {
        let seeds = FuzzTarget.gtfsRealtime.generatedSeeds
        #expect(seeds.count == 2)
        for seed in seeds { FuzzTarget.gtfsRealtime.run(seed.bytes) }
        // The seed trips are the fixed schedule's, so the resolver's matching code is what the fuzzer starts in.
        #expect(FuzzGTFSRealtime.resolvedTrips(seeds[0].bytes) == 2)
    }

    @Test func officialFeedsAndTruncationsOfThemRunWithoutCrashing() throws {
        let fixtures = Self.tests.appendingPathComponent("GTFSRealtimeTests/Fixtures")
        let feeds = Self.files(in: fixtures).filter { $0.pathExtension == "pb" }
        #expect(feeds.count == 4)  // trip updates, vehicle positions, alerts, detours
        for feed in feeds {
            let bytes = Array(try Data(contentsOf: feed))
            for cut in stride(from: 0, through: bytes.count, by: max(1, bytes.count / 50)) {
                FuzzTarget.gtfsRealtime.run(Array(bytes[..<cut]))
            }
        }
    }
}
