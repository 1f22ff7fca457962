/// Which connections each client address holds, and the admission rules of GATEWAY.md §1 "connections": at
/// most `connectionsPerAddress` from one limited address (one more is refused), at most `connections` in all —
/// and there a newcomer is admitted by closing the least recently active connection of the address holding the
/// most, so that a client holding many places loses one of its own before anyone else loses theirs. Pure
/// bookkeeping (no locks, no sockets): `ClientBudgets` keeps one under its lock and closes what it says.
struct AddressLedger<Connection: Hashable> {
    struct Limits: Sendable {
        var connections: Int
        var connectionsPerAddress: Int
    }

    enum Admission: Equatable {
        case admitted
        /// Admitted in place of `victim`, which is no longer in the ledger: the caller closes it.
        case admittedInPlaceOf(Connection)
        /// The address holds `connectionsPerAddress` already.
        case refusedForAddress
    }

    /// The connections of one address. `limited`: the per-address bound holds for it (not exempt loopback).
    struct Holding {
        var connections: Set<Connection> = []
        var limited: Bool
    }

    let limits: Limits
    private(set) var holdings: [String: Holding] = [:]
    /// Connections held in all.
    private(set) var count = 0
    /// Addresses with the per-address bound holding at least one connection.
    private(set) var limitedAddresses = 0

    init(limits: Limits) {
        self.limits = limits
    }

    /// Admits `connection` from `address`. `lastActive` tells when a held connection was last active (a larger
    /// value is more recent); it is asked only when a place must be made.
    mutating func admit(
        _ connection: Connection, address: String, limited: Bool, lastActive: (Connection) -> Int64
    ) -> Admission {
        if limited, let held = holdings[address], held.connections.count >= limits.connectionsPerAddress {
            return .refusedForAddress
        }
        var admission = Admission.admitted
        if count >= limits.connections, let victim = victim(lastActive: lastActive) {
            remove(victim.connection, address: victim.address)
            admission = .admittedInPlaceOf(victim.connection)
        }
        if holdings[address] == nil {
            holdings[address] = Holding(limited: limited)
            if limited { limitedAddresses += 1 }
        }
        holdings[address]?.connections.insert(connection)
        count += 1
        return admission
    }

    /// Forgets `connection` (closed); false when it was not held (it was closed to make room already).
    @discardableResult
    mutating func remove(_ connection: Connection, address: String) -> Bool {
        guard var held = holdings[address], held.connections.remove(connection) != nil else { return false }
        count -= 1
        if held.connections.isEmpty {
            holdings[address] = nil
            if held.limited { limitedAddresses -= 1 }
        } else {
            holdings[address] = held
        }
        return true
    }

    /// The connection to close to make room: the least recently active one of the address holding the most
    /// connections (ties: the address whose least recently active connection is older).
    func victim(lastActive: (Connection) -> Int64) -> (connection: Connection, address: String)? {
        var best: (connection: Connection, address: String, held: Int, active: Int64)?
        for (address, holding) in holdings {
            let held = holding.connections.count
            if let best, held < best.held { continue }
            guard let oldest = holding.connections.min(by: { lastActive($0) < lastActive($1) }) else { continue }
            let active = lastActive(oldest)
            if let current = best, held == current.held, active >= current.active { continue }
            best = (oldest, address, held, active)
        }
        return best.map { ($0.connection, $0.address) }
    }
}
