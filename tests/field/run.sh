#!/usr/bin/env bash
# Field check: real CUDA sources that this project did not write, compiled by
# the real nvcc and by nvcc with cufront in place of cudafe++ (the overlay),
# whole-program and with -rdc=true. Compares the host objects' symbols (nm:
# name and type) and the module ids. Manual: it needs the network the first
# time (the sources are fetched by package name with cargo). See README.md.
#
# usage: tests/field/run.sh [-j N] [--mode whole|rdc|both] [--only REGEX] [--skip REGEX] [--fresh] [--quick]
#   CUFRONT=path/to/cufront   use this binary (default: cargo build --release)
#   CUFRONT_FIELD_CACHE=dir   cache (default ~/.cache/cufront/field)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${CUFRONT_FIELD_CACHE:-$HOME/.cache/cufront/field}
jobs=2 modes="whole rdc" only="" skip="" fresh=0 arch=-arch=sm_90

# The packages: crate name, version, the folder of its CUDA sources, and the
# nvcc flags its build script passes (-O3 and -fPIC left out: they change
# neither the front end's input nor the symbols).
packages=(
  "candle-kernels|0.11.1|src|--expt-relaxed-constexpr"
  "candle-layer-norm|0.0.1|kernels|--expt-relaxed-constexpr -U__CUDA_NO_HALF_OPERATORS__ -U__CUDA_NO_HALF_CONVERSIONS__ -U__CUDA_NO_HALF2_OPERATORS__ -U__CUDA_NO_BFLOAT16_CONVERSIONS__ --expt-extended-lambda"
  "candle-rotary|0.0.1|kernels|--expt-relaxed-constexpr -U__CUDA_NO_HALF_OPERATORS__ -U__CUDA_NO_HALF_CONVERSIONS__ -U__CUDA_NO_HALF2_OPERATORS__ -U__CUDA_NO_BFLOAT16_CONVERSIONS__ --expt-extended-lambda"
  "mistralrs-quant|0.8.1|kernels|-U__CUDA_NO_HALF_OPERATORS__ -U__CUDA_NO_HALF_CONVERSIONS__ -U__CUDA_NO_HALF2_OPERATORS__ -U__CUDA_NO_BFLOAT16_CONVERSIONS__ --expt-relaxed-constexpr --expt-extended-lambda --use_fast_math"
)

