#!/bin/sh
# rank_faults.sh GPULAYER MPIRUN -- a rank that dies or hangs during
# training ends the whole job with an error, in bounded time, and no model
# file is written. GPULAYER_DIST_FAULT (src/distributed/dist_fault.c) stops rank 1
# at its 40th collective, i.e. while the first trees are grown.
set -u
GPULAYER=$1
MPIRUN=$2
. "$(dirname "$0")/../dist/lib.sh"
enter_workdir
gen_data all.csv 3000
# Generous bound: the job must end on its own, long before the test's
# own timeout; a hang is detected after --dist-timeout seconds.
bound=60

# run_fault KIND EXPECT: runs 3 ranks with rank 1 failing as KIND and
# checks the exit status, the time, the message and that no model exists.
run_fault() {
    start=$(now)
    GPULAYER_DIST_FAULT="1:$1:40" timeout 120 \
        "$MPIRUN" --oversubscribe --allow-run-as-root -np 3 -x GPULAYER_DIST_FAULT \
        "$GPULAYER" train --data all.csv --label y --objective multi:softprob \
        --param num_class=3 --num-round 50 --dist-timeout 3 --quiet \
        --model "$1.json" > "$1.log" 2>&1
    rc=$?
    elapsed=$(($(now) - start))
    cat "$1.log"
    [ "$rc" -ne 0 ] || fail "$1: the job succeeded although rank 1 failed"
    [ "$rc" -ne 124 ] || fail "$1: the job did not end (killed by the test's timeout)"
    [ "$elapsed" -le "$bound" ] || fail "$1: the job took ${elapsed}s (bound ${bound}s)"
    [ ! -e "$1.json" ] || fail "$1: a model was written"
    grep -q "$2" "$1.log" || fail "$1: no message matching '$2'"
    echo "ok: rank 1 $1: job ended with status $rc after ${elapsed}s, no model"
}

run_fault die "stopped by the launcher"
run_fault exit "stopped by the launcher"
run_fault hang "no reply from the other ranks within 3 s"
echo "all rank fault checks passed"
