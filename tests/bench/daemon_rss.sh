#!/usr/bin/env bash
# The daemon's memory over many rebuilds of one unit (issue 21: RSS after
# 1000 rebuilds <= 1.2x its RSS after 10). Each rebuild edits one kernel body
# of the program's host unit (alternating texts) and runs it through the
# daemon; the daemon's RSS (`cufront daemon status`) is printed after 10 and
# after REBUILDS rebuilds, with the ratio.
#
#   tests/bench/daemon_rss.sh [REBUILDS] [PROGRAM.cu]   (defaults: 1000, cccl_pipeline.cu)
#
# Uses a release build and a private CUFRONT_DAEMON_DIR; CUDA_HOME as in
# host_vs_cudafe.sh.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
rebuilds=${1:-1000}
program=${2:-cccl_pipeline.cu}
cuda=${CUDA_HOME:-$HOME/.cache/cufront/cuda-13.0.88/nvidia/cu13}
[[ -x $cuda/bin/nvcc ]] || { echo "no toolkit at $cuda (set CUDA_HOME)" >&2; exit 2; }
(cd "$root" && cargo build --release -q -p cufront)
cufront=${CARGO_TARGET_DIR:-$root/target}/release/cufront

tmp=$(mktemp -d)
export CUFRONT_DAEMON_DIR=$tmp/daemon CUFRONT_DAEMON=1
trap '"$cufront" daemon stop >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT

src=$root/tests/corpus/$program
stem=$(basename "$src" .cu)
header=$(head -1 "$src")
std=$(sed -n 's/.*std=\(c++[0-9a-z]*\).*/\1/p' <<<"$header")
read -r -a flags <<<"$(sed -n 's/.*flags=//p' <<<"$header")"
cd "$tmp"
"$cuda/bin/nvcc" "-std=${std:-c++17}" -arch=sm_90 ${flags[@]+"${flags[@]}"} --dryrun -c "$src" -o "$stem.o" 2>&1 \
    | sed -n 's/^#\$ //p' | sed "s#\"[^\"]*tmpxft_[0-9a-f_]*-[0-9]*_#\"$tmp/#g" >steps
eval "$(grep -m1 -- ' -E .*cpp4\.ii' steps)"
eval "args=($(grep -m1 '^cudafe++ ' steps | sed 's/^cudafe++ //'))"
ii=$stem.cpp4.ii
# Two texts that differ in one kernel body of the user's file.
python3 - "$ii" <<'EOF'
import re, sys
path = sys.argv[1]
text = open(path).read()
def in_user(at):
    line = text.rfind("\n# ", 0, at)
    return '.cu"' in text[line + 1:text.find("\n", line + 1)]
for m in re.finditer(r"__attribute__\(\(global\)\)", text):
    k = m.start()
    brace, semi = text.find("{", k), text.find(";", k)
    if in_user(k) and brace != -1 and brace < semi:
        depth = 0
        for i in range(brace, len(text)):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                break
        for n in (0, 1):
            open(path + ".%d" % n, "w").write(text[:brace] + "{ int cufront_edit = %d; (void)cufront_edit; }" % n + text[i + 1:])
        sys.exit(0)
sys.exit("no kernel defined in the user's file")
EOF
rss() { "$cufront" daemon status | sed -n 's/.*RSS \([0-9.]*\) MiB.*/\1/p'; }
for i in $(seq "$rebuilds"); do
    cp "$ii.$((i % 2))" "$ii"
    "$cufront" cudafe++ "${args[@]}" >/dev/null 2>&1 || { echo "rebuild $i failed" >&2; exit 1; }
    [[ $i == 10 ]] && at10=$(rss) && echo "RSS after 10 rebuilds: $at10 MiB" >&2
done
end=$(rss)
printf '%s: RSS after 10 rebuilds %s MiB, after %d %s MiB, ratio %.3f (target <= 1.2)\n' \
    "$program" "$at10" "$rebuilds" "$end" "$(awk -v a="$end" -v b="$at10" 'BEGIN {print a / b}')"
