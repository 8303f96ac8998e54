"""Regression with categorical columns.

Predicts how many weeks a mother worked in 1979 (`work`) in the bundled
Fertility data from her age, her children's genders and her ethnicity.
The string columns (gender1, gender2, afam, hispanic, other) become
categorical features: each split sends a set of categories left, with no
one-hot encoding. A pandas DataFrame with `category` columns is read the
same way (docs/categorical.md).

    python3 examples/regression_categorical.py [DATA_DIR]
"""

import sys
from pathlib import Path

import numpy as np

import gpulayer

data = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "data" / "demo")

# morekids is left out: it is the other example's label, not a feature here.
train = gpulayer.Dataset.from_file(data / "fertility_train.csv.gz", label="work",
                                   ignore_columns=["morekids"])
test = gpulayer.Dataset.from_file(data / "fertility_test.csv.gz", label="work",
                                  ignore_columns=["morekids"])
params = {
    "objective": "reg:squarederror",
    "eval_metric": "rmse",
    "max_depth": 4,
    "eta": 0.3,
}
booster = gpulayer.train(params, train, num_boost_round=30)

# The model records each feature's kind ("c" categorical, "q" numeric) and
# the names of a categorical feature's categories.
for f, (name, kind) in enumerate(zip(booster.feature_names, booster.feature_types)):
    print(f"{name}: " + (f"categorical {booster.categories(f)}" if kind == "c" else "numeric"))

y = test.get_label()
rmse = float(np.sqrt(np.mean((booster.predict(test) - y) ** 2)))
baseline = float(np.sqrt(np.mean((train.get_label().mean() - y) ** 2)))
print(f"result: test rmse {rmse:.3f} weeks (always predicting the mean: {baseline:.3f})")
