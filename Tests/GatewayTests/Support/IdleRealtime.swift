import Foundation
import TransitTesting

extension TemporaryFolder {
    /// Writes `realtime.json` here: one source whose file never appears, polled every second (a realtime
    /// service that runs, elects and publishes without data); returns its path for `serve --config`.
    func writeIdleRealtimeConfig() throws -> String {
        let path = self.path + "/realtime.json"
        try Data(
            #"{"sources": [{"name": "trips", "kind": "auto", "url": "file://\#(self.path)/none.pb", "poll_interval_s": 1}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: path))
        return path
    }
}