# --- one build and its comparison (run by the parallel workers) -------------
if [[ ${1:-} == --one ]]; then
  shift
  pkg=$1 src=$2 file=$3 mode=$4 flags=$5 real_nvcc=$6 our_nvcc=$7 arch=$8
  rel=${file#"$src"/}
  work=$cache/work/$pkg/${rel//\//__}/$mode
  extra=()
  [[ $mode == rdc ]] && extra=(-rdc=true)
  # One nvcc build in $1 ("real" or "ours"); "ok" or "fail".
  build() {
    local dir=$work/$1 nvcc=$2
    rm -rf "$dir" && mkdir -p "$dir"
    # shellcheck disable=SC2086
    if (cd "$dir" && "$nvcc" -std=c++17 $arch $flags "${extra[@]}" -I"$src" \
        --keep --keep-dir "$dir" -c "$file" -o "$dir/out.o") >"$dir/log" 2>&1; then
      nm "$dir/out.o" | awk '{print $NF, $(NF-1)}' | sort >"$dir/syms"
      cat "$dir"/*.module_id >"$dir/id" 2>/dev/null
      echo ok >"$dir/status"
    else
      echo fail >"$dir/status"
    fi
  }
  # The real build does not change while the toolkit and flags stay: reuse it.
  key="$arch $flags|$mode|$(sha1sum "$file" | cut -c1-40)"
  if [[ ! -f $work/real/status || $(cat "$work/real/key" 2>/dev/null) != "$key" ]]; then
    build real "$real_nvcc"
    echo "$key" >"$work/real/key"
  fi
  # A source the real front end rejects is not applicable (cufront has no
  # semantic diagnostics yet, so its build would fail later, in g++).
  if [[ $(cat "$work/real/status") == ok ]]; then
    build ours "$our_nvcc"
  else
    mkdir -p "$work/ours" && echo skip >"$work/ours/status"
  fi
  r=$(cat "$work/real/status") o=$(cat "$work/ours/status") syms=- id=-
  if [[ $r == ok && $o == ok ]]; then
    rid=$(tr -d '\n' <"$work/real/id") oid=$(tr -d '\n' <"$work/ours/id")
    # cudafe++'s time/process fallback id (…_<crc>_<pid>) cannot repeat:
    # both must use it, and symbols embedding it are compared masked.
    fallback='_[0-9a-f]{8}_[0-9]+$'
    if [[ $rid =~ $fallback ]]; then
      [[ $oid =~ $fallback ]] && id=fallback || id=no
      cmp -s <(sed "s/$rid/<id>/g" "$work/real/syms") <(sed "s/$oid/<id>/g" "$work/ours/syms") \
        && syms=yes || syms=no
    else
      [[ $rid == "$oid" ]] && id=yes || id=no
      cmp -s "$work/real/syms" "$work/ours/syms" && syms=yes || syms=no
    fi
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$pkg" "$rel" "$mode" "$r" "$o" "$syms" "$id"
  exit 0
fi

while (($#)); do
  case $1 in
    -j) jobs=$2; shift 2 ;;
    --mode) [[ $2 == both ]] && modes="whole rdc" || modes=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --skip) skip=$2; shift 2 ;;
    --fresh) fresh=1; shift ;;
    # PTX only: no ptxas (a third of the time on big kernels); the host side,
    # what is compared, is the same as with sm_90.
    --quick) arch="-gencode=arch=compute_90,code=compute_90"; shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
((fresh)) && rm -rf "$cache/work"
mkdir -p "$cache/src"

# --- the sources, by package name --------------------------------------------
# cargo fetches a crate (with its dependency graph) into its registry cache;
# the crate's folder is then copied into our cache so later runs need no
# network.
fetch_crate() {
  local name=$1 version=$2 dest=$cache/src/$1-$2
  [[ -d $dest ]] && return 0
  local tmp
  tmp=$(mktemp -d)
  mkdir -p "$tmp/src" && : >"$tmp/src/lib.rs"
  printf '[package]\nname = "field-fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\n%s = { version = "=%s", default-features = false }\n' \
    "$name" "$version" >"$tmp/Cargo.toml"
  echo "fetching $name $version" >&2
  if ! (cd "$tmp" && cargo fetch -q) >&2; then
    echo "  could not fetch $name $version: skipped" >&2
    rm -rf "$tmp"; return 1
  fi
  local got
  got=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"$name-$version" | head -1)
  cp -r "$got" "$dest" && rm -rf "$tmp"
}

# --- the two toolkits ---------------------------------------------------------
if [[ -z ${CUFRONT:-} ]]; then
  (cd "$repo" && cargo build -q --release -p cufront) || exit 2
  CUFRONT=${CARGO_TARGET_DIR:-$repo/target}/release/cufront
fi
real_root=$("$CUFRONT" toolkit path) || exit 2
overlay=$cache/overlay
rm -rf "$overlay"
"$CUFRONT" toolkit overlay "$overlay" --cuda-path "$real_root" >/dev/null || exit 2

list=$(mktemp)
for p in "${packages[@]}"; do
  IFS='|' read -r name version sub flags <<<"$p"
  fetch_crate "$name" "$version" || continue
  src=$cache/src/$name-$version/$sub
  # Small files first: the first rows come early.
  find "$src" -name '*.cu' -printf '%s %p\n' | sort -n | cut -d' ' -f2- | while read -r f; do
    [[ -n $only && ! $f =~ $only ]] && continue
    [[ -n $skip && $f =~ $skip ]] && continue
    for m in $modes; do
      printf '%s\0%s\0%s\0%s\0%s\0%s\0%s\0%s\0' "$name" "$src" "$f" "$m" "$flags" \
        "$real_root/bin/nvcc" "$overlay/bin/nvcc" "$arch"
    done
  done
done >"$list"

# Rows also go to last.tsv as they come (to follow a long run).
results=$(xargs -0 -n 8 -P "$jobs" bash "$0" --one <"$list" | tee "$cache/last.tsv" | sort)
rm -f "$list"

{
  printf 'package\tfile\tmode\treal\tours\tsymbols=\tid=\n'
  printf '%s\n' "$results"
} | column -t -s $'\t'

echo
for m in $modes; do
  awk -F'\t' -v m="$m" '$3 == m {
      n++; if ($4 == "ok") real++
      if ($4 == "ok" && $5 == "ok" && $6 == "yes" && $7 != "no") pass++
      if ($4 == "ok" && $5 != "ok") ours_fail++
      if ($6 == "no" || $7 == "no") differ++
    } END {
      printf "%s: %d files, real ok %d, same (ok, symbols, id) %d/%d, ours failed %d, differ %d\n",
        m, n, real, pass, real, ours_fail, differ
    }' <<<"$results"
done
echo "logs: $cache/work/<package>/<file>/<mode>/{real,ours}/log"
