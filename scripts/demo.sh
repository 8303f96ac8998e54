#!/usr/bin/env bash
# The main job: set up, build, then train on the bundled real data (AER
# Fertility, 203,723 training rows) on the best device found, and print the
# test metrics every 10 rounds.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh >/dev/null
./build/gpulayer devices 2>/dev/null || true
exec ./build/gpulayer train \
  --data data/demo/fertility_train.csv.gz --label morekids \
  --valid data/demo/fertility_test.csv.gz \
  --objective binary:logistic --param eval_metric=logloss --param eval_metric=auc \
  --num-round 100 --eta 0.1 --max-depth 6 --device "${DEVICE:-auto}" \
  --model fertility_model.json "$@"
