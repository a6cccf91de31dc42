#!/usr/bin/env bash
# `cufront check` against `nvcc -c` on corpus programs: wall-clock medians of
# RUNS interleaved runs each (default 3) and the ratio check / nvcc (the
# target is <= 0.2). Both get the program's first standard and its flags
# from the corpus header; both run in a scratch folder.
#
#   tests/bench/check_vs_nvcc.sh [RUNS] [PROGRAM.cu...]
#
# CUDA_HOME (default: the pinned toolkit under ~/.cache/cufront) locates
# nvcc; CUFRONT names the cufront binary (default: a release build).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-3}
shift || true
cuda=${CUDA_HOME:-$HOME/.cache/cufront/cuda-13.0.88/nvidia/cu13}
[[ -x $cuda/bin/nvcc ]] || { echo "no toolkit at $cuda (set CUDA_HOME)" >&2; exit 2; }
if [[ -z ${CUFRONT:-} ]]; then
    echo "building cufront (release)..." >&2
    (cd "$root" && cargo build --release -q -p cufront)
    CUFRONT=${CARGO_TARGET_DIR:-$root/target}/release/cufront
fi

# Both run in a scratch folder: a relative path would name nothing there.
CUFRONT=$(realpath "$CUFRONT")
[[ -x $CUFRONT ]] || { echo "no cufront binary at $CUFRONT" >&2; exit 2; }

if [[ $# -gt 0 ]]; then
    programs=()
    for p in "$@"; do programs+=("$root/tests/corpus/$(basename "$p")"); done
else
    programs=("$root"/tests/corpus/*.cu)
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

ratios=()
printf '%-24s %10s %10s %7s\n' program nvcc_s check_s ratio
for src in "${programs[@]}"; do
    name=$(basename "$src")
    header=$(head -1 "$src")
    std=$(sed -n 's/.*std=\(c++[0-9]*\).*/\1/p' <<<"$header")
    flags=$(sed -n 's/.*flags=//p' <<<"$header")
    cp "$src" "$tmp/$name"
    nv=() ch=()
    for ((i = 0; i < runs; i++)); do
        t0=$(now)
        (cd "$tmp" && "$cuda/bin/nvcc" -std="$std" $flags -c "$name" -o x.o 2>/dev/null) || true
        t1=$(now)
        (cd "$tmp" && "$CUFRONT" check --cuda-path "$cuda" "$name" -std="$std" $flags 2>/dev/null) || true
        t2=$(now)
        nv+=("$(echo "$t1 - $t0" | bc -l)")
        ch+=("$(echo "$t2 - $t1" | bc -l)")
    done
    n=$(printf '%s\n' "${nv[@]}" | median)
    c=$(printf '%s\n' "${ch[@]}" | median)
    r=$(echo "$c / $n" | bc -l)
    ratios+=("$r")
    printf '%-24s %10.2f %10.2f %7.3f\n' "$name" "$n" "$c" "$r"
done
printf 'median ratio check / nvcc -c: %.3f over %d programs\n' "$(printf '%s\n' "${ratios[@]}" | median)" "${#ratios[@]}"
