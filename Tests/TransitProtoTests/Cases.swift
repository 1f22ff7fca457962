// Parameterised-test arguments that print as their label, not as a page of field dumps.
import Testing
import TransitModel

struct Case<Value: Sendable>: Sendable, CustomTestStringConvertible {
    let label: String
    let value: Value
    var testDescription: String { label }
}

extension Fixtures {
    static let queryCases = allQueries.map { Case(label: $0.0, value: $0.1) }
    static let resultCases = allResults.map { Case(label: $0.0, value: $0.1) }
}
