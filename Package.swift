// swift-tools-version:6.1
import PackageDescription

// Module map (one job each):
//   CNNG, CSQLite          system libraries (nng is linked by name: Debian ships no nng.pc)
//   TransitProtoC          protobuf-c code generated from protocol/*.proto (committed; scripts/gen-proto)
//   TransitPresentation    what riders see, as plain rules (no dependencies): mode icons and labels, departure
//                          status, delay badges, countdowns, departure times, occupancy, alert banners, the
//                          route list's A–Z sections; the gateway's answers and the client library share it
//   TransitClient          the client library: async client of the gateway's line protocol over SwiftNIO
//                          (NIOTransportServices on Apple platforms), Codable answers, board subscriptions;
//                          depends on nothing of the server
//   TransitTerminal        the terminal client's rendering: ANSI colours, the live board and the lists
//   TransitCore            pure GTFS logic: modes, times, dates (civil dates: CivilCalendar), service days and
//                          time zones, calendars, frequencies, timetable weekdays, natural sort, polylines,
//                          base64url (board cursors); protobuf's varint (Varint: the one implementation the
//                          hand-written wire code shares)
//   JourneyPlanner         journey planning (RAPTOR, its range and arrive-by variants) over an in-memory timetable of a
//                          window of service days, with the live trips laid over it; pure, built from plain inputs
//                          (TransitStore loads them from the static database)
//   ProcessSupport         what a service process asks of the machine: the services' wall clock (ServiceClock:
//                          the machine's, or a replayed day's), the process's memory (ProcessMemory: resident
//                          size, giving freed heap memory back), a thread's priority (ThreadPriority: background
//                          work yields the CPU to answering threads; the gateway's subscriber), proof that the
//                          process moves (Watchdog; WatchdogNotifier's heartbeat file and sd_notify). No
//                          dependencies, so the service libraries (Gateway, StaticService, RealtimeService, RealtimeSources,
//                          RealtimeFixtures) use it without ServiceSupport's ArgumentParser, nng and lifecycle,
//                          and ServiceSupport's --clock options build on it
//   GTFSCSV                streaming byte-level CSV reader
//   SQLiteKit              thin SQLite wrapper
//   TransitModel           Swift value types of every message that crosses a process boundary
//   TransitProto           TransitModel <-> protobuf-c structs of transit.proto and realtime.proto, and the
//                          protobuf-c plumbing GTFSRealtime shares (package scope): the arena, pack/unpack, field
//                          presence helpers, decode errors
//   NNGKit                 Swift wrapper over nng (the only module calling nng)
//   TransitStore           GTFS -> SQLite import and the static queries over it
//   StrictJSON             exact JSON value tree and strict parser (gateway request lines, the realtime sources config)
//   EtcdClient             a small client of etcd's v3 JSON gateway on AsyncHTTPClient (no gRPC): leases, the
//                          compare-and-create transaction, reads; several endpoints failed over in turn, user and
//                          password, client TLS (the realtime service's leader election, `serve --election`)
//   GatewayProtocol        the gateway's line protocol and view model: the table of ops (GatewayOpKind), request
//                          parsing, the live views merged into static answers, every answer's encoder, the
//                          envelopes and the JSON writer
//   StaticService          the static-data service: nng REP server over TransitStore, with the journey planner
//                          and the live trips it follows from the realtime stream
//   RealtimeFollowing      following the realtime service: the PUB subscriber with flow 4's snapshot handshake
//                          (TopicSequencer), its REQ client, the epoch fence; one subscriber for every consumer
//                          (the gateway's boards, the static service's planner)
//   FeedGenerator          deterministic NSW-scale synthetic GTFS feed for benchmarks
//   GTFSRealtime           GTFS-Realtime feed model, decoded from / encoded to protobuf through protobuf-c's
//                          gtfs-realtime.proto structs: the conversions, the split decode, the lenient wire check
//                          against protobuf-c's own descriptors, TfNSW's extensions read from its unknown fields,
//                          the experimental detour entities (trip modifications, shapes, stops); its alert texts
//                          are TransitModel's TranslatedText, the one type of them in every process
//   Gateway                the query gateway: SwiftNIO TCP line server, op dispatch, static+realtime merge
//   GatewayHTTP            the gateway's HTTP/1.1 and WebSocket port (`--http`, GATEWAY.md §8) on HummingbirdCore:
//                          GET/POST /v1/<op> through Gateway's dispatcher, the status table, CORS, Bearer, gzip,
//                          /v1/ws as a line connection of Gateway, the OpenAPI document (scripts/gen-openapi),
//                          the live web board at / (one page: WebBoardPage)
//   HTTPFetching           the project's one HTTP client (AsyncHTTPClient): GET with a deadline over the whole
//                          exchange, a body cap enforced while streaming (into memory or a file), same-host
//                          redirects only; conditional-GET validators, `$VAR` expansion, retry backoff
//   FeedRefresh            static feeds that refresh themselves: URL feeds checked on a schedule (conditional GET),
//                          imported beside the serving database, validated against it, renamed into place; the
//                          state file health and feed_info read (`transit-static refresh`)
//   RealtimeSources        realtime feed sources: config, HTTP polling with budget/backoff, file and replay sources
//   DelayStore             the recorded departure delays: histograms per route, stop, hour and day type in SQLite
//   RealtimeService        the realtime service: live state, nng PUB (changes) and REP (queries, snapshots);
//                          reaches the static data only through the static service (no TransitStore/SQLiteKit);
//                          leader election through etcd (LeaderElection's timing, ElectionRole) and epochs
//   RealtimeFixtures       GTFS-Realtime feeds and a recorded delay history made to fit a static database
//                          (`transit-realtime fixtures`, tests)
//   RealtimeBench          the realtime benchmarks over a static database (`transit-realtime bench`)
//   RealtimeCore           pure realtime logic: resolving trip updates against schedules, trip instances,
//                          detours (GTFS-Realtime trip modifications applied to static trips)
//   LoadGenerator          the load generator behind `transit-bench load`: workloads (ops named from
//                          GatewayProtocol's table), SwiftNIO line clients (closed and open loop), nng clients,
//                          answer checks, HdrHistogram reports, CPU per answer
//   FuzzTargets            the fuzz targets over the parsers of untrusted bytes (transit-fuzz, scripts/fuzz, and the
//                          replay of Tests/FuzzRegressions in FuzzTargetsTests)
//   ServiceMetrics         the services' Prometheus endpoint (`--metrics`), on HummingbirdCore's HTTP server
//   ServiceSupport         what the services' mains share beyond swift-service-lifecycle: error lines, unbuffered
//                          output, logging set-up, a reopenable log file, SIGHUP actions, the ServiceGroup run,
//                          the --clock and --watchdog-file options
//   TransitTesting         helpers the test targets share (only test targets depend on it): temporary folders,
//                          the imported sample database, protobuf wire writer, polling, log recorder
// protobuf-c pointers (TransitProtoC) are touched by exactly two modules: TransitProto (the messages between the
// processes) and GTFSRealtime (the feeds). GTFSRealtime converts its own structs where the feed model lives, since
// its decoding leans on protobuf-c itself (descriptors, unknown fields, per-entity unpacks); it builds on
// TransitProto's plumbing. Every other module sees Swift values only.
// Which module uses which: README.md ("What it is"), checked against this file by scripts/check-module-graph.
let swiftSettings: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "transit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "transit-static", targets: ["transit-static"]),
        .executable(name: "transit-feedgen", targets: ["transit-feedgen"]),
        .executable(name: "transit-bench", targets: ["transit-bench"]),
        .executable(name: "transit-gateway", targets: ["transit-gateway"]),
        .executable(name: "transit-realtime", targets: ["transit-realtime"]),
        // libFuzzer harness; scripts/fuzz builds it sanitized into .build-fuzz (the normal build: a replayer).
        .executable(name: "transit-fuzz", targets: ["transit-fuzz"]),
        // The client library (for apps and other Swift programs) and the terminal client built on it.
        .library(name: "TransitClient", targets: ["TransitClient"]),
        .executable(name: "transit", targets: ["transit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-transport-services", from: "1.20.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.1.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // HTTP: HummingbirdCore's server (its default traits off: no swift-configuration), NIO's WebSocket
        // upgrade, compress-nio's gzip. Not hummingbird-websocket: its server side hands frames to an async
        // handler where the gateway needs its line connection's channel handler on the upgraded channel, and its
        // client brings swift-nio-ssl's BoringSSL into the test build (the tests' client is a small raw one).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        // The one HTTP client of the project (realtime polls, static feed downloads): HTTPFetching wraps it.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
    ],
    targets: [
        .systemLibrary(name: "CNNG", path: "Sources/CNNG"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .target(
            name: "TransitProtoC",
            path: "Sources/TransitProtoC",
            cSettings: [.define("PROTOBUF_C__NO_DEPRECATED", to: "1")],
            linkerSettings: [.linkedLibrary("protobuf-c")]
        ),
        .target(name: "TransitCore", swiftSettings: swiftSettings),
        .target(name: "JourneyPlanner", dependencies: ["TransitCore"], swiftSettings: swiftSettings),
        .target(name: "ProcessSupport", swiftSettings: swiftSettings),
        .target(name: "TransitPresentation", swiftSettings: swiftSettings),
        .target(
            name: "TransitClient",
            dependencies: [
                "TransitPresentation",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(
                    name: "NIOTransportServices", package: "swift-nio-transport-services",
                    condition: .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS])),
            ],
            path: "Clients/TransitClient",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TransitTerminal", dependencies: ["TransitClient", "TransitPresentation"],
            path: "Clients/TransitTerminal", swiftSettings: swiftSettings),
        .executableTarget(
            name: "transit",
            dependencies: [
                "TransitClient", "TransitTerminal", "TransitPresentation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Clients/transit",
            swiftSettings: swiftSettings
        ),
        .target(name: "GTFSCSV", swiftSettings: swiftSettings),
        .target(name: "SQLiteKit", dependencies: ["CSQLite"], swiftSettings: swiftSettings),
        .target(name: "TransitModel", swiftSettings: swiftSettings),
        .target(
            name: "TransitProto", dependencies: ["TransitProtoC", "TransitModel", "TransitCore"],
            swiftSettings: swiftSettings),
        .target(name: "NNGKit", dependencies: ["CNNG"], swiftSettings: swiftSettings),
        .target(
            name: "TransitStore",
            dependencies: [
                "TransitCore", "TransitPresentation", "GTFSCSV", "SQLiteKit", "TransitModel", "JourneyPlanner",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(name: "StrictJSON", swiftSettings: swiftSettings),
        .target(
            name: "EtcdClient",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GatewayProtocol",
            dependencies: ["StrictJSON", "TransitModel", "TransitCore", "ProcessSupport", "TransitPresentation"],
            swiftSettings: swiftSettings),
        .target(
            name: "RealtimeFollowing",
            dependencies: [
                "NNGKit", "TransitModel", "TransitProto", "ProcessSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "StaticService",
            dependencies: [
                "TransitStore", "TransitCore", "ProcessSupport", "TransitProto", "NNGKit", "TransitModel",
                "FeedRefresh",
                "JourneyPlanner", "RealtimeFollowing",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(name: "FeedGenerator", dependencies: ["TransitCore"], swiftSettings: swiftSettings),
        .target(
            name: "ServiceSupport",
            dependencies: [
                "ProcessSupport", "NNGKit", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPFetching",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "FeedRefresh",
            dependencies: [
                "HTTPFetching", "TransitStore", "TransitModel", "SQLiteKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RealtimeSources",
            dependencies: [
                "HTTPFetching", "StrictJSON", "TransitCore", "ProcessSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RealtimeService",
            dependencies: [
                "DelayStore", "RealtimeCore", "RealtimeSources", "GTFSRealtime", "NNGKit", "TransitProto",
                "TransitModel", "EtcdClient",
                "TransitCore", "ProcessSupport", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DelayStore", dependencies: ["SQLiteKit", "TransitCore", "TransitModel"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RealtimeFixtures",
            dependencies: [
                "GTFSRealtime", "TransitCore", "ProcessSupport", "TransitModel", "TransitStore", "SQLiteKit",
                "DelayStore",
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RealtimeBench",
            dependencies: [
                "RealtimeService", "RealtimeFixtures", "RealtimeCore", "GTFSRealtime", "NNGKit", "TransitProto",
                "TransitModel", "TransitStore", "SQLiteKit", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ServiceMetrics",
            dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Gateway",
            dependencies: [
                "GatewayProtocol", "TransitModel", "TransitProto", "TransitCore", "ProcessSupport", "NNGKit",
                "RealtimeFollowing",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GatewayHTTP",
            dependencies: [
                "Gateway", "GatewayProtocol", "StrictJSON",
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["openapi.json"],  // served from OpenAPIDocument.swift (both written by scripts/gen-openapi)
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GTFSRealtime", dependencies: ["TransitProtoC", "TransitProto", "TransitModel", "TransitCore"],
            swiftSettings: swiftSettings),
        .target(
            name: "RealtimeCore",
            dependencies: ["GTFSRealtime", "TransitModel", "TransitCore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "LoadGenerator",
            dependencies: [
                "NNGKit", "SQLiteKit", "StrictJSON", "GatewayProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "FuzzTargets",
            dependencies: [
                "GTFSCSV", "GTFSRealtime", "RealtimeCore", "StrictJSON", "GatewayProtocol", "TransitModel",
                "TransitProto",
            ],
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "transit-static",
            dependencies: [
                "StaticService", "TransitStore", "GatewayProtocol", "TransitProto", "TransitModel", "ProcessSupport",
                "NNGKit", "FeedRefresh", "HTTPFetching",
                "ServiceSupport", "ServiceMetrics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Services/transit-static",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "transit-feedgen",
            dependencies: ["FeedGenerator", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Services/transit-feedgen",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "transit-gateway",
            dependencies: [
                "Gateway", "GatewayHTTP", "TransitModel", "TransitCore", "ProcessSupport", "ServiceSupport",
                "ServiceMetrics", "NNGKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Services/transit-gateway",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "transit-realtime",
            dependencies: [
                "RealtimeService", "RealtimeFixtures", "RealtimeBench", "RealtimeSources", "GTFSRealtime", "StrictJSON",
                "GatewayProtocol", "NNGKit", "TransitProto", "TransitModel", "TransitCore", "ProcessSupport",
                "ServiceSupport", "EtcdClient",
                "ServiceMetrics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Services/transit-realtime",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "transit-bench",
            dependencies: [
                "NNGKit", "TransitProto", "TransitModel", "SQLiteKit", "LoadGenerator", "TransitStore",
                "JourneyPlanner", "TransitCore", "ProcessSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Services/transit-bench",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "transit-fuzz", dependencies: ["FuzzTargets"], path: "Fuzz/transit-fuzz", swiftSettings: swiftSettings
        ),

        // Test support shared by the test targets (a regular target that only test targets depend on).
        .target(
            name: "TransitTesting",
            dependencies: [
                "TransitStore", "TransitCore", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/TransitTesting",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "TransitCoreTests", dependencies: ["TransitCore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "JourneyPlannerTests",
            dependencies: [
                "JourneyPlanner", "TransitCore", "TransitStore", "TransitTesting", "SQLiteKit", "TransitModel",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "ProcessSupportTests", dependencies: ["ProcessSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "TransitPresentationTests", dependencies: ["TransitPresentation"], swiftSettings: swiftSettings),
        .testTarget(
            name: "TransitClientTests",
            dependencies: [
                "TransitClient", "TransitTerminal", "TransitPresentation", "TransitTesting", "transit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            exclude: ["Fixtures"],  // read from the source tree by path (#filePath)
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "GTFSCSVTests", dependencies: ["GTFSCSV"], swiftSettings: swiftSettings),
        .testTarget(name: "NNGKitTests", dependencies: ["NNGKit", "TransitTesting"], swiftSettings: swiftSettings),
        .testTarget(
            name: "TransitProtoTests", dependencies: ["TransitProto", "TransitModel", "TransitTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TransitStoreTests",
            dependencies: [
                "TransitStore", "TransitCore", "TransitPresentation", "TransitModel", "SQLiteKit", "GTFSCSV",
                "TransitTesting", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"], swiftSettings: swiftSettings),
        .testTarget(
            name: "GatewayProtocolTests", dependencies: ["GatewayProtocol", "TransitModel", "TransitTesting"],
            // Read from the repository by path (TestSupport), not bundled.
            exclude: ["EncoderExamples.md"], swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ServiceSupportTests",
            dependencies: [
                "ServiceSupport", "ServiceMetrics", .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "StaticServiceTests",
            dependencies: [
                "transit-static", "StaticService", "TransitStore", "TransitProto", "NNGKit", "TransitModel",
                "GatewayProtocol", "SQLiteKit", "ProcessSupport", "TransitTesting", "JourneyPlanner", "TransitCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                "transit-gateway", "Gateway", "GatewayHTTP", "StaticService", "TransitStore", "GatewayProtocol",
                "NNGKit", "RealtimeFollowing",
                "TransitProto", "TransitModel",
                "RealtimeService", "GTFSRealtime", "ProcessSupport", "TransitTesting", "SQLiteKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            exclude: ["Fixtures"],  // read from the source tree by path (TimedReplayEndToEndTests)
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GTFSRealtimeTests", dependencies: ["GTFSRealtime", "TransitModel", "TransitTesting"],
            exclude: ["Fixtures"],  // read from the source tree by path (#filePath), see OfficialFixtureTests
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RealtimeCoreTests",
            dependencies: ["RealtimeCore", "GTFSRealtime", "TransitModel", "TransitCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FeedRefreshTests",
            dependencies: [
                "FeedRefresh", "HTTPFetching", "StaticService", "TransitStore", "TransitTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPFetchingTests", dependencies: ["HTTPFetching", "TransitTesting"], swiftSettings: swiftSettings),
        .testTarget(
            name: "RealtimeSourcesTests",
            dependencies: [
                "RealtimeSources", "HTTPFetching", "ProcessSupport", "TransitTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RealtimeServiceTests",
            dependencies: [
                "transit-realtime", "RealtimeService", "DelayStore", "RealtimeFixtures", "RealtimeCore",
                "RealtimeSources", "GTFSRealtime",
                "StaticService",
                "TransitStore", "NNGKit", "TransitProto", "TransitModel", "TransitCore", "ProcessSupport",
                "TransitTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets"], swiftSettings: swiftSettings),
        .testTarget(
            name: "LoadGeneratorTests",
            dependencies: [
                "LoadGenerator", "Gateway", "GatewayHTTP", "StaticService", "TransitTesting", "SQLiteKit",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EtcdClientTests", dependencies: ["EtcdClient", "TransitTesting"], swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FeedGeneratorTests", dependencies: ["FeedGenerator", "TransitTesting"], swiftSettings: swiftSettings
        ),
    ]
)
