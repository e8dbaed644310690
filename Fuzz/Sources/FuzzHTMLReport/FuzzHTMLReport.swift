import CLibXML2
import Foundation
import SketchEval

/// libFuzzer entry point: the input, split at NUL bytes, gives the texts that come from data in an
/// evaluation report (model name, two class words, a key_id, a shard name). The rendered page is
/// parsed by libxml2's HTML parser, which must find no `<script>` element and no event-handler
/// attribute, and the page must carry its Content-Security-Policy: escaping works on Unicode
/// scalars, so no quote or angle bracket from the data survives into the markup.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTMLReport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var texts = UnsafeBufferPointer(start: data, count: size).split(separator: 0, maxSplits: 4, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    while texts.count < 5 { texts.append("x") }
    let (model, first, second, key, shard) = (texts[0], texts[1], texts[2], texts[3], texts[4])
    let metrics = ClassificationMetrics(
        predictions: [RankedPrediction(key: key, label: 0, classes: [1, 0], probabilities: [0.75, 0.25])],
        classNames: [first, second])
    guard let metricsJSON = try? JSONSerialization.jsonObject(with: JSONEncoder().encode(metrics)) else { return 0 }
    let object: [String: Any] = [
        "model": model, "modelInput": key, "shards": [shard], "split": shard, "onnxRuntime": model, "threads": 1,
        "batchSize": 1, "skippedUnknownClass": 0, "inferenceSeconds": 0.5, "metrics": metricsJSON, "misclassifiedTotal": 1,
        "misclassified": [["key": key, "actual": first, "predicted": second, "probability": 0.75, "top3": [second, first]]],
    ]
    guard let json = try? JSONSerialization.data(withJSONObject: object),
        let report = try? JSONDecoder().decode(EvalReport.self, from: json)
    else {
        preconditionFailure("the report template does not decode")
    }
    let page = HTMLReportWriter.render(report, thumbnails: .init(primary: [key: "<img src=\"data:,\" alt=\"\">"]))
    precondition(page.contains("Content-Security-Policy"), "the page has no Content-Security-Policy")
    let found = page.utf8CString.withUnsafeBufferPointer { sketchprep_html_runs_script($0.baseAddress!, Int32($0.count - 1)) }
    precondition(found == 0, "libxml2 finds a script element or an event-handler attribute in the report (\(found))")
    return 0
}
