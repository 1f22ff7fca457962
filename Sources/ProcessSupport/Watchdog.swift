import Foundation
import Synchronization

/// Proof that a process moves: each loop that must keep running (an event loop, a request worker, a poll loop,
/// the publisher) is a named component that `advance`s every time round, saying when it will be back. A
/// component is late once it is `grace` past that; `late()` lists them. `WatchdogNotifier` turns "none late"
/// into the heartbeat a supervisor watches, so a process that is stopped (SIGSTOP), deadlocked or stuck in one
/// loop stops beating and is restarted.
///
/// Time is injected (`now`: monotonic seconds), so the logic is tested without waiting.
public final class Watchdog: Sendable {
    /// A component that did not advance in time.
    public struct Late: Sendable, Equatable, CustomStringConvertible {
        public let component: String
        /// Seconds since it last advanced.
        public let silentFor: Double

        public init(component: String, silentFor: Double) {
            self.component = component
            self.silentFor = silentFor
        }

        public var description: String {
            "\(component) has not advanced for \(String(format: "%.1f", silentFor)) s"
        }
    }

    private struct Component {
        var advancedAt: Double
        /// When it said it would advance again (at the latest).
        var dueAt: Double
    }

    /// Seconds a component may be past its due time before it counts as late.
    public let grace: Double
    private let now: @Sendable () -> Double
    private let components = Mutex<[String: Component]>([:])

    /// The default grace: a component is late 5 s after it was due (a supervisor's 10 s watchdog then fires
    /// within 15 s of the hang).
    public static let defaultGrace = 5.0

    public init(
        grace: Double = Watchdog.defaultGrace, now: @escaping @Sendable () -> Double = Watchdog.monotonicSeconds
    ) {
        self.grace = grace
        self.now = now
    }

    /// Seconds on the monotonic clock (never set back, counts while the process is stopped).
    @Sendable public static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// `component` moved now and will advance again within `nextWithin` (its period, or the longest wait it
    /// is about to do: a poll loop's sleep, a fetch's timeout). Registers it on first use.
    public func advance(_ component: String, nextWithin: Duration = .zero) {
        let time = now()
        let within = Double(nextWithin.components.seconds) + Double(nextWithin.components.attoseconds) / 1e18
        components.withLock { $0[component] = Component(advancedAt: time, dueAt: time + max(0, within)) }
    }

    /// `component` stopped on purpose (a source removed, a replay finished): it is no longer watched.
    public func remove(_ component: String) {
        _ = components.withLock { $0.removeValue(forKey: component) }
    }

    /// The components more than `grace` past their due time, by name.
    public func late() -> [Late] {
        let time = now()
        return components.withLock { components in
            components.compactMap { name, component in
                time > component.dueAt + grace ? Late(component: name, silentFor: time - component.advancedAt) : nil
            }
        }.sorted { $0.component < $1.component }
    }

    /// The names being watched, sorted.
    public var componentNames: [String] { components.withLock { Array($0.keys) }.sorted() }
}
