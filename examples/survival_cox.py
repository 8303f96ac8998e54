"""Survival analysis: how long a telco customer stays (Cox proportional
hazards).

Each label of the bundled churn data is a tenure in months, positive for
a customer who left and negative for one still there (censored: only a
lower bound of the time is known). `survival:cox` predicts each
customer's hazard relative to the others, `exp(margin)`: a higher value
means an earlier departure (docs/objectives.md). The concordance index is
the share of comparable pairs of test customers whose order the
predictions get right (0.5 is chance).

    python3 examples/survival_cox.py [DATA_DIR]
"""

import sys
from pathlib import Path

import numpy as np

import gpulayer

data = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "data" / "demo")

train = gpulayer.Dataset.from_file(data / "churn_train.csv.gz", label="time")
test = gpulayer.Dataset.from_file(data / "churn_test.csv.gz", label="time")
params = {"objective": "survival:cox", "max_depth": 3, "eta": 0.05, "subsample": 0.8}
result = {}
booster = gpulayer.train(params, train, num_boost_round=200, evals=[(test, "test")],
                         evals_result=result, verbose_eval=50)


def concordance(time, hazard):
    """Harrell's C: of the pairs where the shorter time is a departure,
    the share the hazards order the right way (ties count half)."""
    t, event = np.abs(time), time > 0
    right = pairs = 0.0
    for i in np.flatnonzero(event):
        later = t > t[i]
        pairs += later.sum()
        right += (hazard[i] > hazard[later]).sum() + 0.5 * (hazard[i] == hazard[later]).sum()
    return right / pairs


c = concordance(test.get_label(), booster.predict(test))
loss = result["test"]["cox-nloglik"]
print(f"result: test concordance {c:.3f}, cox-nloglik {loss[-1]:.4f} (after the first round: "
      f"{loss[0]:.4f})")
