#!/usr/bin/env bash
# make test-frameworks: the README's "From Python" examples, run as written, from a fresh virtual
# environment with the wheel, torch and tensorflow-cpu installed. Not part of `make test`: the frameworks are gigabytes.
#   scripts/dev/test-frameworks.sh SKETCHPREP_BINARY
set -euo pipefail
cli="$1"
work=out/wheel-frameworks
rm -rf "$work"
# numpy and the other test tools from the repository's Python environment ($PYTHON, default .venv/bin/python),
# made visible by a .pth file placed after the fresh environment's own site-packages.
python="${PYTHON:-$PWD/.venv/bin/python}"   # not realpath: the venv's python is a link to the base interpreter
"$python" -m venv "$work/venv"
"$python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' \
  >"$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/repository-venv.pth"
pip=("$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check)
"${pip[@]}" --no-deps --force-reinstall dist/sketchprep-*.whl
# torch's CPU-only build where pip can find it (the image's find-links, as Models/requirements-train.txt
# pins it), else PyPI's default build.
"${pip[@]}" "torch==2.13.0+cpu" || "${pip[@]}" torch
"${pip[@]}" tensorflow-cpu datasets
# The datasets the examples read, made as the README says.
"$cli" preprocess --pipeline Pipelines/quickdraw-rnn.yaml --input SampleData/quickdraw/raw/airplane.ndjson \
  --category airplane --output out/quickdraw-rnn/airplane >/dev/null 2>&1
"$cli" preprocess --pipeline Pipelines/quickdraw-rnn-tfrecord.yaml --output out/quickdraw-rnn-tfrecord >/dev/null 2>&1
# Every ```python block of the README's "From Python" section, in order, as one program.
"$work/venv/bin/python" - README.md "$work/examples.py" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
section = text[text.index("## From Python"):]
section = section[:section.index("\n## ", 1)]
blocks = re.findall(r"```python\n(.*?)```", section, re.S)
assert len(blocks) >= 4, f"expected the README's Python examples, found {len(blocks)}"
open(sys.argv[2], "w", encoding="utf-8").write("\n".join(blocks))
PY
"$work/venv/bin/python" "$work/examples.py"
# HF datasets' webdataset builder on the WebDataset output (issue 22; the PyPI `webdataset` check is in make test).
mkdir -p "$work/hf"
"$work/venv/bin/python" scripts/dev/check_hf_webdataset.py "$cli" "$work/hf"
# HF datasets' imagefolder builder (and torchvision's ImageFolder, when installed) on the image-folder output.
mkdir -p "$work/hf-imagefolder"
"$work/venv/bin/python" scripts/dev/check_hf_imagefolder.py "$cli" "$work/hf-imagefolder"
echo "test-frameworks: the README's Python examples ran with torch and tensorflow-cpu; HF datasets read the WebDataset and image-folder outputs" >&2
