import SketchFormats

/// How many records a run read and what became of them: the one count type of every command,
/// manifest and report, with the one reconcile rule `read = written + filtered + rejected`.
/// Damaged or unreadable inputs are counted apart, as source errors.
public struct RecordCounts: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Records (valid or not; non-blank input lines) read from the sources.
    public var read: Int
    /// Records written to the output (examples written to shards).
    public var written: Int
    /// Valid records left out by design: a pipeline's filters and per-class caps, or the records
    /// beyond `convert`'s stroke-3 split sizes.
    public var filtered: Int
    /// Unusable records sent to quarantine.
    public var rejected: Int
    /// Damaged or unreadable inputs (not records; each is one quarantine entry, see
    /// `RejectedLine.sourceError`).
    public var sourceErrors: Int
    /// Written examples whose key_id an earlier written example already had (both are kept;
    /// datasets only).
    public var duplicateKeyIDs: Int

    /// Creates counts.
    public init(read: Int = 0, written: Int = 0, filtered: Int = 0, rejected: Int = 0, sourceErrors: Int = 0, duplicateKeyIDs: Int = 0) {
        self.read = read
        self.written = written
        self.filtered = filtered
        self.rejected = rejected
        self.sourceErrors = sourceErrors
        self.duplicateKeyIDs = duplicateKeyIDs
    }

    /// Counts `line` as read and rejected (or, for a source error, as a source error) and hands
    /// it to `quarantine` (reported and kept verbatim).
    public mutating func reject(_ line: RejectedLine, into quarantine: QuarantineWriter) throws {
        if line.isSourceError {
            sourceErrors += 1
        } else {
            read += 1
            rejected += 1
        }
        try quarantine.add(line)
    }

    /// Whether `read = written + filtered + rejected`.
    public var isReconciled: Bool { read == written + filtered + rejected }

    /// One-line summary, e.g. `read 7330 = written 7329 + rejected 1` (with `+ filtered F` when
    /// records were filtered, and `; source errors N` when there are any), flagged when it does
    /// not add up.
    public var description: String {
        var summary = "read \(read) = written \(written)\(filtered > 0 ? " + filtered \(filtered)" : "") + rejected \(rejected)"
        if sourceErrors > 0 { summary += "; source errors \(sourceErrors)" }
        return isReconciled ? summary : "\(summary) — MISMATCH: \(read - written - filtered - rejected) records unaccounted for"
    }

    /// Whether a run with these counts puts its output files in place: only when it wrote a record.
    /// A run that wrote none fails (``failure(strict:rejectedByReason:mayWriteNothing:)``) and leaves
    /// what its output path held as it was, instead of replacing it with an empty file.
    public var commitsOutput: Bool { written > 0 }

    /// Why a run that was given inputs and ended with these counts fails (exit status 1), or nil
    /// when it succeeds: the one rule of every data command, `preprocess` and `merge`.
    /// - Nothing succeeds on nothing: a run that wrote no record fails, saying why: no record
    ///   could be read (its inputs hold none, or every source was damaged or unreadable), every
    ///   record was rejected (with the commonest reason kind of `rejectedByReason`, as
    ///   `QuarantineWriter.countsByReason` groups them, and its count), or every record was
    ///   filtered (or some of each).
    /// - Under `strict`, a run also fails when anything was rejected or any source was damaged or
    ///   unreadable.
    ///
    /// `mayWriteNothing` is for one part of a larger run (a `preprocess --partition` map side, which
    /// may see no record of its share): it fails on writing nothing only when its sources failed.
    public func failure(strict: Bool, rejectedByReason: [String: Int] = [:], mayWriteNothing: Bool = false) -> String? {
        if written == 0 && (!mayWriteNothing || read == 0 && sourceErrors > 0) {
            if read == 0 {
                return sourceErrors > 0
                    ? "no record could be read (\(sourceErrors) source error(s); see the quarantine file)"
                    : "no record could be read: the inputs hold no record"
            }
            let commonest = rejectedByReason.max { ($0.value, $1.key) < ($1.value, $0.key) }
            let why = commonest.map { "; the commonest reason: \"\($0.key)\" (\($0.value) of \(rejected))" } ?? ""
            if filtered == 0 { return "nothing was written: all \(rejected) record(s) were rejected\(why); see the quarantine file" }
            if rejected == 0 { return "nothing was written: all \(filtered) record(s) were filtered out" }
            return "nothing was written: \(filtered) record(s) were filtered out and \(rejected) rejected\(why); see the quarantine file"
        }
        if strict && (rejected > 0 || sourceErrors > 0) {
            return "--strict: \(rejected) rejected record(s), \(sourceErrors) source error(s); see the quarantine file"
        }
        return nil
    }

    enum CodingKeys: String, CodingKey {
        case read, written, filtered, rejected
        case sourceErrors = "source_errors"
        case duplicateKeyIDs = "duplicate_key_ids"
    }

    /// Decodes counts; manifests written before `source_errors` and `duplicate_key_ids` existed
    /// read them as 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        read = try container.decode(Int.self, forKey: .read)
        written = try container.decode(Int.self, forKey: .written)
        filtered = try container.decode(Int.self, forKey: .filtered)
        rejected = try container.decode(Int.self, forKey: .rejected)
        sourceErrors = try container.decodeIfPresent(Int.self, forKey: .sourceErrors) ?? 0
        duplicateKeyIDs = try container.decodeIfPresent(Int.self, forKey: .duplicateKeyIDs) ?? 0
    }
}
