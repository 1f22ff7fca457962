import EtcdClient
import Foundation
import Testing
import TransitTesting

struct EtcdEndpointSpecTests {
    @Test func endpointsAreParsedFromTheElectionFlag() throws {
        #expect(
            try EtcdConfiguration.endpoints(of: "etcd://a:2379,10.0.0.2:2379")
                == ["http://a:2379", "http://10.0.0.2:2379"])
        #expect(try EtcdConfiguration.endpoints(of: "etcds://a:2379") == ["https://a:2379"])
        #expect(try EtcdConfiguration.endpoints(of: "a:2379") == ["http://a:2379"])
        for bad in ["http://a:2379", "etcd://a", "etcd://a:0", "etcd://a:2379,", "etcd://a:x/y"] {
            #expect(throws: EtcdError.self, "\(bad)") { try EtcdConfiguration.endpoints(of: bad) }
        }
    }
}

/// The client against a real etcd (skipped without Debian's etcd-server: scripts/install-deps --test).
@Suite(
    .enabled(
        if: TemporaryEtcd.binary != nil, "etcd is not installed (scripts/install-deps --test installs etcd-server)"))
struct EtcdClientTests {
    @Test func onlyOneCandidateCreatesTheKeyAndTheOtherReadsItsHolder() async throws {
        let etcd = try await TemporaryEtcd()
        let client = try EtcdClient(configuration: .init(endpoints: [etcd.endpoint]))
        let first = try await client.grantLease(ttlSeconds: 5)
        let second = try await client.grantLease(ttlSeconds: 5)
        #expect(first != second)
        guard case .created(let revision) = try await client.createIfAbsent("k", value: Array("a".utf8), lease: first)
        else {
            Issue.record("the first candidate must create the key")
            return
        }
        let lost = try await client.createIfAbsent("k", value: Array("b".utf8), lease: second)
        #expect(
            lost
                == .exists(
                    EtcdKeyValue(
                        key: Array("k".utf8), value: Array("a".utf8), createRevision: revision, modRevision: revision,
                        lease: first)))
        #expect(try await client.keepAlive(lease: first) == 5)
        // Revoking the lease deletes the key: the next creation has a higher revision (the next epoch).
        try await client.revoke(lease: first)
        #expect(try await client.get("k") == nil)
        #expect(try await client.keepAlive(lease: first) == 0, "a revoked lease is gone")
        guard case .created(let next) = try await client.createIfAbsent("k", value: [], lease: second) else {
            Issue.record("the key is free after the revoke")
            return
        }
        #expect(next > revision)
        try await client.revoke(lease: 999_999)  // an unknown lease is no error
    }

    @Test func aDeadEndpointIsSkippedAndReportedUnreachable() async throws {
        let etcd = try await TemporaryEtcd()
        let dead = "http://127.0.0.1:\(try FreePort.tcp())"
        let client = try EtcdClient(configuration: .init(endpoints: [dead, etcd.endpoint]))
        let lease = try await client.grantLease(ttlSeconds: 5)
        #expect(lease != 0)
        let states = client.endpointStates
        #expect(states.map(\.reachable) == [false, true])
        #expect(states[0].lastError != nil)
        // The live endpoint is preferred from now on.
        _ = try await client.keepAlive(lease: lease)
        #expect(client.endpointStates[1].reachable == true)

        let none = try EtcdClient(configuration: .init(endpoints: [dead]))
        await #expect(throws: EtcdError.self) { try await none.grantLease(ttlSeconds: 5) }
    }
}
