import GatewayProtocol
import NIOCore
import Synchronization

/// The budgets of GATEWAY.md §1 per client address, on the line and HTTP ports alike: connections (through
/// `AddressLedger`, closing the least recently active connection of the biggest holder when the gateway is full),
/// connections waiting to authenticate, subscriptions, and requests in flight (`InFlightShare`). Shared by every
/// connection. Admission and close take its lock (once per connection); a request, a subscription and
/// `touch` only update atomics of the connection's `ConnectionTicket`.
final class ClientBudgets: Sendable {
    struct Limits: Sendable {
        var connections: Int
        var connectionsPerAddress: Int
        var unauthenticatedPerAddress: Int
        var subscriptionsPerAddress: Int
        var inFlight: InFlightShare
        var limitLoopback: Bool
    }

    private struct State {
        var ledger: AddressLedger<ObjectIdentifier>
        var tickets: [ObjectIdentifier: ConnectionTicket] = [:]
        var budgets: [String: AddressBudget] = [:]
    }

    let limits: Limits
    private let stats: GatewayStats
    private let state: Mutex<State>
    /// Addresses with at least one request in flight (the denominator of the fair share).
    private let busyAddresses = Atomic<Int>(0)

    init(limits: Limits, stats: GatewayStats) {
        self.limits = limits
        self.stats = stats
        state = Mutex(
            State(
                ledger: AddressLedger(
                    limits: .init(connections: limits.connections, connectionsPerAddress: limits.connectionsPerAddress))
            ))
    }

    /// The name a client at `address` is counted under, and whether the per-address bounds hold for it
    /// (loopback is exempt without `limitLoopback`).
    func client(at address: SocketAddress?) -> (name: String, limited: Bool) {
        guard let address else { return ("unknown", true) }
        return (address.ipAddress ?? "local", limits.limitLoopback || !Self.isLoopback(address))
    }

    static func isLoopback(_ address: SocketAddress) -> Bool {
        switch address {
        case .v4:
            return address.ipAddress?.hasPrefix("127.") ?? false
        case .v6:
            let ip = address.ipAddress ?? ""
            return ip == "::1" || ip.hasPrefix("::ffff:127.")
        case .unixDomainSocket:
            return true
        }
    }

    /// Admits a connection of the client `name`; nil when its address holds all its places (counted in
    /// `stats`). `close` closes the connection when it must make room for another (called on no lock).
    func admit(name: String, limited: Bool, close: @escaping @Sendable () -> Void) -> ConnectionTicket? {
        let now = NIODeadline.now().uptimeNanoseconds
        let (ticket, victim, addresses) = state.withLock { state -> (ConnectionTicket?, ConnectionTicket?, Int) in
            let budget = state.budgets[name] ?? AddressBudget()
            let ticket = ConnectionTicket(
                name: name, limited: limited, budget: budget, now: Int64(truncatingIfNeeded: now), close: close)
            let id = ObjectIdentifier(ticket)
            let tickets = state.tickets
            let admission = state.ledger.admit(id, address: name, limited: limited) { held in
                tickets[held]?.lastActive.load(ordering: .relaxed) ?? .min
            }
            var victim: ConnectionTicket?
            switch admission {
            case .refusedForAddress:
                return (nil, nil, state.ledger.limitedAddresses)
            case .admittedInPlaceOf(let closed):
                victim = state.tickets.removeValue(forKey: closed)
                if let victim, state.ledger.holdings[victim.name] == nil { state.budgets[victim.name] = nil }
            case .admitted:
                break
            }
            state.budgets[name] = budget
            state.tickets[id] = ticket
            return (ticket, victim, state.ledger.limitedAddresses)
        }
        stats.clientAddressesChanged(to: addresses)
        if ticket == nil { stats.addressRefused() }
        if let victim {
            stats.closed(for: .makeRoom)
            victim.close()
        }
        return ticket
    }

    /// The connection of `ticket` closed.
    func closed(_ ticket: ConnectionTicket) {
        let addresses = state.withLock { state -> Int in
            let id = ObjectIdentifier(ticket)
            if state.ledger.remove(id, address: ticket.name) {
                state.tickets[id] = nil
                if state.ledger.holdings[ticket.name] == nil { state.budgets[ticket.name] = nil }
            }
            return state.ledger.limitedAddresses
        }
        stats.clientAddressesChanged(to: addresses)
    }

