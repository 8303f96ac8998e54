#!/bin/sh
# identity.sh GPULAYER MPIRUN DEMO_DIR -- data-parallel training gives the
# same model bytes as one process, whatever the number of ranks and however
# the rows reach them (slices of one file, one file per rank).
set -u
GPULAYER=$1
MPIRUN=$2
DEMO=$3
. "$(dirname "$0")/lib.sh"
enter_workdir

# 1. The demo data: string columns, more rows than the binning sample (so
#    the sampled rows are gathered from the ranks), row and column
#    subsampling, a validation set with early stopping.
set -- --data "$DEMO/fertility_train.csv.gz" --label morekids \
    --valid "$DEMO/fertility_test.csv.gz" --objective binary:logistic \
    --num-round 6 --early-stopping 3 --param subsample=0.8 \
    --param colsample_bytree=0.8 --param seed=7 --quiet
"$GPULAYER" train "$@" --model single.json || fail "single process"
for n in 1 2 3; do
    mpirun_n "$n" "$GPULAYER" train "$@" --model "ranks$n.json" || fail "$n ranks"
    same_model single.json "ranks$n.json" "logistic, $n rank(s), one file sliced"
done

# 2. Generated data: weights (some zero), missing values, 3 classes,
#    lossguide growth; one file per rank against slices of one file.
gen_data all.csv 3000
split_shards all.csv shard_ 3
set -- --label y --weight w --objective multi:softprob --param num_class=3 \
    --param grow_policy=lossguide --param max_leaves=12 --param max_depth=0 \
    --num-round 4 --param subsample=0.7 --quiet
"$GPULAYER" train --data all.csv "$@" --model multi.json || fail "single process"
mpirun_n 3 "$GPULAYER" train --data 'shard_%d.csv' "$@" --model multi3.json ||
    fail "3 ranks, shard files"
same_model multi.json multi3.json "softprob lossguide, 3 ranks, one file per rank"
mpirun_n 2 "$GPULAYER" train --data all.csv "$@" --model multi2.json ||
    fail "2 ranks, slices"
same_model multi.json multi2.json "softprob lossguide, 2 ranks, one file sliced"

# 3. The Newton-step base score of pseudo-Huber error (over every rank's
#    labels), started by gpulayer run.
set -- --data all.csv --label y --ignore w --objective reg:pseudohubererror \
    --num-round 3 --quiet
"$GPULAYER" train "$@" --model huber.json || fail "single process"
"$GPULAYER" run --accelerator cpu --nproc 3 --launcher "$MPIRUN" \
    --launcher-arg --oversubscribe --launcher-arg --allow-run-as-root -- \
    "$GPULAYER" train "$@" --model huber3.json || fail "gpulayer run --nproc 3"
same_model huber.json huber3.json "pseudo-Huber error, 3 ranks through gpulayer run --nproc"
# 4. The leaf refit of absolute and quantile error (weighted): each leaf's
#    quantile over every rank's rows, and the row sample by global index.
set -- --data all.csv --label y --weight w --objective reg:quantileerror \
    --param quantile_alpha=[0.2,0.7] --param subsample=0.8 --num-round 3 --quiet
"$GPULAYER" train "$@" --model quant.json || fail "single process"
mpirun_n 3 "$GPULAYER" train "$@" --model quant3.json || fail "3 ranks"
same_model quant.json quant3.json "weighted quantile error with leaf refit, 3 ranks"
set -- --data all.csv --label y --ignore w --objective reg:absoluteerror --num-round 3 --quiet
"$GPULAYER" train "$@" --model mae.json || fail "single process"
mpirun_n 2 "$GPULAYER" train "$@" --model mae2.json || fail "2 ranks"
same_model mae.json mae2.json "absolute error with leaf refit, 2 ranks"
# 5. Devices that cannot take part: mps (one process per Apple GPU) is
#    refused on every host, and no model is written.
if mpirun_n 2 "$GPULAYER" train --data all.csv --label y --ignore w --num-round 2 \
    --device mps --model mps.json 2>mps.txt; then
    fail "a distributed mps job was not refused"
fi
[ ! -f mps.json ] || fail "a refused mps job wrote a model"
grep -q "distributed jobs cannot use mps" mps.txt || { cat mps.txt; fail "mps refusal unclear"; }
echo "ok: distributed mps refused"
echo "all distributed identity checks passed"
