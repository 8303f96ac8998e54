# lib.sh -- shared by the distributed and reliability tests (POSIX sh).
# Expects GPULAYER (the command) and MPIRUN (the launcher) to be set.

# Under AddressSanitizer (scripts/test.sh --sanitize), memory that Open MPI
# keeps until exit would read as gpulayer's leaks. Its plugins stay loaded
# so that their frames have names, full stacks are recorded, and leaks
# through MPI's libraries are suppressed (lsan-mpi.supp); gpulayer's own
# allocations are still checked. Without a sanitizer these change nothing.
export OMPI_MCA_mca_base_component_disable_dlclose=1
export LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")/../dist" && pwd)/lsan-mpi.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
if [ -n "${ASAN_OPTIONS:-}" ]; then
    export ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0"
fi

# enter_workdir: cd into a fresh temporary folder removed at exit.
enter_workdir() {
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    cd "$work" || exit 1
}

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# mpirun_n N CMD...: N ranks on this host, more ranks than cores allowed
# (CI machines have few), as root too (CI containers).
mpirun_n() {
    n=$1
    shift
    "$MPIRUN" --oversubscribe --allow-run-as-root -np "$n" "$@"
}

# gen_data FILE ROWS: a CSV with a 3-class label, 6 numeric features (some
# missing) and a weight column (some zero). A fixed MINSTD stream, whose
# products stay below 2^53, so every awk writes the same file.
gen_data() {
    awk -v rows="$2" 'BEGIN {
        x = 12345
        print "y,f0,f1,f2,f3,f4,f5,w"
        for (r = 0; r < rows; r++) {
            line = ""
            s = 0
            for (f = 0; f < 6; f++) {
                x = (x * 48271) % 2147483647
                v = (x % 100000) / 1000.0 - 50
                if (f < 3) s += v * (f + 1)
                if ((x % 23) == 0) line = line ","
                else line = line "," sprintf("%.3f", v)
            }
            x = (x * 48271) % 2147483647
            y = s + (x % 4000) / 100.0 - 20 > 10 ? 2 : (s > -10 ? 1 : 0)
            x = (x * 48271) % 2147483647
            w = (x % 37) == 0 ? 0 : 0.5 + (x % 1500) / 1000.0
            print y line "," sprintf("%.3f", w)
        }
    }' > "$1"
}

# split_shards FILE PATTERN_PREFIX N: PREFIX0.csv .. PREFIX{N-1}.csv, each
# a contiguous block of rows [r*n/N, (r+1)*n/N) with the header.
split_shards() {
    awk -v prefix="$2" -v parts="$3" '
        NR == 1 { header = $0; next }
        { rows[NR - 1] = $0 }
        END {
            n = NR - 1
            for (p = 0; p < parts; p++) {
                out = prefix p ".csv"
                print header > out
                for (i = int(n * p / parts) + 1; i <= int(n * (p + 1) / parts); i++)
                    print rows[i] > out
                close(out)
            }
        }' "$1"
}

# same_model A B WHAT: the two saved models are the same bytes.
same_model() {
    [ -f "$1" ] || fail "$3: no model $1"
    [ -f "$2" ] || fail "$3: no model $2"
    cmp -s "$1" "$2" || fail "$3: $2 differs from $1"
    echo "ok: $3"
}

now() { date +%s; }
