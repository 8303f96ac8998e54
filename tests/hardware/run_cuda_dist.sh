#!/bin/sh
# run_cuda_dist.sh GPULAYER MPIRUN DEMO_DIR -- CUDA ranks on a machine with
# an NVIDIA GPU and MPI: data-parallel training on the GPU gives the same
# model bytes as one process on the GPU, whatever the rank count; ranks
# that would share a GPU without asking are refused with the reason.
# Prints SKIPPED (exit 0) where there is no CUDA device or no launcher.
set -u
GPULAYER=$1
MPIRUN=$2
DEMO=$3
. "$(dirname "$0")/../dist/lib.sh"
if ! command -v "$MPIRUN" >/dev/null 2>&1; then
    echo "SKIPPED: no MPI launcher ($MPIRUN)"
    exit 0
fi
if ! "$GPULAYER" place --accelerator cuda >/dev/null 2>&1; then
    echo "SKIPPED: no CUDA device fits (gpulayer place --accelerator cuda)"
    exit 0
fi
enter_workdir

# 1. The demo data on cuda:0: 1 rank against 2 and 3 ranks sharing it.
set -- --data "$DEMO/fertility_train.csv.gz" --label morekids \
    --valid "$DEMO/fertility_test.csv.gz" --objective binary:logistic \
    --num-round 20 --param subsample=0.8 --param colsample_bytree=0.8 \
    --param seed=7 --device cuda:0 --quiet
"$GPULAYER" train "$@" --model single.json || fail "single process on cuda:0"
for n in 2 3; do
    mpirun_n "$n" "$GPULAYER" train "$@" --model "ranks$n.json" || fail "$n cuda ranks"
    same_model single.json "ranks$n.json" "logistic on cuda:0, $n ranks sharing the GPU"
done

# 2. Generated data: weights, missing values, 3 classes, lossguide, one
#    file per rank.
gen_data all.csv 20000
split_shards all.csv shard_ 2
set -- --label y --weight w --objective multi:softprob --param num_class=3 \
    --param grow_policy=lossguide --param max_leaves=12 --param max_depth=0 \
    --num-round 5 --param subsample=0.7 --device cuda:0 --quiet
"$GPULAYER" train --data all.csv "$@" --model multi.json || fail "single process"
mpirun_n 2 "$GPULAYER" train --data 'shard_%d.csv' "$@" --model multi2.json ||
    fail "2 cuda ranks, shard files"
same_model multi.json multi2.json "softprob lossguide on cuda:0, 2 ranks, one file per rank"

# 3. --device cuda asks for one GPU a rank: with fewer GPUs than ranks the
#    job is refused with the placement's reason, and no model is written.
gpus=$("$GPULAYER" devices --json | grep -c '"accelerator":[[:space:]]*"cuda"')
n=$((gpus + 1))
if mpirun_n "$n" "$GPULAYER" train --data all.csv --label y --ignore w \
    --num-round 2 --device cuda --model refused.json 2>refused.txt; then
    fail "$n ranks on $gpus GPU(s) with --device cuda were not refused"
fi
[ ! -f refused.json ] || fail "a refused job wrote a model"
grep -q "needs $n cuda devices" refused.txt || { cat refused.txt; fail "the refusal does not say why"; }
echo "ok: $n ranks on $gpus GPU(s) with --device cuda refused: $(grep -m1 -o 'cuda[^;]*' refused.txt)"
echo "all CUDA rank checks passed"
