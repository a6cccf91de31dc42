#!/usr/bin/env bash
# Field check: real CUDA sources that this project did not write, compiled by
# the real nvcc and by nvcc with cufront in place of cudafe++ (the overlay),
# whole-program and with -rdc=true. Compares the host objects' symbols (nm:
# name and type) and the module ids, and parses the host translation unit the
# real nvcc handed cudafe++ with `cufront parse`. Manual: it needs the network
# the first time (the sources are fetched by package name with cargo or pip).
# See README.md.
#
# usage: tests/field/run.sh [-j N] [--mode whole|rdc|both] [--only REGEX] [--skip REGEX] [--fresh] [--quick]
#                           [--packages REGEX] [--strict]
#   --packages  fetch and build only the packages whose name matches (and the
#               header packages they include)
#   --strict    a package that cannot be fetched is an error (exit 2), not skipped
#   CUFRONT=path/to/cufront   use this binary (default: cargo build --release)
#   CUFRONT_FIELD_CACHE=dir   cache (default ~/.cache/cufront/field)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${CUFRONT_FIELD_CACHE:-$HOME/.cache/cufront/field}
jobs=2 modes="whole rdc" only="" skip="" fresh=0 quick=0 packages_re="" strict=0

# The packages, one per line, fields separated by `;`:
#   source    crate (cargo fetch), wheel or sdist (pip download, no dependencies),
#             deb (apt-get download: Debian's archive)
#   name, version
#   dir       the folder of its CUDA sources, in the package
#   files     an extended regex over the paths under dir of the .cu files to
#             build (empty: all of them)
#   includes  include folders besides dir: paths in the package, or
#             `@other-package-version/path` for a header package below
#   flags     the nvcc flags its build passes (-O3 and -fPIC left out: they
#             change neither the front end's input nor the symbols)
#   arch      the GPU architecture (default 90; 90a for sm_90a-only code)
# The source trees are cached as $cache/src/NAME-VERSION.
half='-U__CUDA_NO_HALF_OPERATORS__ -U__CUDA_NO_HALF_CONVERSIONS__ -U__CUDA_NO_HALF2_OPERATORS__ -U__CUDA_NO_BFLOAT16_CONVERSIONS__'
cutlass_src=cutlass_library/source
ggml=vendor/llama.cpp/ggml
# ggml/cmake/common.cmake: which FlashAttention K-V type pairs are compiled
# (GGML_CUDA_FA_QUANTS, default q4_0-q4_0;q8_0-q8_0;f16-f16;bf16-bf16), one
# GGML_CUDA_FA_<K>_<V>=0/1 per pair, for every file of the backend.
ggml_fa='-DGGML_CUDA_FA_QUANTS="q4_0-q4_0,q8_0-q8_0,f16-f16,bf16-bf16"'
for v in q4_0 q4_1 q5_0 q5_1 q8_0 bf16 f16; do
  for k in q4_0 q4_1 q5_0 q5_1 q8_0 bf16 f16; do
    case $k-$v in q4_0-q4_0 | q8_0-q8_0 | f16-f16 | bf16-bf16) c=1 ;; *) c=0 ;; esac
    ggml_fa+=" -DGGML_CUDA_FA_${k^^}_${v^^}=$c"
  done
