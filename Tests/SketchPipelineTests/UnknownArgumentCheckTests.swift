import Testing

@testable import SketchPipeline

@Suite struct UnknownArgumentCheckTests {
    let root = CommandVocabulary(
        name: "sketchprep", longOptions: ["help", "version"],
        subcommands: [
            CommandVocabulary(name: "simplify", longOptions: ["output", "quiet", "help"]),
            CommandVocabulary(name: "stats", longOptions: ["output", "help"]),
        ])

    @Test func aMistypedSubcommandIsNamedWithTheClosestOnes() {
        let problem = UnknownArgumentCheck.problem(in: ["simplfy", "in.ndjson"], root: root)
        #expect(problem?.message == "unknown subcommand 'simplfy'; did you mean 'simplify'?")
        #expect(problem?.command == "sketchprep")
    }

    @Test func aMistypedLongOptionIsNamedEvenWhereTheParserReportsAMissingOne() {
        let problem = UnknownArgumentCheck.problem(in: ["simplify", "in.ndjson", "--ouput=x"], root: root)
        #expect(problem?.message == "unknown option '--ouput'; did you mean '--output'?")
        #expect(problem?.command == "sketchprep simplify")
        #expect(UnknownArgumentCheck.problem(in: ["stats", "--zzzzzzzz"], root: root)?.message == "unknown option '--zzzzzzzz'")
    }

    @Test func knownNamesValuesAndWordsAfterTheTerminatorAreNotProblems() {
        #expect(UnknownArgumentCheck.problem(in: ["simplify", "-", "--output", "x", "-q"], root: root) == nil)
        #expect(UnknownArgumentCheck.problem(in: ["simplify", "--", "--ouput"], root: root) == nil)
        #expect(UnknownArgumentCheck.problem(in: ["--version"], root: root) == nil)
    }
}
