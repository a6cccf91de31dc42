#!/bin/sh
# The long robustness campaign (issue 22), outside CI, on idle CPU only:
# every fuzz target for SECONDS each, then the mutation run with MUTANTS
# mutants per corpus unit. Crashers land in fuzz/artifacts/TARGET/; minimize
# one with `cargo fuzz tmin TARGET FILE` and keep it in fuzz/regressions/
# (the syntax crate's tests replay every file there).
#
#   crates/syntax/fuzz/campaign.sh [SECONDS] [MUTANTS]
set -eu
seconds=${1:-600}
mutants=${2:-3000}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$here"
# Seeds: the parser's snapshot inputs, the CLI inputs and the regressions.
mkdir -p corpus
cp -n ../test_data/parser/ok/*.cpp ../test_data/parser/err/*.cpp corpus/ 2>/dev/null || true
cp -n "$root"/tests/cli/inputs/*.in corpus/ 2>/dev/null || true
cp -n regressions/* corpus/ 2>/dev/null || true
# No sanitizer (the code is safe Rust; a panic, an abort or a stack
# overflow ends the run without one, at two to three times the speed) and
# debug assertions on (arithmetic overflow panics, as in CI's debug tests).
RUSTC_BOOTSTRAP=1 nice -n 19 cargo fuzz build -O -a -s none
for target in parse check semantic cudafe; do
    mkdir -p "corpus-$target" "artifacts/$target"
    RUSTC_BOOTSTRAP=1 nice -n 19 cargo fuzz run -O -a -s none "$target" "corpus-$target" corpus -- \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=60 -max_len=4096 -print_final_stats=1 \
        -artifact_prefix="artifacts/$target/" \
        2>&1 | tail -n 20 | grep -E 'stat::number_of_executed_units|stat::peak_rss_mb|SUMMARY|ERROR' | sed "s/^/$target: /"
done
cd "$root"
CUFRONT_MUTANTS=$mutants nice -n 19 cargo test -p cufront --test mutation -- --nocapture 2>&1 | grep -E 'mutants|test result|failed'
