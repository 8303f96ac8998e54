#!/usr/bin/env python3
"""Draws the README's pictures from the bundled demo data (AER Fertility,
data/demo/): docs/images/importance.png, learning_curve.png and tree.png.

Uses the package in python/ and the library in build/ unless
GPULAYER_LIBRARY names another; needs the plot extra (matplotlib, graphviz)
and Graphviz's dot. Usage: python3 scripts/readme_pictures.py [--out DIR]
"""

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))
if not os.environ.get("GPULAYER_LIBRARY") and (ROOT / "build" / "libgpulayer.so").exists():
    os.environ["GPULAYER_LIBRARY"] = str(ROOT / "build" / "libgpulayer.so")

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

import gpulayer  # noqa: E402

# No version or date in the files, so that drawing again changes nothing.
PNG = {"dpi": 100, "metadata": {"Software": None}}


def load(name: str):
    frame = pd.read_csv(ROOT / "data" / "demo" / name)
    label = frame.pop("morekids")
    return gpulayer.Dataset(frame, label=label)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)

    # --- what the README shows
    dtrain = load("fertility_train.csv.gz")
    dtest = load("fertility_test.csv.gz")
    history = {}
    bst = gpulayer.train(
        {"objective": "binary:logistic", "eval_metric": ["auc", "logloss"],
         "eta": 0.3, "max_depth": 3, "seed": 0},
        dtrain, num_boost_round=300,
        evals=[(dtrain, "train"), (dtest, "test")], evals_result=history,
        early_stopping_rounds=20)

    ax = gpulayer.plot_importance(bst, importance_type="gain", values_format="{v:.0f}")
    ax.figure.set_size_inches(6, 3.5)
    ax.figure.tight_layout()
    ax.figure.savefig(out / "importance.png", **PNG)

    axes = gpulayer.plot_metric(history, booster=bst, figsize=(10, 3.5))
    axes[0].figure.tight_layout()
    axes[0].figure.savefig(out / "learning_curve.png", **PNG)

    fig, ax = plt.subplots(figsize=(10, 3.4))
    gpulayer.plot_tree(bst, tree=0, ax=ax, dpi=150)
    fig.tight_layout()
    fig.savefig(out / "tree.png", **PNG)
    # ---

    for name in ("importance.png", "learning_curve.png", "tree.png"):
        print(f"{out / name}: {(out / name).stat().st_size} bytes")
    print(f"best round {bst.best_iteration} of {bst.num_rounds}")


if __name__ == "__main__":
    main()
