#!/bin/bash
# Nsight Compute characterization of the CUDA histogram kernel on the
# synthetic 10M x 28 workload: the root level (rows in order, no row index)
# and the deeper levels of the first tree (rows gathered through the index).
#
#   bash bench/profile_hist_ncu.sh [BENCH] [DATA_DIR] [OUT_DIR]
#
# BENCH: gpulayer-bench (default build/bench/gpulayer-bench); DATA_DIR holds
# train.X.f32 ... as written by bench_cuda.py's ensure_data (default
# /tmp/bd/synthetic). Writes OUT_DIR/hist_ncu.txt (the sections' tables).
set -eu
BENCH=${1:-build/bench/gpulayer-bench}
D=${2:-/tmp/bd/synthetic}
O=${3:-/tmp/ncu}
mkdir -p "$O"
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
# Launch 0 is the root's histogram; 1..7 are levels 1..7 of the first tree.
"$NCU" --kernel-name regex:hist_shared --launch-skip 0 --launch-count 8 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
  --section Occupancy --section LaunchStats \
  --metrics smsp__inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,sm__cycles_elapsed.avg,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_mio_throttle.ratio,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio \
  "$BENCH" "$D/train.X.f32" "$D/train.y.f32" "$D/test.X.f32" "$D/test.y.f32" 28 \
  objective=binary:logistic num_round=1 eta=0.1 max_depth=8 max_bin=256 device=cuda \
  > "$O/hist_ncu.txt" 2>&1
grep -E "hist_shared|Duration|Memory Throughput|DRAM Throughput|Compute \(SM\)|Achieved Occupancy|Registers Per|shared_atom|long_scoreboard|mio_throttle|short_scoreboard|lg_throttle|cycles_elapsed|Block Limit" "$O/hist_ncu.txt" | head -150