    // MARK: waiting to authenticate

    /// Counts a connection that has not authenticated yet; false when its address has as many waiting already.
    func startUnauthenticated(_ ticket: ConnectionTicket?) -> Bool {
        guard let ticket, ticket.limited else { return true }
        if ticket.budget.unauthenticated.add(1, ordering: .relaxed).newValue > limits.unauthenticatedPerAddress {
            ticket.budget.unauthenticated.subtract(1, ordering: .relaxed)
            stats.addressRefused()
            return false
        }
        return true
    }

    func endUnauthenticated(_ ticket: ConnectionTicket?) {
        guard let ticket, ticket.limited else { return }
        ticket.budget.unauthenticated.subtract(1, ordering: .relaxed)
    }

    // MARK: subscriptions

    /// Takes a subscription place of the ticket's address; false when it holds `subscriptionsPerAddress`.
    func reserveSubscription(_ ticket: ConnectionTicket?) -> Bool {
        guard let ticket, ticket.limited else { return true }
        if ticket.budget.subscriptions.add(1, ordering: .relaxed).newValue > limits.subscriptionsPerAddress {
            ticket.budget.subscriptions.subtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    func releaseSubscriptions(_ ticket: ConnectionTicket?, _ count: Int) {
        guard let ticket, ticket.limited, count > 0 else { return }
        ticket.budget.subscriptions.subtract(count, ordering: .relaxed)
    }

    // MARK: in flight

    /// Takes an in-flight place for a request of the ticket's connection (nil ticket: only the gateway-wide
    /// bound); the OVERLOADED error when there is none for it.
    func startRequest(_ ticket: ConnectionTicket?) -> GatewayError? {
        let total = limits.inFlight.total
        guard let ticket, ticket.limited else {
            return stats.tryStartRequest(limit: total) ? nil : Self.overloaded(total)
        }
        let budget = ticket.budget
        let mine = budget.inFlight.add(1, ordering: .relaxed).newValue
        if mine == 1 { busyAddresses.add(1, ordering: .relaxed) }
        let busy = busyAddresses.load(ordering: .relaxed)
        if let why = limits.inFlight.refusal(mine: mine, inFlight: stats.inFlightCount, addresses: busy) {
            release(budget)
            return GatewayError(.overloaded, why)
        }
        guard stats.tryStartRequest(limit: total) else {
            release(budget)
            return Self.overloaded(total)
        }
        return nil
    }

    func finishRequest(_ ticket: ConnectionTicket?) {
        stats.finishRequest()
        if let ticket, ticket.limited { release(ticket.budget) }
    }

    private func release(_ budget: AddressBudget) {
        if budget.inFlight.subtract(1, ordering: .relaxed).newValue == 0 {
            busyAddresses.subtract(1, ordering: .relaxed)
        }
    }

    static func overloaded(_ total: Int) -> GatewayError {
        GatewayError(.overloaded, "more than \(total) requests in flight; retry later")
    }
}

/// What one client address holds besides its connections (counted without a lock).
final class AddressBudget: Sendable {
    let inFlight = Atomic<Int>(0)
    let subscriptions = Atomic<Int>(0)
    let unauthenticated = Atomic<Int>(0)
}

/// One admitted connection in `ClientBudgets`: its client, its address's budget, and when it was last active.
final class ConnectionTicket: Sendable {
    let name: String
    /// The per-address bounds hold for it.
    let limited: Bool
    let budget: AddressBudget
    /// `NIODeadline` uptime nanoseconds of its last request.
    let lastActive: Atomic<Int64>
    let close: @Sendable () -> Void

    init(name: String, limited: Bool, budget: AddressBudget, now: Int64, close: @escaping @Sendable () -> Void) {
        self.name = name
        self.limited = limited
        self.budget = budget
        lastActive = Atomic(now)
        self.close = close
    }

    /// The connection received a request (one relaxed store).
    func touch(_ now: NIODeadline) {
        lastActive.store(Int64(truncatingIfNeeded: now.uptimeNanoseconds), ordering: .relaxed)
    }
}
