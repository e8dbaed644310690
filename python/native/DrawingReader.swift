import Glibc
import SketchCore
import SketchFormats
import SketchPipeline

/// A `sketchprep.read` in progress: the engine reads the inputs as every command does
/// (`ReadStage.read`: `DrawingSource`'s inputs decoded on `jobs` workers), on a thread of the
/// reader's own (no Python thread, no callback into Python) that joins the workers' batches in
/// input order into batches of at most the caller's size and hands each over when the caller has
/// taken the one before. The caller takes
/// batches with `next()` and copies each with `copy(into:)`; `stop()` ends the read at the
/// thread's next batch and waits for it. At most `2 × jobs + 2` engine batches, the batch being
/// joined, the one handed over and the caller's are held at once.
final class DrawingReader: @unchecked Sendable {
    /// What to read: `DrawingSource`'s inputs, format and word, whether NDJSON records keep their
    /// times, the most drawings and rejected lines a batch holds (engine batches hold as many
    /// lines, up to the engine's own batch size), and the worker threads.
    struct Request {
        var inputs: [String]
        var format: DrawingFileFormat?
        var word: String?
        var keepsTimes: Bool
        var batchRecords: Int
        var jobs: Int
    }

    private let request: Request
    /// The arrays of the batches the caller has copied, for the workers to fill again: the
    /// process's one pool, so that a read starts with the arrays earlier reads grew.
    private let pool = ReadBatchPool.shared
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var thread: pthread_t?
    // Shared with the reading thread, under `lock`:
    private var ready: ReadBatchGroup?
    private var finished = false
    private var stopped = false
    private var failure: CString?
    // The caller's alone:
    private var current = ReadBatchGroup()
    /// Why the read failed (a missing input, no readable input), once `next()` has returned false.
    private(set) var message: CString?

    /// Starts reading `request` on a thread of its own; a reader that cannot start one is over
    /// at once, with the reason as its message.
    init(_ request: Request) {
        self.request = request
        pthread_mutex_init(lock, nil)
        pthread_cond_init(changed, nil)
        var started = pthread_t()
        let retained = Unmanaged.passRetained(self)
        let status = pthread_create(
            &started, nil,
            { context in
                let reader = Unmanaged<DrawingReader>.fromOpaque(context!)
                reader.takeUnretainedValue().run()
                reader.release()
                return nil
            }, retained.toOpaque())
        if status == 0 {
            thread = started
        } else {
            retained.release()
            failure = CString("cannot start the reading thread (error \(status))")
            finished = true
        }
    }

    /// A reader that is over at once with `reason` as its message (refused arguments).
    init(refusing reason: String) {
        request = Request(inputs: [], format: nil, word: nil, keepsTimes: true, batchRecords: 1, jobs: 1)
        pthread_mutex_init(lock, nil)
        pthread_cond_init(changed, nil)
        failure = CString(reason)
        finished = true
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(lock)
        changed.deallocate()
        lock.deallocate()
    }

    /// Waits for the next batch and makes it the current one; false when the read is over (then
    /// `message` says why it failed, nil when it did not).
    func next() -> Bool {
        pool.give(&current)
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while ready == nil && !finished { pthread_cond_wait(changed, lock) }
        guard let batch = ready else {
            message = failure
            return false
        }
        current = batch
        ready = nil
        pthread_cond_broadcast(changed)
        return true
    }

    /// The element counts of the current batch's arrays, in `ReadBatch.Field` order.
    var counts: [Int] { current.counts }

    /// Copies the current batch's arrays into `destinations` (`ReadBatchGroup.copy(into:)`).
    func copy(into destinations: UnsafePointer<UnsafeMutableRawPointer?>) { current.copy(into: destinations) }

    /// Ends the read at the thread's next batch and waits for the thread to finish.
    func stop() {
        pthread_mutex_lock(lock)
        stopped = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
    }

    /// Hands `batch` to the caller once it has taken the one before and empties it; false when
    /// the read is stopped.
    private func hand(_ batch: inout ReadBatchGroup) -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while ready != nil && !stopped { pthread_cond_wait(changed, lock) }
        if stopped { return false }
        ready = batch
        batch = ReadBatchGroup()
        pthread_cond_broadcast(changed)
        return true
    }

    /// The reading thread: every input through the engine (`ReadStage.read`), batch after batch,
    /// until the end or `stop()`.
    private func run() {
        var reason: CString?
        do {
            var source = try DrawingSource(inputs: request.inputs, format: request.format, word: request.word)
            source.keepsTimestamps = request.keepsTimes
            try ReadStage.read(
                source, jobs: request.jobs, batchRecords: request.batchRecords, pool: pool,
                hand: hand)
        } catch {
            reason = CString("\(error)")
        }
        pthread_mutex_lock(lock)
        failure = reason
        finished = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
    }
}
