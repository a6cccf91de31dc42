#!/usr/bin/env bash
# The drop-in benchmark: for every corpus program, the time cufront and the
# real cudafe++ take for nvcc's host front-end step (read the host `.ii`,
# write the host file and the module id), and the median ratio.
#
#   tests/bench/host_vs_cudafe.sh [RUNS] [PROGRAM.cu...]
#
# Each program's host `.ii` and its cudafe++ command line come from the real
# nvcc (`--dryrun`, with the program's standard and flags from its corpus
# header); both front ends then run that same command line (cufront as
# `cufront cudafe++`), RUNS times each (default 3), and the medians are
# compared, wall clock and CPU time (user + system) each. Ratio = cufront /
# cudafe++ (the target is <= 0.25). A program
# that cufront cannot translate yet (an error exit) is shown but left out
# of the median. BENCH_DIR=DIR keeps every program's inputs in DIR/PROGRAM
# (its cudafe++ arguments in DIR/PROGRAM/args, shell-quoted). CUDA_HOME (default: the pinned toolkit under
# ~/.cache/cufront) locates nvcc and cudafe++. Uses a release build.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-3}
shift || true
cuda=${CUDA_HOME:-$HOME/.cache/cufront/cuda-13.0.88/nvidia/cu13}
[[ -x $cuda/bin/nvcc && -x $cuda/bin/cudafe++ ]] || { echo "no toolkit at $cuda (set CUDA_HOME)" >&2; exit 2; }

echo "building cufront (release)..." >&2
(cd "$root" && cargo build --release -q -p cufront)
cufront=${CARGO_TARGET_DIR:-$root/target}/release/cufront

if [[ $# -gt 0 ]]; then
    programs=()
    for p in "$@"; do programs+=("$root/tests/corpus/$(basename "$p")"); done
else
    programs=("$root"/tests/corpus/*.cu)
fi

# BENCH_DIR keeps each program's inputs and outputs (for profiling).
if [[ -n ${BENCH_DIR:-} ]]; then
    tmp=$BENCH_DIR
    mkdir -p "$tmp"
else
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
fi

# Median of the numbers on stdin.
median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "nan"; else print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# Milliseconds one run of "$@" takes: wall clock and CPU (user + system),
# on one line (a failing run counts too). On a loaded machine the wall time
# waits for a core; the CPU time does not (cufront uses a second thread on
# large inputs, cudafe++ one).
time_ms() {
    /usr/bin/time -f '%e %U %S' -o "$tmp/last.time" "$@" >/dev/null 2>"$tmp/last.err" || true
    awk '{printf "%.1f %.1f\n", $1 * 1000, ($2 + $3) * 1000}' "$tmp/last.time"
}

# Median of column $1 of stdin.
median_col() { awk -v c="$1" '{print $c}' | median; }

printf '%-24s %8s %11s %11s %7s %9s %9s %7s\n' program lines 'cufront ms' 'cudafe++ ms' ratio 'cpu ms' 'cpu ms' 'cpu'
ratios=()
cpu_ratios=()
for src in "${programs[@]}"; do
    stem=$(basename "$src" .cu)
    header=$(head -1 "$src")
    std=$(sed -n 's/.*std=\(c++[0-9a-z]*\).*/\1/p' <<<"$header")
    read -r -a flags <<<"$(sed -n 's/.*flags=//p' <<<"$header")"
    dir=$tmp/$stem
    mkdir -p "$dir"
    # nvcc's own steps; its temporary names become files in $dir.
    (cd "$dir" && "$cuda/bin/nvcc" "-std=${std:-c++17}" -arch=sm_90 ${flags[@]+"${flags[@]}"} --dryrun -c "$src" -o "$stem.o") 2>&1 \
        | sed -n 's/^#\$ //p' \
        | sed "s#\"[^\"]*tmpxft_[0-9a-f_]*-[0-9]*_#\"$dir/#g" >"$dir/steps"
    pp=$(grep -m1 -- ' -E .*cpp4\.ii' "$dir/steps" || true)
    fe=$(grep -m1 '^cudafe++ ' "$dir/steps" || true)
    if [[ -z $pp || -z $fe ]]; then
        echo "$stem: no preprocessing or cudafe++ step in nvcc --dryrun" >&2
        continue
    fi
    (cd "$dir" && eval "$pp") || { echo "$stem: preprocessing failed" >&2; continue; }
    # The cudafe++ arguments as a word list (nvcc quotes each path).
    eval "args=(${fe#cudafe++ })"
    printf '%q ' "${args[@]}" >"$dir/args"
    lines=$(wc -l <"$dir/$stem.cpp4.ii")
    ours_runs=$(cd "$dir" && for _ in $(seq "$runs"); do time_ms "$cufront" cudafe++ "${args[@]}"; done)
    ok=1
    if ! (cd "$dir" && "$cufront" cudafe++ "${args[@]}" >/dev/null 2>&1); then ok=0; fi
    real_runs=$(cd "$dir" && for _ in $(seq "$runs"); do time_ms "$cuda/bin/cudafe++" "${args[@]}"; done)
    ours=$(median_col 1 <<<"$ours_runs")
    real=$(median_col 1 <<<"$real_runs")
    ours_cpu=$(median_col 2 <<<"$ours_runs")
    real_cpu=$(median_col 2 <<<"$real_runs")
    if [[ $ok == 1 ]]; then
        ratio=$(awk -v a="$ours" -v b="$real" 'BEGIN {printf "%.3f", a / b}')
        cpu_ratio=$(awk -v a="$ours_cpu" -v b="$real_cpu" 'BEGIN {printf "%.3f", (b > 0) ? a / b : 0}')
        ratios+=("$ratio")
        cpu_ratios+=("$cpu_ratio")
    else
        ratio="(fails)"
        cpu_ratio="-"
    fi
    printf '%-24s %8s %11s %11s %7s %9s %9s %7s\n' "$stem" "$lines" "$ours" "$real" "$ratio" "$ours_cpu" "$real_cpu" "$cpu_ratio"
done

med=$(printf '%s\n' "${ratios[@]}" | median)
cpu_med=$(printf '%s\n' "${cpu_ratios[@]}" | median)
printf '\nmedian cufront/cudafe++ over %d programs: %s wall, %s CPU (target <= 0.25); load average %s\n' \
    "${#ratios[@]}" "$med" "$cpu_med" "$(cut -d' ' -f1-3 /proc/loadavg)"
