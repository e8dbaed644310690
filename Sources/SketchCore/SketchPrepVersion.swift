/// SketchPrep's version: what `sketchprep --version` prints, what manifests and partials record
/// (`merge` refuses partials of another version), and what `make wheel` stamps on the Python
/// package. The one place it is written down.
public enum SketchPrepVersion {
    /// The release, in semantic-versioning form.
    public static let current = "0.10.0"
}
