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

/// The state the calling thread and the workers share: pending inputs and finished results, each
/// a ring of `capacity` slots indexed by input number, behind one condition lock.
///
/// Input `i` is submitted only while fewer than `capacity` inputs are pending, so its slot's
/// previous input `i − capacity` has been taken and its result consumed: a slot is never
/// overwritten while in use. A worker clears the input slot it takes, so the board holds at most
/// `capacity` inputs and results, whatever the number of inputs.
private final class WorkBoard<Input: Sendable, Output: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var inputs: [Input?]
    /// Inputs submitted so far; inputs `taken..<submitted` wait for a worker.
    private var submitted = 0
    private var taken = 0
    private var results: [Result<Output, any Error>?]
    private var closed = false
    private var cancelled = false
    private var finishedWorkers = 0

    init(capacity: Int) {
        inputs = Array(repeating: nil, count: capacity)
        results = Array(repeating: nil, count: capacity)
    }

    /// Queues `input` (number `index`, the next in order) for a worker.
    func submit(_ input: Input, index: Int) {
        condition.lock()
        inputs[index % inputs.count] = input
        submitted = index + 1
        condition.signal()
        condition.unlock()
    }

    /// Drops the inputs no worker has taken (under the lock).
    private func dropPending() {
        while taken < submitted {
            inputs[taken % inputs.count] = nil
            taken += 1
        }
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
        dropPending()
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
            if taken < submitted {
                let index = taken
                taken += 1
                let input = inputs[index % inputs.count]!
                inputs[index % inputs.count] = nil
                condition.unlock()
                let result = Result { try transform(input) }
                condition.lock()
                if case .failure = result {
                    cancelled = true
                    dropPending()
                }
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
