import sketchprep

/// The CLI, for the wheel's `sketchprep` launcher (python/launcher/sketchprep.c), which calls this
/// from its `main`: parses the process's arguments and runs the command as the `sketchprep`
/// program does (SketchPrepMain). Returns 0 when the command succeeded; otherwise the process has
/// exited with the command's status.
@_cdecl("sketchprep_cli_main")
public func sketchprepCLIMain() -> Int32 {
    SketchPrepCommand.main()
    return 0
}
