/// The rule sharing the in-flight bound between client addresses (GATEWAY.md §1 "fair budgets"): an address
/// may hold at most `perAddress` requests in flight; once half of `total` is taken, an address holding more
/// than an equal share (`total` / the addresses with requests in flight) is refused first, while the others
/// still get the places left. Pure: `ClientBudgets` applies it to its counters.
struct InFlightShare: Sendable {
    var total: Int
    var perAddress: Int

    /// Why a request of an address may not start (nil: it may, if a place of `total` is free): `mine` counts
    /// this request too, `inFlight` the requests in flight over all addresses before it, `addresses` the
    /// addresses with requests in flight (this one included).
    func refusal(mine: Int, inFlight: Int, addresses: Int) -> String? {
        if mine > perAddress {
            return "more than \(perAddress) requests in flight from your address; retry later"
        }
        let share = max(1, total / max(1, addresses))
        if inFlight * 2 >= total, mine > share {
            return "the gateway is busy and your address holds more than its share of it (\(share) requests)"
                + "; retry later"
        }
        return nil
    }
}
