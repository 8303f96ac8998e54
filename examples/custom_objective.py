"""A custom objective (and metric) written in Python.

The objective is a function of the current margins and the training data
that returns the gradient and hessian of the loss for every row, as in
XGBoost. Here it is the logistic loss written out by hand; trained with the
same parameters, it gives the model the built-in binary:logistic gives.
A custom metric (the error rate at 0.5) is reported next to the built-in
ones. See the obj and custom_metric arguments of gpulayer.train.

    python3 examples/custom_objective.py [DATA_DIR]
"""

import sys
from pathlib import Path

import numpy as np

import gpulayer

data = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "data" / "demo")

train = gpulayer.Dataset.from_file(data / "fertility_train.csv.gz", label="morekids")
test = gpulayer.Dataset.from_file(data / "fertility_test.csv.gz", label="morekids")


def logistic_loss(margin, dtrain):
    """Gradient and hessian of log(1 + exp(-y m)) in the margin m (y in {0, 1})."""
    y = dtrain.get_label()
    p = 1.0 / (1.0 + np.exp(-margin))
    return p - y, p * (1.0 - p)


def error_rate(margin, dataset):
    """(name, value): with a custom objective the metric sees raw margins."""
    return "error@0.5", float(np.mean((margin > 0) != (dataset.get_label() > 0.5)))


# The objective parameter still names the link (predict() gives
# probabilities) and the default metric; base_score 0.5 is margin 0.
params = {"objective": "binary:logistic", "max_depth": 4, "eta": 0.3, "base_score": 0.5}
history = {}
custom = gpulayer.train(params, train, num_boost_round=10, obj=logistic_loss,
                        custom_metric=error_rate, evals=[(test, "test")],
                        evals_result=history, verbose_eval=5)
builtin = gpulayer.train(params, train, num_boost_round=10)

p_custom = custom.predict(test)
p_builtin = builtin.predict(test)
gap = float(np.max(np.abs(p_custom - p_builtin)))
print(f"result: test error {history['test']['error@0.5'][-1]:.4f}; the custom objective's "
      f"probabilities differ from binary:logistic's by at most {gap:.1e}")
