#!/usr/bin/env bash
# The semantic pass against the real cudafe++ (issue 5's benchmark): on one
# host translation unit (default: the largest corpus TU cached by the
# tests), the time of
#   - `cufront inspect symbols` (parse, scope graph, types, template
#     instantiation, and the linkage name of every function and variable
#     the model knows: what the module id and host output need),
#   - `cufront inspect layout`  (parse and the layout of every complete
#     class and of the specializations they need),
#   - `cufront parse` alone (so the semantic share can be read off),
# and of the real cudafe++ run as nvcc runs it, with their ratios.
#
#   tests/bench/semantic_vs_cudafe.sh [FILE.ii] [RUNS]
#
# Times are medians of RUNS (default 3) wall-clock runs of whole processes,
# with CPU times (user + system) beside them: on a loaded machine trust the
# CPU column. CUDA_HOME (default: the pinned toolkit under ~/.cache/cufront)
# locates cudafe++. A name containing "c++20" or ".20." is read as C++20.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
ii=${1:-}
runs=${2:-3}
if [[ -z $ii ]]; then
    ii=$(ls -S "$root"/target/cufront-test-cache/*.ii 2>/dev/null | head -1 || true)
    [[ -n $ii ]] || { echo "no FILE.ii given and no cached corpus TU; run 'cargo test -p cufront-tests' first" >&2; exit 2; }
fi
[[ -f $ii ]] || { echo "$ii: no such file" >&2; exit 2; }
cuda=${CUDA_HOME:-$HOME/.cache/cufront/cuda-13.0.88/nvidia/cu13}
cudafe=$cuda/bin/cudafe++
[[ -x $cudafe ]] || { echo "cudafe++ not found at $cudafe (set CUDA_HOME)" >&2; exit 2; }
std=c++17
cxx20=()
case $(basename "$ii") in
    *c++20* | *.20.*) std=c++20; cxx20=(--cxx20) ;;
esac

echo "building cufront (release)..." >&2
(cd "$root" && cargo build --release -q -p cufront)
cufront=${CARGO_TARGET_DIR:-$root/target}/release/cufront

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# "wall_ms cpu_ms" medians of RUNS runs of "$@".
measure() {
    local rows=()
    for _ in $(seq "$runs"); do
        /usr/bin/time -f '%e %U %S' -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || { echo "failed: $*" >&2; head -5 "$tmp/err" >&2; exit 1; }
        rows+=("$(awk '{printf "%.1f %.1f", $1 * 1000, ($2 + $3) * 1000}' "$tmp/t")")
    done
    printf '%s\n' "${rows[@]}" | awk '{print $1}' | median | tr '\n' ' '
    printf '%s\n' "${rows[@]}" | awk '{print $2}' | median
}

read -r sym_w sym_c < <(measure "$cufront" inspect symbols "$ii" "${cxx20[@]}")
read -r lay_w lay_c < <(measure "$cufront" inspect layout "$ii" "${cxx20[@]}")
read -r par_w par_c < <(measure "$cufront" parse "$ii" "${cxx20[@]}")
read -r fe_w fe_c < <(measure "$cudafe" --"$std" --static-host-stub --device-hidden-visibility --gnu_version=120200 \
    --display_error_number --orig_src_file_name x.cu --orig_src_path_name "$tmp/x.cu" --allow_managed \
    --extended-lambda --m64 --parse_templates --gen_c_file_name "$tmp/x.cudafe1.cpp" \
    --stub_file_name x.cudafe1.stub.c --gen_module_id_file --module_id_file_name "$tmp/x.module_id" "$ii")

printf '%s (%s, %s lines), medians of %s runs; load average %s\n' "$ii" "$std" "$(wc -l <"$ii")" "$runs" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '  %-34s %9s %9s %9s\n' '' 'wall ms' 'cpu ms' 'cpu ratio'
row() { awk -v n="$1" -v w="$2" -v c="$3" -v f="$fe_c" 'BEGIN {printf "  %-34s %9.1f %9.1f %9.3f\n", n, w, c, c / f}'; }
row 'cufront inspect symbols' "$sym_w" "$sym_c"
row 'cufront inspect layout' "$lay_w" "$lay_c"
row 'cufront parse (all bodies)' "$par_w" "$par_c"
row 'cudafe++ (whole front end)' "$fe_w" "$fe_c"
awk -v s="$sym_c" -v l="$lay_c" -v p="$par_c" -v f="$fe_c" 'BEGIN {
    printf "  semantic pass alone (symbols + layout - 2 parses): %.1f ms CPU = %.3f x cudafe++\n", s + l - 2 * p, (s + l - 2 * p) / f
}'
