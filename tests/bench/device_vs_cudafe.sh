#!/usr/bin/env bash
# The device-view benchmark (issue 19): for every corpus program, the CPU
# time of `cufront device` on nvcc's cicc command line (read the device
# `.ii`, write the stub and the device listing) against the real cudafe++'s
# on the same unit's host `.ii`, and the median ratio. cicc's own time
# includes its back end, so it is not the yardstick.
#
#   tests/bench/device_vs_cudafe.sh [RUNS] [PROGRAM.cu...]
#
# Each program's two `.ii` files and the command lines come from the real
# nvcc (`--dryrun`, with the program's standard and flags from its corpus
# header); the real cudafe++ writes the module id that cicc's step reads.
# Then cufront device and cudafe++ run alternately, RUNS times each (default
# 3), and the medians are compared: CPU time (user + system) and wall
# clock. Ratio = cufront device / cudafe++ (the target is <= 0.3 CPU). A
# program cufront device refuses (an error exit) is shown but left out of
# the median. BENCH_DIR=DIR keeps every program's inputs in DIR/PROGRAM.
# CUDA_HOME (default: the pinned toolkit under ~/.cache/cufront) locates
# nvcc and cudafe++. Uses a release build.
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

if [[ -n ${BENCH_DIR:-} ]]; then
    tmp=$BENCH_DIR
    mkdir -p "$tmp"
else
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
fi

# Median of the numbers on stdin.
median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "nan"; else print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
# Median of column $1 of stdin.
median_col() { awk -v c="$1" '{print $c}' | median; }

# Milliseconds one run of "$@" takes: wall clock and CPU (user + system).
time_ms() {
    /usr/bin/time -f '%e %U %S' -o "$tmp/last.time" "$@" >/dev/null 2>"$tmp/last.err" || true
    awk '{printf "%.1f %.1f\n", $1 * 1000, ($2 + $3) * 1000}' "$tmp/last.time"
}

printf '%-24s %8s %10s %10s %7s %9s %9s %7s\n' program lines 'device ms' 'cudafe ms' wall 'cpu ms' 'cpu ms' 'cpu'
cpu_ratios=()
wall_ratios=()
for src in "${programs[@]}"; do
    stem=$(basename "$src" .cu)
    header=$(head -1 "$src")
    std=$(sed -n 's/.*std=\(c++[0-9a-z]*\).*/\1/p' <<<"$header")
    read -r -a flags <<<"$(sed -n 's/.*flags=//p' <<<"$header")"
    dir=$tmp/$stem
    mkdir -p "$dir"
    (cd "$dir" && "$cuda/bin/nvcc" "-std=${std:-c++17}" -arch=sm_90 ${flags[@]+"${flags[@]}"} --dryrun -c "$src" -o "$stem.o") 2>&1 \
        | sed -n 's/^#\$ //p' \
        | sed "s#\"[^\"]*tmpxft_[0-9a-f_]*-[0-9]*_#\"$dir/#g" >"$dir/steps"
    host_pp=$(grep -m1 -- ' -E .*cpp4\.ii' "$dir/steps" || true)
    device_pp=$(grep -m1 -- ' -E .*cpp1\.ii' "$dir/steps" || true)
    fe=$(grep -m1 '^cudafe++ ' "$dir/steps" || true)
    cicc=$(grep -m1 '/cicc" ' "$dir/steps" || true)
    if [[ -z $host_pp || -z $device_pp || -z $fe || -z $cicc ]]; then
        echo "$stem: a step is missing in nvcc --dryrun" >&2
        continue
    fi
    (cd "$dir" && eval "$host_pp" && eval "$device_pp") || { echo "$stem: preprocessing failed" >&2; continue; }
    eval "fe_args=(${fe#cudafe++ })"
    eval "cicc_args=(${cicc#*/cicc\" })"
    # The module id cicc reads is cudafe++'s.
    (cd "$dir" && "$cuda/bin/cudafe++" "${fe_args[@]}" >/dev/null 2>&1) || { echo "$stem: cudafe++ failed" >&2; continue; }
    ok=1
    (cd "$dir" && "$cufront" device "${cicc_args[@]}" >/dev/null 2>&1) || ok=0
    lines=$(wc -l <"$dir/$stem.cpp1.ii")
    ours_runs=""
    real_runs=""
    for _ in $(seq "$runs"); do
        ours_runs+="$(cd "$dir" && time_ms "$cufront" device "${cicc_args[@]}")"$'\n'
        real_runs+="$(cd "$dir" && time_ms "$cuda/bin/cudafe++" "${fe_args[@]}")"$'\n'
    done
    ours=$(median_col 1 <<<"${ours_runs%$'\n'}")
    real=$(median_col 1 <<<"${real_runs%$'\n'}")
    ours_cpu=$(median_col 2 <<<"${ours_runs%$'\n'}")
    real_cpu=$(median_col 2 <<<"${real_runs%$'\n'}")
    if [[ $ok == 1 ]]; then
        ratio=$(awk -v a="$ours" -v b="$real" 'BEGIN {printf "%.3f", a / b}')
        cpu_ratio=$(awk -v a="$ours_cpu" -v b="$real_cpu" 'BEGIN {printf "%.3f", (b > 0) ? a / b : 0}')
        wall_ratios+=("$ratio")
        cpu_ratios+=("$cpu_ratio")
    else
        ratio="(fails)"
        cpu_ratio="-"
    fi
    printf '%-24s %8s %10s %10s %7s %9s %9s %7s\n' "$stem" "$lines" "$ours" "$real" "$ratio" "$ours_cpu" "$real_cpu" "$cpu_ratio"
done

med=$(printf '%s\n' "${wall_ratios[@]}" | median)
cpu_med=$(printf '%s\n' "${cpu_ratios[@]}" | median)
printf '\nmedian cufront device / cudafe++ over %d programs: %s CPU (target <= 0.3), %s wall; load average %s\n' \
    "${#cpu_ratios[@]}" "$cpu_med" "$med" "$(cut -d' ' -f1-3 /proc/loadavg)"
