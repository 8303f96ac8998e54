"""SHAP contributions: why the model predicted what it did.

Trains a classifier on the bundled Fertility data, then asks for each test
row how much every feature pushed its margin (log-odds) up or down: exact
TreeSHAP, as XGBoost's pred_contribs. Each row's contributions plus the bias
(the last column) add up to its margin. See docs/explain.md.

    python3 examples/shap_contributions.py [DATA_DIR]
"""

import sys
from pathlib import Path

import numpy as np

import gpulayer

data = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "data" / "demo")

train = gpulayer.Dataset.from_file(data / "fertility_train.csv.gz", label="morekids")
test = gpulayer.Dataset.from_file(data / "fertility_test.csv.gz", label="morekids")
booster = gpulayer.train({"objective": "binary:logistic", "max_depth": 4}, train,
                         num_boost_round=20)

contribs = booster.predict(test, pred_contribs=True)  # (rows, features + 1)
margin = booster.predict(test, output_margin=True)
print("shape", contribs.shape, "(the last column is the bias)")

# The contributions of a row and the bias sum to its margin.
gap = float(np.max(np.abs(contribs.sum(axis=1) - margin)))

# Global importance: the mean absolute contribution of each feature.
names = booster.feature_names
importance = np.abs(contribs[:, :-1]).mean(axis=0)
for i in np.argsort(-importance):
    print(f"  {names[i]:10s} mean |SHAP| {importance[i]:.4f}")

# One row explained: which features raised or lowered its probability.
row = contribs[0]
print(f"row 0: margin {margin[0]:+.3f} = bias {row[-1]:+.3f} + "
      + " + ".join(f"{names[i]} {row[i]:+.3f}" for i in range(len(names))))
print(f"result: most important feature {names[int(np.argmax(importance))]}; "
      f"contributions sum to the margin within {gap:.1e}")
