"""Learning to rank (LambdaMART, rank:ndcg).

Ranks movies for each user of the bundled MovieLens sample
(data/demo/movielens_*.csv.gz): a query is a user, the label is the
rating's grade (1..10), and the model learns to put each user's best-rated
movies first. The test file holds other users, so the NDCG on it says how
well the model ranks for people it has not seen.

    python3 examples/ranking.py [DATA_DIR]
"""

import sys
from pathlib import Path

import numpy as np

import gpulayer

data = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "data" / "demo")

# qid_column: the rows of one user are one query (the files are sorted by
# userId, as query ids must be). It is not a feature. genres is a string
# column, hence categorical.
train = gpulayer.Dataset.from_file(data / "movielens_train.csv.gz", label="relevance",
                                   qid_column="userId")
test = gpulayer.Dataset.from_file(data / "movielens_test.csv.gz", label="relevance",
                                  qid_column="userId")
print(f"train: {train.num_rows} rows in {train.num_groups()} queries; "
      f"test: {test.num_rows} rows in {test.num_groups()} queries")

params = {
    "objective": "rank:ndcg",
    "eval_metric": "ndcg@10",  # the quality of each user's top 10
    "max_depth": 6,
    "eta": 0.1,
}
history = {}
booster = gpulayer.train(params, train, num_boost_round=30, evals=[(test, "test")],
                         evals_result=history)

# Scores order the rows within a query; their scale means nothing.
scores = booster.predict(test)
group = test.get_group()  # rows per query, in file order
first = scores[:group[0]]
labels = test.get_label()[:group[0]]
top = np.argsort(-first, kind="stable")[:5]
print(f"first test user: grades of the 5 movies ranked highest {labels[top].astype(int).tolist()}"
      f" (the user's best grade: {int(labels.max())})")
ndcg = history["test"]["ndcg@10"]
print(f"result: test ndcg@10 {ndcg[-1]:.4f} (after the first round: {ndcg[0]:.4f})")
