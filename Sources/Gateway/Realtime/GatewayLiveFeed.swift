import RealtimeFollowing
import TransitModel

/// The gateway's consumer of the realtime stream: every topic assembled into a `RealtimeState`
/// (`LiveStateAssembler`) and handed to the boards' `RealtimeView` after each burst, with the stop ids whose
/// boards changed. The view counts only PUB traffic as heard, and serves static_only once the publisher is silent.
public struct GatewayLiveFeed: RealtimeStreamConsumer {
    let view: RealtimeView
    var assembler = LiveStateAssembler()

    public init(view: RealtimeView) {
        self.view = view
    }

    public mutating func applySnapshot(_ payload: LivePayload) { assembler.applySnapshot(payload) }

    public mutating func apply(_ payload: LivePayload) { assembler.apply(payload) }

    public mutating func heartbeat(_ beat: LiveHeartbeat) {
        assembler.setSources(beat.sources)
        view.notePublisherResidentBytes(beat.residentBytes)
    }

    public mutating func silenceNoticed() { view.silenceNoticed() }

    public mutating func handOver(heard: Bool) {
        if let change = assembler.takeChange() {
            view.replace(assembler.state, change: change, heard: heard)
        } else if heard {
            view.heartbeat()
        }
    }
}

/// The gateway's subscriber to the realtime stream.
public typealias GatewayRealtimeSubscriber = RealtimeSubscriber<GatewayLiveFeed>
