#!/bin/sh
# bad_input.sh GPULAYER MPIRUN -- one rank's bad data fail every rank with
# that rank's message, before training, and no model is written.
set -u
GPULAYER=$1
MPIRUN=$2
. "$(dirname "$0")/../dist/lib.sh"
enter_workdir
gen_data all.csv 900
split_shards all.csv good_ 3

# expect_failure NAME PATTERN MESSAGE ARGS...: 3 ranks on PATTERN fail
# with MESSAGE and leave no model.
expect_failure() {
    name=$1 pattern=$2 message=$3
    shift 3
    timeout 120 "$MPIRUN" --oversubscribe --allow-run-as-root -np 3 \
        "$GPULAYER" train --data "$pattern" --label y --num-round 3 --quiet \
        --model "$name.json" "$@" > "$name.log" 2>&1
    rc=$?
    cat "$name.log"
    [ "$rc" -ne 0 ] || fail "$name: the job succeeded"
    [ "$rc" -ne 124 ] || fail "$name: the job did not end"
    [ ! -e "$name.json" ] || fail "$name: a model was written"
    grep -q "$message" "$name.log" || fail "$name: no message matching '$message'"
    echo "ok: $name"
}

# Rank 2's file does not exist.
cp good_0.csv missing_0.csv
cp good_1.csv missing_1.csv
expect_failure missing_file 'missing_%d.csv' 'rank 2: .*missing_2.csv'

# Rank 1's file has a row without a label (a read error).
for r in 0 1 2; do cp "good_$r.csv" "nolabel_$r.csv"; done
sed -i '5s/^[0-9]*,/,/' nolabel_1.csv
expect_failure missing_label 'nolabel_%d.csv' 'rank 1: .*nolabel_1.csv'

# Rank 1 has a label out of range for the objective: a check of the
# training step, not of reading.
for r in 0 1 2; do
    awk -F, 'BEGIN { OFS = "," } NR > 1 && $1 > 1 { $1 = 1 } { print }' \
        "good_$r.csv" > "binary_$r.csv"
done
sed -i '5s/^[0-9]*,/2,/' binary_1.csv
expect_failure label_range 'binary_%d.csv' 'rank 1: .*needs labels in \[0, 1\]' \
    --objective binary:logistic

# Rank 2's file has an extra column: the ranks disagree on the layout.
awk -F, 'BEGIN { OFS = "," } { print $0, (NR == 1 ? "extra" : 1) }' good_2.csv > wide_2.csv
cp good_0.csv wide_0.csv
cp good_1.csv wide_1.csv
expect_failure layout 'wide_%d.csv' 'differ in columns'
echo "all bad input checks passed"
