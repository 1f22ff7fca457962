import HTTPFetching
import Testing

@Suite struct EnvironmentExpansionTests {
    let env = ["KEY": "abc", "K_2": "x", "EMPTY": ""]

    @Test func expandsBothFormsAndTheEscape() throws {
        #expect(try EnvironmentExpansion.expand("apikey $KEY", environment: env) == ("apikey abc", ["KEY"]))
        #expect(try EnvironmentExpansion.expand("${KEY}-$K_2.", environment: env) == ("abc-x.", ["KEY", "K_2"]))
        #expect(try EnvironmentExpansion.expand("$${KEY} $$KEY", environment: env) == ("${KEY} $KEY", []))
        #expect(try EnvironmentExpansion.expand("no variables", environment: [:]) == ("no variables", []))
        #expect(try EnvironmentExpansion.expand("$KEYS", environment: ["KEYS": "long", "KEY": "short"]).text == "long")
    }

    @Test func failures() {
        #expect(throws: EnvironmentExpansion.Failure.missing("NOPE")) {
            try EnvironmentExpansion.expand("a $NOPE", environment: env)
        }
        #expect(throws: EnvironmentExpansion.Failure.empty("EMPTY")) {
            try EnvironmentExpansion.expand("$EMPTY", environment: env)
        }
        for bad in ["$", "a $ b", "$1abc", "${KEY", "${}", "$-"] {
            #expect(throws: EnvironmentExpansion.Failure.syntax, "\(bad)") {
                try EnvironmentExpansion.expand(bad, environment: env)
            }
        }
    }
}
