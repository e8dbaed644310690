import sketchprep

// The `sketchprep` program: the CLI's root command (Sources/sketchprep).
SketchPrepCommand.main()
