// RealtimeSources: fetches the bytes of GTFS-Realtime feeds; decoding and live state are elsewhere.
//
//     let config = try RealtimeConfig.load(path: "config/realtime-tfnsw.json")   // $TFNSW_API_KEY expanded
//     let sources = try SourceGroup(
//         config: config, restamp: { try GTFSRealtimeCodec.restamp($0, timestamp: $1) }, logger: logger
//     ) { event in
//         switch event {
//         case .fetched(let feed): ...          // decode feed.bytes, apply as source feed.source
//         case .notModified(let source): ...    // 304 or unchanged file: the last bytes still hold
//         case .failed(let source, let error): ...  // keep the last good state, count error.description
//         }
//     }
//     sources.start()
//     ... sources.status()                       // per source: last success, last error, counts, next poll
//     await sources.stop()
//
// - RealtimeConfig: the JSON config (RealtimeConfigLoader.swift documents the format), validated with errors
//   naming file, source and field; refused when its planned requests a day exceed daily_request_budget.
// - SourceGroup: one SourcePoller per source, one shared HTTP client (HTTPFetching) and RequestPacer, staggered first polls.
// - SourcePoller: the loop of one source (a Task): schedule, backoff (Backoff), conditional requests, file
//   change detection, replay. Events go to the handler, which polling awaits.
// - Secrets: header values are SecretValue, shown as <redacted> in every description, dump and status; errors
//   and logs never contain them (nor response bodies, which may echo them).
// To consume events as an AsyncStream, yield from the handler into an AsyncStream.Continuation (a bounded
// buffer would drop feeds; an unbounded one lets a slow consumer pile them up, which the handler avoids).
