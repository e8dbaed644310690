/// A benchmark that cannot run or whose speed-up fell below its threshold; the message says
/// which file or command and what to do.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}
