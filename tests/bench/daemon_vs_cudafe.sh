#!/usr/bin/env bash
# The build daemon against the real cudafe++ (issue 21's two targets), wall
# clock, interleaved runs, medians and ratios:
#
#  1. cold: N corpus units (default 20) through a freshly started daemon
#     (`CUFRONT_DAEMON=1`, the first client starts it; its start is counted),
#     one after the other, against the summed real cudafe++ times of the
#     same units (target <= 0.1). The in-process cufront sum is shown too.
#  2. warm edit: the largest unit, already in the running daemon, rebuilt
#     after an edit of one kernel body (each timed run is a new edit),
#     against the real cudafe++ cold on that unit (target <= 0.02).
#
#   tests/bench/daemon_vs_cudafe.sh [RUNS] [UNITS]
#
# Inputs come from the real nvcc (`--dryrun`, each program's standard and
# flags from its corpus header), as in host_vs_cudafe.sh. CUDA_HOME (default:
# the pinned toolkit under ~/.cache/cufront) locates nvcc and cudafe++.
# Uses a release build; the daemon runs in a private CUFRONT_DAEMON_DIR.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-5}
units=${2:-20}
cuda=${CUDA_HOME:-$HOME/.cache/cufront/cuda-13.0.88/nvidia/cu13}
[[ -x $cuda/bin/nvcc && -x $cuda/bin/cudafe++ ]] || { echo "no toolkit at $cuda (set CUDA_HOME)" >&2; exit 2; }

echo "building cufront (release)..." >&2
(cd "$root" && cargo build --release -q -p cufront)
cufront=${CARGO_TARGET_DIR:-$root/target}/release/cufront

tmp=$(mktemp -d)
export CUFRONT_DAEMON_DIR=$tmp/daemon
unset CUFRONT_DAEMON
trap '"$cufront" daemon stop >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "nan"; else print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
now_ms() { date +%s%N | awk '{printf "%.1f", $1 / 1e6}'; }

# Prepare every program: its host .ii and cudafe++ arguments (in $dir/args).
prepared=()
for src in "$root"/tests/corpus/*.cu; do
    [[ ${#prepared[@]} -ge $units ]] && break
    stem=$(basename "$src" .cu)
    header=$(head -1 "$src")
    std=$(sed -n 's/.*std=\(c++[0-9a-z]*\).*/\1/p' <<<"$header")
    read -r -a flags <<<"$(sed -n 's/.*flags=//p' <<<"$header")"
    dir=$tmp/$stem
    mkdir -p "$dir"
    (cd "$dir" && "$cuda/bin/nvcc" "-std=${std:-c++17}" -arch=sm_90 ${flags[@]+"${flags[@]}"} --dryrun -c "$src" -o "$stem.o") 2>&1 \
        | sed -n 's/^#\$ //p' \
        | sed "s#\"[^\"]*tmpxft_[0-9a-f_]*-[0-9]*_#\"$dir/#g" >"$dir/steps"
    pp=$(grep -m1 -- ' -E .*cpp4\.ii' "$dir/steps" || true)
    fe=$(grep -m1 '^cudafe++ ' "$dir/steps" || true)
    [[ -n $pp && -n $fe ]] || { echo "$stem: no cudafe++ step" >&2; continue; }
    (cd "$dir" && eval "$pp") || { echo "$stem: preprocessing failed" >&2; continue; }
    eval "args=(${fe#cudafe++ })"
    printf '%q ' "${args[@]}" >"$dir/args"
    # Units cufront cannot translate yet (an error exit) are left out.
    if (cd "$dir" && "$cufront" cudafe++ "${args[@]}" >/dev/null 2>&1); then
        prepared+=("$dir")
    else
        echo "$stem: cufront fails; left out" >&2
    fi
done
echo "${#prepared[@]} units" >&2

# Wall milliseconds to run the front end ($@ before the arguments) on every unit.
all_units() {
    local t0 t1
    t0=$(now_ms)
    for dir in "${prepared[@]}"; do
        (cd "$dir" && eval "$* $(cat "$dir/args")" >/dev/null 2>&1) || true
    done
    t1=$(now_ms)
    awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f\n", b - a}'
}

