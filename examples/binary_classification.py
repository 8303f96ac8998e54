"""Binary classification with early stopping.

Trains on the bundled Fertility data (data/demo/fertility_*.csv.gz: does a
mother of two have a third child?), watches the AUC on the test file and
stops when it has not improved for 5 rounds. The string columns (gender1,
gender2, afam, hispanic, other) are read as categorical features.

    python3 examples/binary_classification.py [DATA_DIR]

DATA_DIR defaults to the repository's data/demo (the wheel does not ship
it: see docs/install.md).
"""

import sys
from pathlib import Path

import numpy as np

import gpulayer

data = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "data" / "demo")

# label= names the label column; every other column is a feature.
train = gpulayer.Dataset.from_file(data / "fertility_train.csv.gz", label="morekids")
test = gpulayer.Dataset.from_file(data / "fertility_test.csv.gz", label="morekids")

params = {
    "objective": "binary:logistic",
    "eval_metric": "auc",
    "max_depth": 6,
    "eta": 0.3,
    "device": "cpu",  # "auto" picks a GPU where there is one
}
history = {}
booster = gpulayer.train(
    params, train, num_boost_round=200,
    evals=[(test, "test")],  # the last set's last metric decides early stopping
    early_stopping_rounds=5,
    evals_result=history,
    verbose_eval=10,  # print the metrics every 10 rounds
)

# predict() uses the rounds up to the best one when training stopped early.
p = booster.predict(test)
labels = test.get_label()
accuracy = float(np.mean((p > 0.5) == (labels > 0.5)))
best_auc = history["test"]["auc"][booster.best_iteration]
print(f"stopped after {booster.num_boosted_rounds()} rounds; best round {booster.best_iteration}")
print(f"result: test auc {best_auc:.4f}, accuracy {accuracy:.4f} "
      f"(best round {booster.best_iteration})")
