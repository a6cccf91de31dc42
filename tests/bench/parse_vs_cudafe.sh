#!/usr/bin/env bash
# Compares cufront's lex+parse time with the real cudafe++ on the same host
# translation unit (what nvcc hands cudafe++).
#
#   tests/bench/parse_vs_cudafe.sh [FILE.ii] [RUNS]
#
# FILE.ii defaults to the largest corpus TU cached by the tests
# (target/cufront-test-cache/, made by `cargo test -p cufront-tests`).
# A name containing "c++20" or ".20." is parsed as C++20. Times are medians
# of RUNS runs (default 5): cufront with all bodies parsed, cufront with
# declarations only (lazy bodies), and cudafe++ run with the flags nvcc
# passes it (see `nvcc --dryrun`), in a temporary directory.
# CUDA_HOME (default: the pinned toolkit under ~/.cache/cufront) locates cudafe++.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
ii=${1:-}
runs=${2:-5}
if [[ -z $ii ]]; then
    ii=$(ls -S "$root"/target/cufront-test-cache/*.ii 2>/dev/null | head -1 || true)
    if [[ -z $ii ]]; then
        echo "no FILE.ii given and no cached corpus TU; run 'cargo test -p cufront-tests' first" >&2
        exit 2
    fi
fi
[[ -f $ii ]] || { echo "$ii: no such file" >&2; exit 2; }
cuda=${CUDA_HOME:-$HOME/.cache/cufront/cuda-13.0.88/nvidia/cu13}
cudafe=$cuda/bin/cudafe++
[[ -x $cudafe ]] || { echo "cudafe++ not found at $cudafe (set CUDA_HOME)" >&2; exit 2; }

std=c++17
cxx20_flag=()
case $(basename "$ii") in
    *c++20* | *.20.*) std=c++20; cxx20_flag=(--cxx20) ;;
esac

echo "building cufront (release)..." >&2
(cd "$root" && cargo build --release -q -p cufront)
cufront=${CARGO_TARGET_DIR:-$root/target}/release/cufront

# Median of the numbers on stdin.
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# cufront: the medians come from `parse --time --repeat`.
cufront_ms() {
    "$cufront" parse "$ii" "${cxx20_flag[@]}" --time --repeat "$runs" "$@" 2>&1 >/dev/null \
        | sed -n 's/.*total_ms=\([0-9.]*\).*/\1/p'
}
full=$(cufront_ms)
lazy=$(cufront_ms --lazy)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cudafe_once() {
    local t0 t1
    t0=$(date +%s%N)
    "$cudafe" --"$std" --static-host-stub --device-hidden-visibility --gnu_version=120200 \
        --display_error_number --orig_src_file_name x.cu --orig_src_path_name "$tmp/x.cu" \
        --allow_managed --extended-lambda --m64 --parse_templates --gen_c_file_name "$tmp/x.cudafe1.cpp" \
        --stub_file_name x.cudafe1.stub.c --gen_module_id_file --module_id_file_name "$tmp/x.module_id" \
        "$ii" >/dev/null 2>"$tmp/cudafe.err" || { echo "cudafe++ failed:" >&2; head "$tmp/cudafe.err" >&2; exit 1; }
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000000 ))
}
cudafe=$(for _ in $(seq "$runs"); do cudafe_once; done | median)

# CPU time (user + sys) of one whole `cufront parse` process per mode: on
# a loaded machine wall times wait for a core, CPU times do not (cufront
# uses a second thread on large inputs, cudafe++ one).
cpu_s() {
    /usr/bin/time -f '%U %S' "$cufront" parse "$ii" "${cxx20_flag[@]}" "$@" 2>&1 >/dev/null | awk 'END {print $1 + $2}'
}
full_cpu=$(cpu_s)
lazy_cpu=$(cpu_s --lazy)

lines=$(wc -l <"$ii")
printf '%s (%s, %s lines), medians of %s runs; load average %s\n' "$ii" "$std" "$lines" "$runs" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '  cufront lex+parse, all bodies:   %8.1f ms\n' "$full"
printf '  cufront lex+parse, lazy bodies:  %8.1f ms\n' "$lazy"
printf '  cudafe++ total:                  %8.1f ms\n' "$cudafe"
printf '  cufront process CPU, all bodies: %8.2f s (whole process: read, parse, drop)\n' "$full_cpu"
printf '  cufront process CPU, lazy:       %8.2f s\n' "$lazy_cpu"
awk -v f="$full" -v l="$lazy" -v c="$cudafe" 'BEGIN {
    printf "  cudafe++ / cufront (all bodies):  %6.2fx  (cufront = %.3f x cudafe++)\n", c / f, f / c
    printf "  cudafe++ / cufront (lazy):        %6.2fx  (cufront = %.3f x cudafe++)\n", c / l, l / c
    printf "  all bodies / lazy:                %6.2fx\n", f / l
}'
