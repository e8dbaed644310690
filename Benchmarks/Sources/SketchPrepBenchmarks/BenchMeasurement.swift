import Foundation

/// One measured stage of a benchmark (`simplify`, `preprocess`): drawings, input bytes,
/// wall-clock and CPU seconds, and for a child process its peak RSS.
///
/// On Linux a child's peak RSS is at least the runner's own peak when it spawned the child (exec
/// carries the parent's high-water mark over), so each child measurement records that floor
/// too, and the benchmarks run their children before anything large is loaded in process.
struct BenchMeasurement: Encodable {
    var stage: String
    var drawings: Int
    var bytes: Int
    var seconds: Double
    var cpuSeconds: Double
    var peakResidentBytes: Int?
    var runnerPeakResidentBytes: Int?

    var drawingsPerSecond: Double { Double(drawings) / seconds }
    var drawingsPerCPUSecond: Double { Double(drawings) / cpuSeconds }

    var line: String {
        let label = stage.count < 52 ? stage + String(repeating: " ", count: 52 - stage.count) : stage
        var text =
            label
            + String(
                format: " %9.0f drawings/s %7.1f MB/s (wall %.2f s) | %9.0f drawings/s %7.1f MB/s (CPU %.2f s)",
                drawingsPerSecond, Double(bytes) / seconds / 1e6, seconds,
                drawingsPerCPUSecond, Double(bytes) / cpuSeconds / 1e6, cpuSeconds)
        if let peakResidentBytes { text += String(format: ", peak RSS %.1f MB", Double(peakResidentBytes) / 1e6) }
        if let runnerPeakResidentBytes { text += String(format: " (floor: runner's %.1f MB)", Double(runnerPeakResidentBytes) / 1e6) }
        return text
    }

    enum CodingKeys: String, CodingKey {
        case stage, drawings, bytes, seconds
        case cpuSeconds = "cpu_seconds"
        case peakResidentBytes = "peak_rss_bytes"
        case runnerPeakResidentBytes = "runner_peak_rss_bytes"
        case drawingsPerSecond = "drawings_per_second"
        case drawingsPerCPUSecond = "drawings_per_cpu_second"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(stage, forKey: .stage)
        try container.encode(drawings, forKey: .drawings)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(cpuSeconds, forKey: .cpuSeconds)
        try container.encodeIfPresent(peakResidentBytes, forKey: .peakResidentBytes)
        try container.encodeIfPresent(runnerPeakResidentBytes, forKey: .runnerPeakResidentBytes)
        try container.encode(drawingsPerSecond, forKey: .drawingsPerSecond)
        try container.encode(drawingsPerCPUSecond, forKey: .drawingsPerCPUSecond)
    }
}
