import SketchIO

/// Prints the warnings a library returned (e.g. `DrawingSource.skippedSources`: device files and
/// FIFOs found in input directories and skipped) on stderr, one line each: `tool: warning: text`.
/// Libraries return warnings as values; the CLI prints them, here.
func printWarnings(_ warnings: [String], tool: String) {
    for warning in warnings { printToStandardError("\(tool): warning: \(warning)") }
}
