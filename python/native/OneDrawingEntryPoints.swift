import SketchCore

/// The C ABI of `sketchprep.simplify`'s one-call path: one drawing per call, as
/// `marshal.dumps(drawing, 2)` (`MarshalledDrawing`), with the buffers of a per-thread
/// workspace that Python keeps, so a call allocates nothing once they have grown. Few arguments:
/// ctypes spends about 0.15 µs converting each one.

/// The buffers one Python thread reuses across `sketchprep_simplify_marshalled` calls (never
/// shared between threads; freed with `sketchprep_workspace_free`). They keep the capacity of the
/// largest drawing the thread has simplified, within the limits of `DrawingLimits`.
final class SimplifyWorkspace {
    var simplifier = Simplifier(options: .google)
    var strokes = FlatStrokes()
    var simplified = FlatStrokes()
    var scratch: [Double] = []
}

/// A new workspace for one thread.
@_cdecl("sketchprep_workspace_new")
public func sketchprepWorkspaceNew() -> UnsafeMutableRawPointer { Unmanaged.passRetained(SimplifyWorkspace()).toOpaque() }

/// Frees a workspace.
@_cdecl("sketchprep_workspace_free")
public func sketchprepWorkspaceFree(_ workspace: UnsafeMutableRawPointer) {
    Unmanaged<SimplifyWorkspace>.fromOpaque(workspace).release()
}

/// Google's simplification of one marshalled drawing (`count` bytes at `data`) with the buffers
/// of `workspace`, written to `output` (room for `capacity` bytes) in the same marshal format,
/// `[[[x...], [y...]], ...]` with int32 coordinates, for `marshal.loads`. Returns the bytes
/// written, or -1 when it declines: bad options, data that is not plain lists of numbers, a
/// drawing the CLI refuses, or output that does not fit. The caller then takes
/// `sketchprep_simplify`, which names the reason.
@_cdecl("sketchprep_simplify_marshalled")
public func sketchprepSimplifyMarshalled(
    _ data: UnsafeRawPointer?, _ count: Int64,
    _ epsilon: Double, _ resampleStep: Double, _ scaleTarget: Double,
    _ workspace: UnsafeMutableRawPointer?,
    _ output: UnsafeMutableRawPointer?, _ capacity: Int64
) -> Int64 {
    let options = SimplificationOptions(scaleTarget: scaleTarget, resampleStep: resampleStep, epsilon: epsilon)
    guard options.validationProblem == nil, let data, let workspace, let output,
        (0..<Int64(Int32.max)).contains(count), (0..<Int64(Int32.max)).contains(capacity)
    else { return -1 }
    let buffers = Unmanaged<SimplifyWorkspace>.fromOpaque(workspace).takeUnretainedValue()
    var drawing = MarshalledDrawing(data, count: Int(count))
    guard drawing.read(into: &buffers.strokes, scratch: &buffers.scratch) else { return -1 }
    if buffers.simplifier.options != options { buffers.simplifier = Simplifier(options: options) }
    do throws(DrawingLimitError) {
        try buffers.simplifier.simplify(buffers.strokes, into: &buffers.simplified)
    } catch {
        return -1
    }
    return MarshalledDrawing.write(buffers.simplified, to: UnsafeMutableRawBufferPointer(start: output, count: Int(capacity)))
}
