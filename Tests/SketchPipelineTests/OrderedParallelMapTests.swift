import Foundation
import Testing

@testable import SketchPipeline

@Suite struct OrderedParallelMapTests {
    struct Failure: Error, Equatable { var index: Int }

    /// A counter shared by worker threads, remembering its highest value.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        private var highest = 0
        @discardableResult func add(_ delta: Int) -> Int {
            lock.withLock {
                value += delta
                highest = max(highest, value)
                return value
            }
        }
        var current: Int { lock.withLock { value } }
        var mostAtOnce: Int { lock.withLock { highest } }
    }

    /// A transform whose duration varies with the input, so that later inputs often finish first.
    static func jittered(_ value: Int) -> Int {
        usleep(UInt32((value * 7919) % 5) * 200)
        return value * value
    }

    @Test(arguments: [1, 2, 4, 7])
    func outputsArriveInInputOrderForEveryJobCount(jobs: Int) throws {
        var outputs: [Int] = []
        try OrderedParallelMap(jobs: jobs, transform: Self.jittered).run(0..<300) { outputs.append($0) }
        #expect(outputs == (0..<300).map { $0 * $0 })
    }

    @Test func anEmptyInputConsumesNothing() throws {
        var consumed = 0
        try OrderedParallelMap(jobs: 3) { (value: Int) in value }.run([Int]()) { _ in consumed += 1 }
        #expect(consumed == 0)
    }

    @Test(arguments: [1, 2, 4])
    func aTransformErrorIsRethrownAfterTheOutputsBeforeIt(jobs: Int) throws {
        var outputs: [Int] = []
        let map = OrderedParallelMap(jobs: jobs) { (value: Int) throws -> Int in
            if value == 37 || value == 80 { throw Failure(index: value) }
            return Self.jittered(value)
        }
        #expect(throws: Failure(index: 37)) {
            try map.run(0..<200) { outputs.append($0) }
        }
        #expect(outputs == (0..<37).map { $0 * $0 })
    }

    @Test(arguments: [1, 2, 4])
    func aConsumeErrorStopsTheRunAndIsRethrown(jobs: Int) throws {
        let transformed = Counter()
        var outputs: [Int] = []
        let map = OrderedParallelMap(jobs: jobs, maxInFlight: 8) { (value: Int) -> Int in
            transformed.add(1)
            return value
        }
        #expect(throws: Failure(index: 10)) {
            try map.run(0..<10_000) { value in
                if value == 10 { throw Failure(index: value) }
                outputs.append(value)
            }
        }
        #expect(outputs == Array(0..<10))
        // Nothing beyond the in-flight window after the failing input was transformed.
        #expect(transformed.current <= 11 + 8)
    }

    @Test(arguments: [2, 4])
    func noMoreThanMaxInFlightInputsArePendingAtOnce(jobs: Int) throws {
        let maxInFlight = 2 * jobs + 1
        /// Inputs pulled from the sequence minus outputs consumed, sampled at every pull.
        final class Window: @unchecked Sendable {
            var pulled = 0
            var consumed = 0
            var largest = 0
        }
        let window = Window()
        let inputs = (0..<500).lazy.map { value -> Int in
            window.pulled += 1
            window.largest = max(window.largest, window.pulled - window.consumed)
            return value
        }
        try OrderedParallelMap(jobs: jobs, maxInFlight: maxInFlight, transform: Self.jittered).run(inputs) { _ in
            window.consumed += 1
        }
        #expect(window.consumed == 500)
        #expect(window.largest == maxInFlight)
    }

    @Test func workRunsOnSeveralThreadsAtOnce() throws {
        let running = Counter()
        let map = OrderedParallelMap(jobs: 4) { (value: Int) -> Int in
            running.add(1)
            usleep(2_000)
            running.add(-1)
            return value
        }
        try map.run(0..<64) { _ in }
        #expect(running.mostAtOnce > 1)
    }

    /// An input that counts its live instances.
    final class TrackedInput: Sendable {
        let value: Int
        let live: Counter
        init(_ value: Int, live: Counter) {
            self.value = value
            self.live = live
            live.add(1)
        }
        deinit { live.add(-1) }
    }

    @Test(arguments: [2, 4])
    func inputsAreReleasedOnceTakenSoMemoryDoesNotGrowWithTheInput(jobs: Int) throws {
        let maxInFlight = 2 * jobs + 2
        let live = Counter()
        var mostAlive = 0
        let inputs = (0..<2_000).lazy.map { TrackedInput($0, live: live) }
        // A quick transform: the workers keep up, so inputs are always waiting on the board.
        try OrderedParallelMap(jobs: jobs, maxInFlight: maxInFlight) { (input: TrackedInput) in input.value }.run(inputs) { _ in
            mostAlive = max(mostAlive, live.current)
        }
        #expect(live.current == 0)
        #expect(mostAlive <= maxInFlight)
    }
}
