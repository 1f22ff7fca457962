import Foundation
import ProcessSupport
import Testing

@testable import Gateway

/// Hang detection: each event loop of the gateway advances its own watchdog component every second, for as
/// long as the gateway runs. (Real clock, grace 1.5 s: a loop that advanced only at the start would be late
/// after 4 s.)
@Suite struct EventLoopHeartbeatTests {
    @Test func everyEventLoopAdvancesTheWatchdogWhileTheGatewayRuns() async throws {
        let watchdog = Watchdog(grace: 1.5)
        try await withGateway(configure: {
            $0.threads = 2
            $0.watchdog = watchdog
        }) { _ in
            try await Task.sleep(for: .seconds(4))
            #expect(watchdog.componentNames == ["event loop 1", "event loop 2"])
            #expect(watchdog.late().isEmpty, "\(watchdog.late())")
        }
        // Stopped on purpose: no longer watched.
        #expect(watchdog.componentNames.isEmpty)
    }
}
