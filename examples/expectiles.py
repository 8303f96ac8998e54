"""Expectiles: several predictions of one label that never cross.

Predicts the weeks a mother worked in 1979 (`work`, the bundled Fertility
data) at expectile levels 0.1, 0.5 and 0.9 in one model. An expectile is
to the squared error what a quantile is to the absolute error: level 0.9
weighs the rows above the prediction nine times those below, so it sits
above most labels. With several levels, `reg:expectileerror` chains the
outputs, as XGBoost does, so that no row's lower level ever predicts more
than its higher one (docs/objectives.md).

    python3 examples/expectiles.py [DATA_DIR]
"""

import sys
from pathlib import Path

import numpy as np

import gpulayer

data = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "data" / "demo")

train = gpulayer.Dataset.from_file(data / "fertility_train.csv.gz", label="work",
                                   ignore_columns=["morekids"])
test = gpulayer.Dataset.from_file(data / "fertility_test.csv.gz", label="work",
                                  ignore_columns=["morekids"])
levels = [0.1, 0.5, 0.9]
params = {"objective": "reg:expectileerror", "expectile_alpha": levels, "max_depth": 4,
          "eta": 0.3}
booster = gpulayer.train(params, train, num_boost_round=30)

pred = booster.predict(test)  # (rows, levels)
y = test.get_label()
below = [float(np.mean(y < pred[:, k])) for k in range(len(levels))]
ordered = bool(np.all(np.diff(pred, axis=1) >= 0))
print("mean prediction by level: " + ", ".join(f"{a}: {pred[:, k].mean():.2f} weeks"
                                               for k, a in enumerate(levels)))
print(f"result: share of test rows below each level {below[0]:.3f} {below[1]:.3f} "
      f"{below[2]:.3f}, never crossing {ordered}")
