import Foundation
import SketchDataset
import SketchFormats
import SketchIO

extension PipelineRunner {
    /// The reduce side in this process: `parts` independent parts (``runReducePart(_:input:progress:)``)
    /// on as many threads, then ``finalize(_:reports:clock:)``. The bytes are the same for every
    /// number of parts.
    package func reduce(_ input: ReduceInput, parts: Int, clock: StageClock) throws -> PipelineOutcome {
        let start = MonotonicClock.now()
        let count = min(max(parts, 1), ReducePart.maximumCount)
        // The parts' reports are this process's temporary files until the finalize step removes them.
        let partFiles = (0..<count).flatMap { index -> [String] in
            let part = ReducePart(index: index, count: count)
            return [part.reportName, part.quarantineName].map { "\(config.output.directory)/\($0)" }
        }
        partFiles.forEach(TemporaryFiles.register)
        defer { partFiles.forEach(TemporaryFiles.unregister) }
        let results = LockedValue([Result<ReducePartReport, any Error>?](repeating: nil, count: count))
        let runner = self
        let progress = ReduceProgress(total: input.map.bucketCounts.total(inBuckets: 0...(SortKey.bucketCount - 1)), enabled: showProgress)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let result = Result {
                try runner.runReducePart(ReducePart(index: index, count: count), input: input, progress: progress)
            }
            results.withLock { $0[index] = result }
        }
        progress.finish()
        let reports = try results.withLock { $0 }.map { try $0!.get() }
        clock.addWall("reduce_wall", MonotonicClock.now() - start)
        return try finalize(input, reports: reports, clock: clock)
    }

    /// The reports of the `count` parts of a reduce into the output directory (written by
    /// `sketchprep merge --reduce i/R`); throws `PipelineError` naming a missing or foreign one.
    package func readReduceReports() throws -> [ReducePartReport] {
        let directory = config.output.directory
        let reports = FileSystem.entryNames(of: directory).compactMap { name in DatasetLayout.reduceReportPart(name).map { (name, $0) } }
        guard let parts = reports.min(by: { $0.0 < $1.0 })?.1.parts, (1...ReducePart.maximumCount).contains(parts)
        else {
            throw PipelineError(
                .partials,
                "\(directory) holds no reduce part reports: run `sketchprep merge PARTIALS… -o \(directory) --reduce i/R` for every i first"
            )
        }
        return try (0..<parts).map { index in
            let part = ReducePart(index: index, count: parts)
            let path = "\(directory)/\(part.reportName)"
            guard let bytes = try? InputFile.readAll(path, maximumBytes: PartialManifest.maximumFileBytes) else {
                throw PipelineError(
                    .partials,
                    "reduce part \(index)/\(parts) is missing (no \(path)): run `sketchprep merge PARTIALS… -o \(directory) --reduce \(index)/\(parts)`"
                )
            }
            let report: ReducePartReport
            do {
                report = try JSONDecoder().decode(ReducePartReport.self, from: Data(bytes))
            } catch let error as DecodingError {
                throw PipelineError(.partials, "\(path) is not a reduce part report (\(Manifest.describe(error))); re-run that part")
            }
            guard report.part == index, report.parts == parts, report.files.count == report.fileOrder.count else {
                throw PipelineError(.partials, "\(path) does not describe part \(index)/\(parts); re-run that part")
            }
            return report
        }
    }

    /// The finalize step: joins the parts' reports into `manifest.json`, `classes.txt` and the
    /// quarantine (the parts' quarantined examples after the map side's lines), removes shard
    /// files of earlier runs that the dataset no longer lists, and the parts' reports.
    package func finalize(_ input: ReduceInput, reports: [ReducePartReport], clock: StageClock) throws -> PipelineOutcome {
        let start = MonotonicClock.now()
        let directory = config.output.directory
        let map = input.map
        let (table, _) = try reduceClasses(map)
        let identity = input.identity
        if let foreign = reports.first(where: { $0.input != identity }) {
            let part = ReducePart(index: foreign.part, count: foreign.parts)
            throw PipelineError(
                .partials,
                "\(directory)/\(part.reportName) was written for other partials than these; re-run `sketchprep merge PARTIALS… -o \(directory) --reduce \(part.index)/\(part.count)`"
            )
        }
        let items = Set(reports.compactMap(\.item))
        guard items.count <= 1 else {
            throw PipelineError(
                .partials,
                "NPY shards need every example to have one element type and shape, but the reduce parts found \(items.sorted().joined(separator: " and "))"
            )
        }
        let ordered = reports.flatMap { report in zip(report.fileOrder, report.files) }.enumerated()
            .sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
        var counts: [String: Manifest.SplitCounts] = [:]
        for split in SplitName.allCases {
            var perClass: [String: Int] = [:]
            for report in reports { perClass.merge(report.counts[split.rawValue] ?? [:], uniquingKeysWith: +) }
            counts[split.rawValue] = Manifest.SplitCounts(total: perClass.values.reduce(0, +), perClass: perClass)
        }
        let quarantinePath = "\(directory)/\(DatasetLayout.quarantine)"
        let quarantined = reports.reduce(0) { $0 + $1.quarantined }
        if quarantined > 0 {
            var lines = (try? InputFile.readAll(quarantinePath)) ?? []
            for report in reports {
                let part = ReducePart(index: report.part, count: report.parts)
                lines += try InputFile.readAll("\(directory)/\(part.quarantineName)")
            }
            try writeAtomically(lines, to: quarantinePath)
        }
        let written = reports.reduce(0) { $0 + $1.written }
        let records = RecordCounts(
            read: map.records.read, written: written,
            filtered: map.records.filtered + reports.reduce(0) { $0 + $1.quotaFiltered },
            rejected: map.records.rejected + quarantined, sourceErrors: map.records.sourceErrors,
            duplicateKeyIDs: reports.reduce(0) { $0 + $1.duplicateKeyIDs })
        guard records.isReconciled else {
            throw PipelineError(
                .partials,
                "record counts do not reconcile: read \(records.read) ≠ written \(records.written)"
                    + " + filtered \(records.filtered) + rejected \(records.rejected)")
        }
        let manifest = Manifest(
            pipeline: input.pipeline, sources: input.sources,
            classes: table.classes.enumerated().map { Manifest.ClassEntry(index: $0, word: $1) },
            counts: counts, shards: ordered, records: records, quarantine: DatasetLayout.quarantine,
            libraries: Self.libraryVersions, settings: settings)
        let classList = table.classes.map { $0 + "\n" }.joined()
        try writeAtomically(classList, to: "\(directory)/\(DatasetLayout.classes)")
        if config.output.layout == .tensorflowTutorial {
            try writeAtomically(classList, to: "\(directory)/\(ShardNaming.tutorialClassesFile)")
        }
        if config.output.format.entry.grouping == .shards {
            _ = try ShardedDatasetWriter.removeStaleShards(in: directory, keeping: Set(ordered.map(\.file)))
        }
        TestStopPoint.manifest.reached()
        try writeAtomically(try manifest.encoded(), to: "\(directory)/\(DatasetLayout.manifest)")
        for report in reports {
            let part = ReducePart(index: report.part, count: report.parts)
            try? FileSystem.remove("\(directory)/\(part.reportName)")
            try? FileSystem.remove("\(directory)/\(part.quarantineName)")
        }
        try? FileSystem.remove("\(directory)/\(DatasetLayout.reduceRunMark)")
        clock.addWall("reduce", reports.reduce(0) { $0 + $1.cpuSeconds })
        clock.addWall("finalize_wall", MonotonicClock.now() - start)
        return PipelineOutcome(
            manifest: manifest, directory: directory, upToDate: false,
            reusedFiles: reports.reduce(0) { $0 + $1.reusedFiles })
    }
}