done
packages=(
  "crate;candle-kernels;0.11.1;src;;;--expt-relaxed-constexpr;"
  "crate;candle-layer-norm;0.0.1;kernels;;;--expt-relaxed-constexpr $half --expt-extended-lambda;"
  "crate;candle-rotary;0.0.1;kernels;;;--expt-relaxed-constexpr $half --expt-extended-lambda;"
  "crate;mistralrs-quant;0.8.1;kernels;;;$half --expt-relaxed-constexpr --expt-extended-lambda --use_fast_math;"
  # CUTLASS/CuTe: the wheel carries the headers and the examples. Flags of
  # CUTLASS's CMake (CUTLASS_CUDA_NVCC_FLAGS); the Hopper code needs sm_90a;
  # the examples' reference code includes curand_kernel.h (nvidia-curand).
  "wheel;nvidia-cutlass;4.2.0.0;$cutlass_src/examples;^(cute/tutorial/(sgemm_1|sgemm_2|sgemm_sm70|sgemm_sm80|tiled_copy|tiled_copy_if|hopper/wgmma_sm90|hopper/wgmma_tma_sm90)|00_basic_gemm/basic_gemm|05_batched_gemm/batched_gemm|14_ampere_tf32_tensorop_gemm/ampere_tf32_tensorop_gemm|48_hopper_warp_specialized_gemm/48_hopper_warp_specialized_gemm|49_hopper_gemm_with_collective_builder/49_collective_builder)\\.cu$;$cutlass_src/include $cutlass_src/tools/util/include $cutlass_src/examples/common @nvidia-curand-10.4.5.25/nvidia/cu13/include;--expt-relaxed-constexpr -DCUTLASS_ENABLE_TENSOR_CORE_MMA=1 -DCUTLASS_DEBUG_TRACE_LEVEL=0;90a"
  # ggml's CUDA backend (llama.cpp's, vendored by llama-cpp-python), with the
  # flags of ggml/src/ggml-cuda/CMakeLists.txt, ggml/src/CMakeLists.txt and
  # ggml/cmake/common.cmake on Linux; cublas_v2.h comes from the nvidia-cublas wheel.
  "sdist;llama-cpp-python;0.3.36;$ggml/src/ggml-cuda;^(ggml-cuda|binbcast|concat|cpy|getrows|mmq|mmvq|norm|rope|softmax|argsort|fattn)\\.cu$;$ggml/include $ggml/src @nvidia-cublas-13.10.0.20/nvidia/cu13/include;-use_fast_math -extended-lambda -DGGML_SCHED_MAX_COPIES=4 -D_GNU_SOURCE -D_XOPEN_SOURCE=600 -DGGML_BUILD -DGGML_SHARED -DGGML_CUDA_USE_GRAPHS $ggml_fa -Xcompiler=-Wno-pedantic;"
  # thrust's examples: no PyPI package carries them (cuda-cccl and
  # nvidia-cuda-cccl are wheels with the headers only, no sdist); Debian's
  # libthrust-dev (thrust 1.17.2) ships them as documentation. Built against
  # the toolkit's own CCCL (nvcc's default include path: the package's
  # thrust 1.17 headers are not put on it); thrust's example CMake adds no
  # flags that reach the front end. cpp_integration/device.cu is built as
  # its CMake does, alone; cmake/add_subdir/dummy.cu is CMake's test of the
  # package, not an example.
  "deb;libthrust-dev;1.17.2-2;usr/share/doc/libthrust-dev/examples;^([a-z_0-9]+|cuda/[a-z_]+|cpp_integration/device)\\.cu$;;;"
)
# Header-only packages the ones above include (same fields, nothing built).
header_packages=(
  "wheel;nvidia-cublas;13.10.0.20;nvidia/cu13/include;;;;"
  "wheel;nvidia-curand;10.4.5.25;nvidia/cu13/include;;;;"
)

