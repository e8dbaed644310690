import Foundation

/// Runs a transform on a sequence of inputs on several threads and hands the outputs back in
/// input order, on the calling thread.
///
/// Work is handed out whole inputs at a time (callers batch records into chunks, so there is no
/// per-record scheduling cost). At most `maxInFlight` inputs are taken from the sequence before
/// their outputs are consumed, which bounds memory whatever the sequence's length. With
/// `jobs == 1` everything runs inline on the calling thread. An error thrown by `transform` or
/// `consume` stops the run: no further inputs are taken, the threads finish their current input,
/// and the first error in input order is rethrown.
package struct OrderedParallelMap<Input: Sendable, Output: Sendable> {
    private let jobs: Int
    private let maxInFlight: Int
    private let transform: @Sendable (Input) throws -> Output

    /// - Parameters:
    ///   - jobs: worker threads (at least 1).
    ///   - maxInFlight: inputs taken but not yet consumed; default `2 * jobs`.
    ///   - transform: the per-input work; must not touch shared mutable state.
    package init(jobs: Int, maxInFlight: Int? = nil, transform: @escaping @Sendable (Input) throws -> Output) {
        self.jobs = max(1, jobs)
        self.maxInFlight = max(self.jobs, maxInFlight ?? 2 * self.jobs)
        self.transform = transform
    }

    /// Transforms every input and calls `consume` with the outputs in input order.
    package func run<S: Sequence>(_ inputs: S, consume: (Output) throws -> Void) throws where S.Element == Input {
        if jobs == 1 {
            for input in inputs { try consume(try transform(input)) }
            return
        }
        let state = SharedState<Input, Output>()
        let transform = self.transform
        let threads = (0..<jobs).map { _ in
            Thread {
                while let (index, input) = state.nextWork() {
                    let result = Result { try transform(input) }
                    state.finish(index, result)
                }
            }
        }
        threads.forEach { $0.start() }
        defer { state.close(); state.waitForWorkers(jobs) }

        var iterator = inputs.makeIterator()
        var submitted = 0
        var consumed = 0
        var exhausted = false
        while true {
            while !exhausted && submitted - consumed < maxInFlight {
                guard let input = iterator.next() else { exhausted = true; break }
                state.submit(submitted, input)
                submitted += 1
            }
            if consumed == submitted { break }
            try consume(try state.waitForResult(consumed).get())
            consumed += 1
        }
    }
}

/// The queue of work and finished results shared by the calling thread and the workers.
private final class SharedState<Input, Output>: @unchecked Sendable {
    private let condition = NSCondition()
    private var work: [(Int, Input)] = []
    private var workStart = 0
    private var results: [Int: Result<Output, Error>] = [:]
    private var closed = false
    private var exited = 0

    func submit(_ index: Int, _ input: Input) {
        condition.lock()
        work.append((index, input))
        condition.broadcast()
        condition.unlock()
    }

    /// The next input for a worker, or nil when the run is over.
    func nextWork() -> (Int, Input)? {
        condition.lock()
        defer { condition.unlock() }
        while workStart == work.count && !closed { condition.wait() }
        guard workStart < work.count, !closed else {
            exited += 1
            condition.broadcast()
            return nil
        }
        let item = work[workStart]
        workStart += 1
        if workStart > 64 && workStart * 2 > work.count {
            work.removeFirst(workStart)
            workStart = 0
        }
        return item
    }

    func finish(_ index: Int, _ result: Result<Output, Error>) {
        condition.lock()
        results[index] = result
        condition.broadcast()
        condition.unlock()
    }

    func waitForResult(_ index: Int) -> Result<Output, Error> {
        condition.lock()
        defer { condition.unlock() }
        while results[index] == nil { condition.wait() }
        return results.removeValue(forKey: index)!
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    func waitForWorkers(_ count: Int) {
        condition.lock()
        while exited < count { condition.wait() }
        condition.unlock()
    }
}
