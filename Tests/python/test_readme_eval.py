"""The README's bundled-model headline states what docs/eval.md measured (`make eval`): for each model the same
class count, held-out examples, top-1, balanced accuracy and top-3, so the headline cannot hide an imbalanced
test split behind top-1 alone."""
import re

from conftest import REPO


def rows(text, header):
    """{model: cells} of the Markdown table whose header row starts with `header`."""
    block = text[text.index(header):].split("\n\n")[0].splitlines()
    table = {}
    for line in block[2:]:
        cells = [cell.strip().replace("**", "") for cell in line.strip().strip("|").split("|")]
        table[cells[0].split()[0]] = cells
    return table


def figures(cells, columns):
    """The first number of each of `columns` (held-out examples, percentages) of one row."""
    return [re.search(r"[\d.,]+", cells[column]).group(0).replace(",", "") for column in columns]


def test_the_readme_eval_headline_matches_docs_eval_with_balanced_accuracy():
    readme = rows((REPO / "README.md").read_text(), "| model | classes | held-out examples | top-1 | balanced accuracy |")
    docs = rows((REPO / "docs" / "eval.md").read_text(), "| model | classes | training data | held-out examples")
    assert set(readme) == set(docs) == {"quickdraw-rnn", "quickdraw-bitmap28", "tuberlin-cnn"}
    for model, cells in readme.items():
        # README: model, classes, held-out, top-1, balanced, top-3; docs: model, classes, training, held-out, top-1, balanced, top-3.
        assert figures(cells, [1, 2, 3, 4, 5]) == figures(docs[model], [1, 3, 4, 5, 6]), model