# --- one build and its comparison (run by the parallel workers) -------------
if [[ ${1:-} == --one ]]; then
  shift
  pkg=$1 src=$2 file=$3 mode=$4 flags=$5 real_nvcc=$6 our_nvcc=$7 arch=$8 cufront=$9
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
  # The host translation unit nvcc handed the real cudafe++: does cufront
  # parse it without a syntax error? (`-` when the real build failed.)
  parse=-
  ii=$(ls "$work"/real/*.cpp4.ii 2>/dev/null | head -1)
  if [[ $(cat "$work/real/status") == ok && -n $ii ]]; then
    std_flag=()
    [[ " $flags " == *" -std=c++20 "* ]] && std_flag=(--cxx20)
    errors=$("$cufront" parse "${std_flag[@]}" "$ii" 2>&1 | sed -n 's/^\([0-9]*\) syntax errors$/\1/p')
    [[ $errors == 0 ]] && parse=yes || parse="no(${errors:-crash})"
  fi
  r=$(cat "$work/real/status") o=$(cat "$work/ours/status") syms=- id=-
  if [[ $r == ok && $o == ok ]]; then
    rid=$(tr -d '\n' <"$work/real/id") oid=$(tr -d '\n' <"$work/ours/id")
    # cudafe++'s time/process fallback id (…_<crc>_<pid>) cannot repeat:
    # both must use it, and symbols embedding it are compared masked.
    fallback='_[0-9a-f]{8}_[0-9]+$'
    if [[ $rid =~ $fallback ]]; then
      [[ $oid =~ $fallback ]] && id=fallback || id=no
      # The id is in anonymous namespaces' names too, after their length
      # (`_ZN…51_GLOBAL__N__<id>…`), which the pid's digits change.
      mask() { sed -E "s/[0-9]+_GLOBAL__N_$1/<len>_GLOBAL__N_<id>/g; s/$1/<id>/g" "$2"; }
      # Sorted again after masking: the pid's digits move a symbol in the
      # sorted list.
      cmp -s <(mask "$rid" "$work/real/syms" | sort) <(mask "$oid" "$work/ours/syms" | sort) \
        && syms=yes || syms=no
    else
      [[ $rid == "$oid" ]] && id=yes || id=no
      cmp -s "$work/real/syms" "$work/ours/syms" && syms=yes || syms=no
    fi
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$pkg" "$rel" "$mode" "$r" "$parse" "$o" "$syms" "$id"
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
    --quick) quick=1; shift ;;
    --packages) packages_re=$2; shift 2 ;;
    --strict) strict=1; shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
((fresh)) && rm -rf "$cache/work"
mkdir -p "$cache/src"

# --- the sources, by package name --------------------------------------------
# cargo fetches a crate (with its dependency graph) into its registry cache;
# pip downloads a wheel or an sdist (no dependencies). The package's tree is
# then copied into our cache so later runs need no network.
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

# A wheel's files (only those under `keep`, a path prefix in the wheel, when
# given: the cublas wheel is mostly its library), or an sdist's tree.
fetch_pip() {
  local kind=$1 name=$2 version=$3 keep=${4:-} dest=$cache/src/$2-$3
  [[ -d $dest ]] && return 0
  local tmp
  tmp=$(mktemp -d)
  echo "fetching $name $version ($kind)" >&2
  local how=(--only-binary :all:)
  [[ $kind == sdist ]] && how=(--no-binary "$name")
  if ! pip download -q --no-deps "${how[@]}" "$name==$version" -d "$tmp" >&2; then
    echo "  could not fetch $name $version: skipped" >&2
    rm -rf "$tmp"; return 1
  fi
  mkdir -p "$tmp/tree"
  if [[ $kind == wheel ]]; then
    python3 - "$tmp"/*.whl "$tmp/tree" "$keep" <<'PY' || { rm -rf "$tmp"; return 1; }
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
z.extractall(sys.argv[2], [n for n in z.namelist() if n.startswith(sys.argv[3])])
PY
    mv "$tmp/tree" "$dest"
  else
    tar xzf "$tmp"/*.tar.gz -C "$tmp/tree" || { rm -rf "$tmp"; return 1; }
    mv "$tmp"/tree/* "$dest"
  fi
  rm -rf "$tmp"
}

# A Debian package's files (`apt-get download`: the archive apt is set up
# with; the version must be one it offers).
fetch_deb() {
  local name=$1 version=$2 dest=$cache/src/$1-$2
  [[ -d $dest ]] && return 0
  local tmp
  tmp=$(mktemp -d)
  echo "fetching $name $version (deb)" >&2
  chmod 755 "$tmp"
  if ! (cd "$tmp" && apt-get download -q "$name=$version") >&2; then
    echo "  could not fetch $name $version: skipped (apt-get update first?)" >&2
    rm -rf "$tmp"; return 1
  fi
  mkdir -p "$tmp/tree"
  dpkg-deb -x "$tmp"/*.deb "$tmp/tree" || { rm -rf "$tmp"; return 1; }
  mv "$tmp/tree" "$dest"
  rm -rf "$tmp"
}

fetch() {
  local kind=$1 name=$2 version=$3 keep=${4:-} r=0
  case $kind in
    crate) fetch_crate "$name" "$version" || r=1 ;;
    deb) fetch_deb "$name" "$version" || r=1 ;;
    wheel | sdist) fetch_pip "$kind" "$name" "$version" "$keep" || r=1 ;;
    *) echo "unknown source kind $kind" >&2; r=1 ;;
  esac
  if ((r && strict)); then
    echo "could not fetch $name $version (--strict)" >&2
    exit 2
  fi
  return $r
}

# The packages picked by --packages.
selected=()
for p in "${packages[@]}"; do
  IFS=';' read -r _ name _ <<<"$p"
  [[ -n $packages_re && ! $name =~ $packages_re ]] && continue
  selected+=("$p")
done

# --- the two toolkits ---------------------------------------------------------
if [[ -z ${CUFRONT:-} ]]; then
  (cd "$repo" && cargo build -q --release -p cufront) || exit 2
  CUFRONT=${CARGO_TARGET_DIR:-$repo/target}/release/cufront
fi
real_root=$("$CUFRONT" toolkit path) || exit 2
# One overlay per run (it names this run's binary): runs of other files
# can go on side by side (the CI subset while a full run works on others).
mkdir -p "$cache/overlays"
overlay=$(mktemp -d "$cache/overlays/run.XXXXXX")
trap 'rm -rf "$overlay"' EXIT
rmdir "$overlay"
"$CUFRONT" toolkit overlay "$overlay" --cuda-path "$real_root" >/dev/null || exit 2

# Header packages: those a selected package includes.
for p in "${header_packages[@]}"; do
  IFS=';' read -r kind name version sub _ <<<"$p"
  [[ " ${selected[*]} " == *"@$name-$version/"* ]] || continue
  fetch "$kind" "$name" "$version" "$sub"
done

list=$(mktemp)
for p in "${selected[@]}"; do
  IFS=';' read -r kind name version sub files includes flags gpu <<<"$p"
  fetch "$kind" "$name" "$version" || continue
  root=$cache/src/$name-$version
  src=$root/$sub
  for inc in $includes; do
    case $inc in
      @*) flags+=" -I$cache/src/${inc#@}" ;;
      *) flags+=" -I$root/$inc" ;;
    esac
  done
  gpu=${gpu:-90}
  if ((quick)); then arch="-gencode=arch=compute_$gpu,code=compute_$gpu"; else arch="-arch=sm_$gpu"; fi
  # Small files first: the first rows come early.
  find "$src" -name '*.cu' -printf '%s %p\n' | sort -n | cut -d' ' -f2- | while read -r f; do
    [[ -n $files && ! ${f#"$src"/} =~ $files ]] && continue
    [[ -n $only && ! $f =~ $only ]] && continue
    [[ -n $skip && $f =~ $skip ]] && continue
    for m in $modes; do
      printf '%s\0%s\0%s\0%s\0%s\0%s\0%s\0%s\0%s\0' "$name" "$src" "$f" "$m" "$flags" \
        "$real_root/bin/nvcc" "$overlay/bin/nvcc" "$arch" "$CUFRONT"
    done
  done
done >"$list"

# Rows also go to last.tsv as they come (to follow a long run).
results=$(xargs -0 -n 9 -P "$jobs" bash "$0" --one <"$list" | tee "$cache/last.tsv" | sort)
rm -f "$list"

{
  printf 'package\tfile\tmode\treal\tparse\tours\tsymbols=\tid=\n'
  printf '%s\n' "$results"
} | column -t -s $'\t'

echo
# Per package and mode: files, real builds that succeed, of those how many
# cufront parses without a syntax error and how many build the same.
for m in $modes; do
  awk -F'\t' -v m="$m" '$3 == m {
      p = $1; pkgs[p] = 1; n[p]++; if ($4 == "ok") real[p]++
      if ($5 == "yes") parsed[p]++
      if ($4 == "ok" && $6 == "ok" && $7 == "yes" && $8 != "no") pass[p]++
      if ($4 == "ok" && $6 != "ok") ours_fail[p]++
      if ($7 == "no" || $8 == "no") differ[p]++
    } END {
      for (p in pkgs)
        printf "%s %s: %d files, real ok %d, parse clean %d/%d, same (ok, symbols, id) %d/%d, ours failed %d, differ %d\n",
          m, p, n[p], real[p], parsed[p], real[p], pass[p], real[p], ours_fail[p], differ[p]
    }' <<<"$results" | sort
done
echo "logs: $cache/work/<package>/<file>/<mode>/{real,ours}/log"
