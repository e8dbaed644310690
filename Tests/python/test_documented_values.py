"""Every pipeline value that a `--help` text or docs/pipelines.md names (`output.layout: X`, or a
`a | b | c` choice in the schema's comments) is accepted by `sketchprep preprocess`: each one, set in
one of the shipped pipelines, runs."""
import re
import subprocess

import pytest
import yaml

from conftest import REPO, SHARED

SECTIONS = ("source", "simplify", "filters", "encode", "split", "output")
DOTTED_VALUE = re.compile(r"\b(" + "|".join(SECTIONS) + r")\.([a-z_]+): ?([A-Za-z0-9][A-Za-z0-9_.-]*)")
PIPELINES = sorted((REPO / "Pipelines").glob("*.yaml"))


def schema_entries():
    """(section, key, comment) for each key line of docs/pipelines.md's YAML schema block."""
    text = (REPO / "docs" / "pipelines.md").read_text()
    block = text[text.index("```yaml\nname:"):]
    section = None
    for line in block[:block.index("```\n", 8)].splitlines():
        top = re.match(r"^([a-z_]+):", line)
        if top:
            section = top.group(1)
        entry = re.match(r"^\s+([a-z_]+):(?: \S+\s+#\s*(.*))?", line)
        if entry:
            yield section, entry.group(1), entry.group(2) or ""


def schema_keys():
    """(section, key) of every key the schema shows."""
    return {(section, key) for section, key, _ in schema_entries()}


def schema_choices():
    """(section, key, value) for each `a | b | c` choice in the comments of docs/pipelines.md's schema."""
    found = set()
    for section, key, comment in schema_entries():
        if "|" not in comment:
            continue
        pieces = comment.split("|")
        pieces[0] = pieces[0].rsplit(":", 1)[-1]
        found |= {(section, key, piece.split()[0].rstrip(":")) for piece in pieces}
    return found


def help_mentions(sketchprep):
    """(section, key, value) for each `section.key: value` in the --help text of every command and docs/pipelines.md
    whose key the schema has (not the misspelt key of an error-message example)."""
    commands = re.findall(r"^\s{2,}([a-z][a-z-]+)\s", subprocess.run(
        [sketchprep, "--help"], check=True, capture_output=True, text=True).stdout.split("SUBCOMMANDS:")[1], re.M)
    texts = [subprocess.run([sketchprep, command, "--help"], check=True, capture_output=True, text=True).stdout
             for command in commands if command != "help"]
    texts.append((REPO / "docs" / "pipelines.md").read_text())
    assert len(texts) > 10
    # Help text is wrapped at the terminal width: join lines before matching.
    keys = schema_keys()
    return {match for text in texts for match in DOTTED_VALUE.findall(re.sub(r"\s*\n\s*", " ", text)) if match[:2] in keys}


def accepted(sketchprep, tmp_path, section, key, value):
    """Whether some shipped pipeline with `section.key` set to `value` passes the pipeline validation:
    runs on a drawing or two, or fails for another reason than its file (e.g. `file_format: stroke3`
    on an NDJSON input); validation errors name the pipeline file."""
    parsed_value = yaml.safe_load(value)
    for pipeline in PIPELINES:
        config = yaml.safe_load(pipeline.read_text())
        config.setdefault(section, {})[key] = parsed_value
        if config["source"]["kind"] == "image-directory":
            inputs = [SHARED / "tuberlin" / "test"]
        else:
            inputs = [REPO / "SampleData" / "quickdraw" / "raw" / "cat.ndjson"]
        candidate = tmp_path / f"{section}.{key}.{value}.{pipeline.name}"
        candidate.write_text(yaml.safe_dump(config))
        run = subprocess.run([sketchprep, "preprocess", "--pipeline", candidate, *[a for i in inputs for a in ("--input", i)],
                              "--limit", "2", "--category", "bicycle" if config["source"]["kind"] == "image-directory" else "cat",
                              "-o", tmp_path / "out" / f"{candidate.stem}-out", "-q"], capture_output=True, text=True)
        if run.returncode == 0 or candidate.name not in run.stderr:
            return True
    return False


def test_the_schema_lists_its_choices():
    choices = schema_choices()
    assert ("output", "layout", "tensorflow-tutorial") in choices
    assert ("encode", "polarity", "black-on-white") in choices
    assert len(choices) >= 15


def test_every_value_named_in_help_and_docs_is_accepted(sketchprep, tmp_path):
    named = schema_choices() | help_mentions(sketchprep)
    assert ("output", "layout", "tensorflow-tutorial") in named
    refused = sorted(f"{section}.{key}: {value}" for section, key, value in named
                     if not accepted(sketchprep, tmp_path, section, key, value))
    assert refused == [], "named in --help or docs/pipelines.md but refused by preprocess"
