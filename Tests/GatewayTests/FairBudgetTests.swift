import Testing

@testable import Gateway

/// The pure rules of the per-address budgets (GATEWAY.md §1 "connections", "fair budgets", "client address").
@Suite struct AddressLedgerTests {
    typealias Ledger = AddressLedger<Int>

    @Test func anAddressAtItsBoundIsRefusedWhileOthersAreAdmitted() {
        var ledger = Ledger(limits: .init(connections: 100, connectionsPerAddress: 2))
        let never: (Int) -> Int64 = { _ in 0 }
        #expect(ledger.admit(1, address: "a", limited: true, lastActive: never) == .admitted)
        #expect(ledger.admit(2, address: "a", limited: true, lastActive: never) == .admitted)
        #expect(ledger.admit(3, address: "a", limited: true, lastActive: never) == .refusedForAddress)
        #expect(ledger.admit(4, address: "b", limited: true, lastActive: never) == .admitted)
        #expect(ledger.count == 3)
        #expect(ledger.limitedAddresses == 2)
        // An exempt address (loopback without --limit-loopback) is not bounded per address.
        for id in 10..<20 { #expect(ledger.admit(id, address: "lo", limited: false, lastActive: never) == .admitted) }
        #expect(ledger.limitedAddresses == 2)
        let removed = ledger.remove(1, address: "a")
        let removedAgain = ledger.remove(1, address: "a")
        #expect(removed && !removedAgain)
        #expect(ledger.admit(3, address: "a", limited: true, lastActive: never) == .admitted)
    }

    @Test func whenFullTheLeastRecentlyActiveConnectionOfTheBiggestHolderMakesRoom() {
        var ledger = Ledger(limits: .init(connections: 5, connectionsPerAddress: 10))
        // Activity: a larger number is more recent.
        let activity: [Int: Int64] = [1: 50, 2: 10, 3: 30, 4: 5, 5: 1]
        let active: (Int) -> Int64 = { activity[$0] ?? 0 }
        for id in 1...3 {
            #expect(ledger.admit(id, address: "attacker", limited: true, lastActive: active) == .admitted)
        }
        // The bystander's connections are older than any of the attacker's, yet the attacker holds the most.
        #expect(ledger.admit(4, address: "bystander", limited: true, lastActive: active) == .admitted)
        #expect(ledger.admit(5, address: "bystander", limited: true, lastActive: active) == .admitted)
        #expect(ledger.admit(6, address: "newcomer", limited: true, lastActive: active) == .admittedInPlaceOf(2))
        #expect(ledger.count == 5)
        #expect(ledger.holdings["attacker"]?.connections == [1, 3])
        // Now attacker and bystander hold two each: the older least recently active one (5, bystander) goes.
        #expect(ledger.admit(7, address: "newcomer", limited: true, lastActive: active) == .admittedInPlaceOf(5))
        // A closed victim is no longer held: its own close later finds nothing.
        let victimRemoved = ledger.remove(5, address: "bystander")
        #expect(!victimRemoved)
    }

    @Test func theNewcomersOwnAddressMayMakeRoom() {
        var ledger = Ledger(limits: .init(connections: 2, connectionsPerAddress: 10))
        let active: (Int) -> Int64 = { Int64($0) }
        _ = ledger.admit(1, address: "a", limited: true, lastActive: active)
        _ = ledger.admit(2, address: "a", limited: true, lastActive: active)
        #expect(ledger.admit(3, address: "a", limited: true, lastActive: active) == .admittedInPlaceOf(1))
        #expect(ledger.victim(lastActive: active)?.connection == 2)
    }
}

@Suite struct InFlightShareTests {
    let share = InFlightShare(total: 512, perAddress: 128)

    @Test func anAddressMayHoldItsBoundWhileTheGatewayIsQuiet() {
        #expect(share.refusal(mine: 128, inFlight: 127, addresses: 1) == nil)
        #expect(share.refusal(mine: 129, inFlight: 128, addresses: 1) != nil)
    }

    @Test func onceHalfIsTakenAnAddressOverItsShareIsRefusedFirst() {
        // 8 addresses with requests in flight: a share is 64. The pool is 300 of 512 full.
        #expect(share.refusal(mine: 65, inFlight: 300, addresses: 8) != nil)
        #expect(share.refusal(mine: 64, inFlight: 300, addresses: 8) == nil)
        // A bystander with its first request is under its share at any fill.
        #expect(share.refusal(mine: 1, inFlight: 511, addresses: 9) == nil)
        // Under half full, the share does not apply.
        #expect(share.refusal(mine: 100, inFlight: 255, addresses: 8) == nil)
        // Very many busy addresses: the share is at least one request.
        #expect(share.refusal(mine: 1, inFlight: 400, addresses: 10_000) == nil)
        #expect(share.refusal(mine: 2, inFlight: 400, addresses: 10_000) != nil)
    }
}

@Suite struct ProxyHeaderTests {
    private func header(command: UInt8 = 0x21, family: UInt8, block: [UInt8]) -> [UInt8] {
        ProxyHeader.signature + [command, family, UInt8(block.count >> 8), UInt8(block.count & 0xFF)] + block
    }

    @Test func readsAnIPv4Client() {
        let block: [UInt8] = [192, 0, 2, 7, 10, 0, 0, 1, 0x1F, 0x90, 0x1E, 0xC6]
        let bytes = header(family: 0x11, block: block) + Array("{\"op\":\"health\"}\n".utf8)
        guard case .header(let h) = ProxyHeader.parse(bytes) else {
            Issue.record("no header")
            return
        }
        #expect(h.length == 28)
        #expect(h.source?.text == "192.0.2.7")
        #expect(h.source?.port == 8080)
    }

    @Test func readsAnIPv6ClientAndSkipsTLVs() {
        var block = [UInt8](repeating: 0, count: 36)
        block[0] = 0x20
        block[1] = 0x01
        block[2] = 0x0d
        block[3] = 0xb8
        block[15] = 1
        block[32] = 0
        block[33] = 80
        block += [0x04, 0x00, 0x02, 0xAB, 0xCD]  // a NOOP TLV
        guard case .header(let h) = ProxyHeader.parse(header(family: 0x21, block: block)) else {
            Issue.record("no header")
            return
        }
        #expect(h.length == 16 + 41)
        #expect(h.source?.text == "2001:db8::1")
    }

    @Test func aLocalHeaderHasNoSource() {
        #expect(ProxyHeader.parse(header(command: 0x20, family: 0x00, block: [])) == .header(.init(length: 16)))
    }

    @Test func waitsForTheWholeHeaderAndRefusesOtherBytes() {
        let full = header(family: 0x11, block: [1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 0, 2])
        for cut in [0, 5, 12, 15, 16, 27] { #expect(ProxyHeader.parse(full.prefix(cut)) == .needMore) }
        #expect(ProxyHeader.parse(Array("{\"op\":\"health\"}\n".utf8)).isInvalid)
        #expect(ProxyHeader.parse(Array("PROXY TCP4 1.2.3.4 5.6.7.8 1 2\r\n".utf8)).isInvalid)
        var wrongVersion = full
        wrongVersion[12] = 0x11
        #expect(ProxyHeader.parse(wrongVersion).isInvalid)
        #expect(ProxyHeader.parse(header(family: 0x11, block: [1, 2, 3])).isInvalid)
    }
}

extension ProxyHeader.Parse {
    fileprivate var isInvalid: Bool {
        if case .invalid = self { return true }
        return false
    }
}