real_sums=() cold_sums=() local_sums=()
for r in $(seq "$runs"); do
    "$cufront" daemon stop >/dev/null 2>&1 || true
    real_sums+=("$(all_units "$cuda/bin/cudafe++")")
    cold_sums+=("$(all_units CUFRONT_DAEMON=1 "$cufront" cudafe++)")
    local_sums+=("$(all_units "$cufront" cudafe++)")
    echo "run $r: real ${real_sums[-1]} ms, cold daemon ${cold_sums[-1]} ms, in-process ${local_sums[-1]} ms" >&2
done
real=$(printf '%s\n' "${real_sums[@]}" | median)
cold=$(printf '%s\n' "${cold_sums[@]}" | median)
inproc=$(printf '%s\n' "${local_sums[@]}" | median)
printf '\n1. %d units, medians of %d interleaved runs:\n' "${#prepared[@]}" "$runs"
printf '   real cudafe++ summed   %9.1f ms\n' "$real"
printf '   cold daemon            %9.1f ms   ratio %.3f (target <= 0.1)\n' "$cold" "$(awk -v a="$cold" -v b="$real" 'BEGIN {print a / b}')"
printf '   cufront in-process     %9.1f ms   ratio %.3f\n' "$inproc" "$(awk -v a="$inproc" -v b="$real" 'BEGIN {print a / b}')"

# 2. The largest unit, edited in one kernel body of the user's file.
big=$(for d in "${prepared[@]}"; do echo "$(stat -c %s "$d"/*.cpp4.ii) $d"; done | sort -n | tail -1 | cut -d' ' -f2)
ii=$(ls "$big"/*.cpp4.ii)
cp "$ii" "$ii.orig"
edit() { # edit N: the first kernel body of the user's file becomes a new one
    python3 - "$ii.orig" "$ii" "$1" <<'EOF'
import re, sys
src, dst, n = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(src).read()
def in_user(at):
    line = text.rfind("\n# ", 0, at)
    marker = text[line + 1:text.find("\n", line + 1)]
    return marker.endswith(('.cu"', '.cu" 2', '.cu" 1'))
for m in re.finditer(r"__attribute__\(\(global\)\)", text):
    k = m.start()
    brace, semi = text.find("{", k), text.find(";", k)
    if in_user(k) and brace != -1 and brace < semi:
        depth = 0
        for i in range(brace, len(text)):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                break
        open(dst, "w").write(text[:brace] + "{ int cufront_edit = %s; (void)cufront_edit; }" % n + text[i + 1:])
        sys.exit(0)
sys.exit("no kernel defined in the user's file")
EOF
}
one() { (cd "$big" && eval "$* $(cat "$big/args")" >/dev/null 2>&1) || true; }
timed() { local t0 t1; t0=$(now_ms); one "$@"; t1=$(now_ms); awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f\n", b - a}'; }
"$cufront" daemon stop >/dev/null 2>&1 || true
edit 0
one CUFRONT_DAEMON=1 "$cufront" cudafe++ # warm: the daemon runs and holds the unit
warm_runs=() real_runs=()
for r in $(seq "$runs"); do
    cp "$ii.orig" "$ii"
    real_runs+=("$(timed "$cuda/bin/cudafe++")")
    edit "$r"
    warm_runs+=("$(timed CUFRONT_DAEMON=1 "$cufront" cudafe++)")
done
real1=$(printf '%s\n' "${real_runs[@]}" | median)
warm=$(printf '%s\n' "${warm_runs[@]}" | median)
printf '\n2. %s (%s lines), medians of %d interleaved runs:\n' "$(basename "$big")" "$(wc -l <"$ii.orig")" "$runs"
printf '   real cudafe++ cold     %9.1f ms\n' "$real1"
printf '   warm daemon, 1 edit    %9.1f ms   ratio %.3f (target <= 0.02)\n' "$warm" "$(awk -v a="$warm" -v b="$real1" 'BEGIN {print a / b}')"
"$cufront" daemon status
printf 'load average %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
