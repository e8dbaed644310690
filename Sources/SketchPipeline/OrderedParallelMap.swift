import Foundation

/// Runs `transform` on inputs in parallel on `jobs` threads and hands the outputs to
/// `consume` on the calling thread in input order, with at most `maxInFlight` inputs pending.
///
/// The calling thread pulls inputs from the sequence, so the sequence need not be `Sendable`; the
/// worker threads only run `transform`. An input counts as pending from the moment it is pulled
/// until its output has been consumed, so at most `maxInFlight` inputs and outputs are held at
/// any time, whatever the length of the sequence. `jobs == 1` runs inline on the calling thread
/// with no threads at all. Work is handed out per input (one lock round trip per input), so
/// inputs should be chunks (a thousand lines, one file), not single records.
///
/// An error thrown by `transform` or `consume` stops the run: inputs after it are not transformed
/// (work already started finishes and is dropped), every worker thread has ended when `run`
/// returns, and the first error in input order is rethrown. Outputs before the failing input have
/// been consumed; none after it.
package struct OrderedParallelMap<Input: Sendable, Output: Sendable> {
    /// Worker threads.
    package let jobs: Int
    /// Inputs pulled from the sequence whose outputs are not yet consumed, at most.
    package let maxInFlight: Int
    private let transform: @Sendable (Input) throws -> Output

    /// Creates a map with `jobs` worker threads (at least 1) and at most `maxInFlight` pending
    /// inputs (default and minimum: `2 × jobs`, so that every worker has a next input ready).
    package init(jobs: Int, maxInFlight: Int? = nil, transform: @escaping @Sendable (Input) throws -> Output) {
        self.jobs = max(1, jobs)
        self.maxInFlight = max(maxInFlight ?? 2 * self.jobs, self.jobs == 1 ? 1 : 2 * self.jobs)
        self.transform = transform
    }

    /// Transforms every input and consumes the outputs in input order; rethrows the first error.
    package func run<S: Sequence>(_ inputs: S, consume: (Output) throws -> Void) throws where S.Element == Input {
        if jobs == 1 {
            for input in inputs { try consume(try transform(input)) }
            return
        }
        let board = WorkBoard<Input, Output>(capacity: maxInFlight)
        for _ in 0..<jobs {
            let thread = Thread { [transform] in board.work(transform) }
            thread.stackSize = 8 << 20
            thread.start()
        }
        defer { board.closeAndJoin(workers: jobs) }

        var iterator = inputs.makeIterator()
        var submitted = 0
        var consumed = 0
        var exhausted = false
        while true {
            while !exhausted && submitted - consumed < maxInFlight {
                if let input = iterator.next() {
                    board.submit(input, index: submitted)
                    submitted += 1
                } else {
                    exhausted = true
                }
            }
            if consumed == submitted { break }
            let result = board.takeResult(index: consumed)
            consumed += 1
            do {
                try consume(try result.get())
            } catch {
                board.cancel()
                throw error
            }
        }
    }
}

/// The state the calling thread and the workers share: pending inputs (FIFO) and finished results
/// (a ring of `capacity` slots indexed by input number), behind one condition lock.
private final class WorkBoard<Input: Sendable, Output: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [(index: Int, input: Input)] = []
    private var pendingHead = 0
    private var results: [Result<Output, any Error>?]
    private var closed = false
    private var cancelled = false
    private var finishedWorkers = 0

    init(capacity: Int) {
        results = Array(repeating: nil, count: capacity)
    }

    /// Queues `input` (number `index`) for a worker.
    func submit(_ input: Input, index: Int) {
        condition.lock()
        pending.append((index, input))
        condition.signal()
        condition.unlock()
    }

    /// Waits for the result of input `index` and removes it from the board.
    func takeResult(index: Int) -> Result<Output, any Error> {
        let slot = index % results.count
        condition.lock()
        defer { condition.unlock() }
        while results[slot] == nil { condition.wait() }
        let result = results[slot]!
        results[slot] = nil
        return result
    }

    /// Drops the inputs no worker has started; workers stop taking new ones.
    func cancel() {
        condition.lock()
        cancelled = true
        pending.removeAll()
        pendingHead = 0
        condition.broadcast()
        condition.unlock()
    }

    /// Tells the workers no more inputs come and waits until all `workers` have returned.
    func closeAndJoin(workers: Int) {
        condition.lock()
        closed = true
        condition.broadcast()
        while finishedWorkers < workers { condition.wait() }
        condition.unlock()
    }

    /// A worker thread's body: take inputs until the board is closed (or cancelled) and drained.
    func work(_ transform: (Input) throws -> Output) {
        condition.lock()
        while true {
            if cancelled { break }
            if pendingHead < pending.count {
                let (index, input) = pending[pendingHead]
                pendingHead += 1
                if pendingHead == pending.count {
                    pending.removeAll(keepingCapacity: true)
                    pendingHead = 0
                }
                condition.unlock()
                let result = Result { try transform(input) }
                condition.lock()
                if case .failure = result { cancelled = true; pending.removeAll(); pendingHead = 0 }
                results[index % results.count] = result
                condition.broadcast()
            } else if closed {
                break
            } else {
                condition.wait()
            }
        }
        finishedWorkers += 1
        condition.broadcast()
        condition.unlock()
    }
}
