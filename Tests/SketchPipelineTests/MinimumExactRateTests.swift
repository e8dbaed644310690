import Testing

@testable import SketchPipeline

@Suite struct MinimumExactRateTests {
    @Test func aRateAndThePercentageWithPercentSignAreTheSameThreshold() throws {
        #expect(try MinimumExactRate(parsing: "0.9999").rate == 0.9999)
        #expect(try MinimumExactRate(parsing: "99.99%").rate == 0.9999)
        #expect(try MinimumExactRate(parsing: "100%").rate == 1)
        #expect(try MinimumExactRate(parsing: "0").rate == 0)
    }

    @Test func aBareNumberAboveOneIsRefusedNamingThePercentage() {
        #expect(throws: PipelineError.self) { try MinimumExactRate(parsing: "99.99") }
        do {
            _ = try MinimumExactRate(parsing: "99.99")
        } catch {
            #expect(error.description.contains("(99.99%)"))
        }
        for text in ["150%", "-0.5", "abc", "%", "nan", "1e400"] {
            #expect { try MinimumExactRate(parsing: text) } throws: { ($0 as? PipelineError)?.kind == .configuration }
        }
    }
}
