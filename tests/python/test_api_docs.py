"""The Python API reference: scripts/build_api_docs.sh renders the
package's docstrings with pdoc, and the pages of the package, its
modules and the members users look up first (Dataset, Booster, train, cv,
the scikit-learn estimators by all their names) are there with their
docstrings."""

import html
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("pdoc", reason="pdoc is not installed (pip install pdoc; the test extra has it)")


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    out = tmp_path_factory.mktemp("api")
    run = subprocess.run(["bash", str(ROOT / "scripts" / "build_api_docs.sh"), str(out)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"build_api_docs: {out}/index.html" in run.stdout
    return out


def text_of(page):
    """The page's text without tags or source listings."""
    body = re.sub(r'<div class="pdoc-code codehilite">.*?</div>', "", page.read_text(),
                  flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", body))


def test_the_package_page(pages):
    page = pages / "gpulayer.html"
    source = page.read_text()
    for member in ("Dataset", "Booster", "train", "cv", "devices", "place", "DMatrix"):
        assert f'id="{member}"' in source, member
    text = text_of(page)
    assert "gradient-boosted decision trees on the CPU and GPUs" in text
    assert "Train a model." in text  # train's docstring
    assert "Parameters" in text and "early_stopping_rounds" in text


def test_every_public_module_has_a_page(pages):
    modules = sorted(p.stem for p in (ROOT / "python" / "gpulayer").glob("[!_]*.py"))
    assert {"booster", "sklearn", "distributed", "training", "crossval"} <= set(modules)
    for module in modules:
        assert (pages / "gpulayer" / f"{module}.html").is_file(), module
    assert not (pages / "gpulayer" / "_lib.html").exists()
    assert "predict" in text_of(pages / "gpulayer" / "booster.html")


def test_the_estimators(pages):
    pytest.importorskip("sklearn", reason="the estimators need scikit-learn")
    sklearn_page = (pages / "gpulayer" / "sklearn.html").read_text()
    package_page = (pages / "gpulayer.html").read_text()
    for name in ("GPULayerRegressor", "GPULayerClassifier", "GPULayerRanker"):
        assert f'id="{name}"' in sklearn_page, name
        assert f'id="{name}.fit"' in sklearn_page, name
    for prefix in ("GPULayer", "XGB", "LGBM"):
        for kind in ("Regressor", "Classifier", "Ranker"):
            assert f'id="{prefix}{kind}"' in package_page, prefix + kind
