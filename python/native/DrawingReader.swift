import Glibc
import SketchCore
import SketchFormats

/// A `sketchprep.read` in progress: `DrawingSource` reads the inputs on a thread of the reader's
/// own (no Python thread, no callback into Python), which decodes one batch (`ReadBatch`) ahead of
/// the caller and waits until the caller takes it. The caller takes batches with `next()` and
/// copies each with `copy(into:)`; `stop()` ends the read at the thread's next batch and waits for
/// it. The batch the caller is done with goes back to the thread to be refilled, so the arrays'
/// storage is reused batch after batch.
final class DrawingReader: @unchecked Sendable {
    /// What to read: `DrawingSource`'s inputs, format and word, whether NDJSON records keep their
    /// times, and the most drawings a batch holds.
    struct Request {
        var inputs: [String]
        var format: DrawingFileFormat?
        var word: String?
        var keepsTimes: Bool
        var batchDrawings: Int
    }

    private let request: Request
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var thread: pthread_t?
    // Shared with the reading thread, under `lock`:
    private var ready: ReadBatch?
    private var spare: ReadBatch?
    private var finished = false
    private var stopped = false
    private var failure: CString?
    // The caller's alone:
    private var current = ReadBatch()
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
        request = Request(inputs: [], format: nil, word: nil, keepsTimes: true, batchDrawings: 1)
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
    /// `message` says why it failed, nil when it did not). The previous batch goes back to the thread.
    func next() -> Bool {
        var done = ReadBatch()
        swap(&done, &current)
        done.removeAll()
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if spare == nil { spare = consume done }
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

    /// Copies the current batch's arrays into `destinations` (`ReadBatch.copy(into:)`).
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

    /// Hands `batch` to the caller once it has taken the one before; false when the read is stopped.
    /// `batch` becomes an empty one to fill next.
    private func hand(_ batch: inout ReadBatch) -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while ready != nil && !stopped { pthread_cond_wait(changed, lock) }
        if stopped { return false }
        ready = batch
        batch = spare ?? ReadBatch()
        spare = nil
        pthread_cond_broadcast(changed)
        return true
    }

    /// The reading thread: every input through `DrawingSource` (the flat points for `.bin`, which
    /// has no times to lose), batch after batch, until the end or `stop()`.
    private func run() {
        var reason: CString?
        do {
            var source = try DrawingSource(inputs: request.inputs, format: request.format, word: request.word)
            source.keepsTimestamps = request.keepsTimes
            var batch = ReadBatch()
            var going = true
            func delivered() -> Bool {
                if batch.drawingCount >= request.batchDrawings { going = hand(&batch) }
                return going
            }
            func reject(_ rejected: RejectedLine) {
                if going { batch.reject(rejected) }
            }
            if request.format == .bin {
                try source.readFlat(
                    while: { record, points, _ in
                        batch.append(record, points: points)
                        return delivered()
                    }, onRejected: reject)
            } else {
                try source.read(
                    while: { record, _ in
                        batch.append(record)
                        return delivered()
                    }, onRejected: reject)
            }
            if going && !batch.isEmpty { _ = hand(&batch) }
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
