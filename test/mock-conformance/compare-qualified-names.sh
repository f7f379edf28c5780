#!/usr/bin/env bash
# Compares what every name in the conformance programs resolves to under the
# mock LibTorch headers (test/Inputs/libtorch-mock) and under the real
# LibTorch headers.
#
# The comparison is made for one version of real LibTorch (by default
# Debian's 1.13 against the mock's default mode; with the environment below,
# e.g. LibTorch 2.15 against the mock's 2.x mode). That version's
# "MAJOR.MINOR", read from the real <torch/version.h>, names the header set:
# each conformance program has a line
#   // CONFORMANCE: 1.13 2.15
# listing the header sets it is compared under (it uses API that the other
# versions lack). The script lists the programs it does not compare, and
# fails on a program without that line. The mock must also say the same
# TORCH_VERSION as the real headers.
#
# For each conformance program of the header set, c-index-test
# (clang-tools) indexes the program twice and lists every
# reference made from the program's own source: calls (including implicit
# constructor calls such as the TensorOptions built from a Device, and calls
# hidden in macros such as TORCH_CHECK), types, variables and namespaces. Each
# reference is identified by its source position and the referenced entity's
# USR, which encodes the fully qualified name and, for functions, the
# parameter types (e.g. c:@N@at@S@Tensor@F@to#$@N@c10@S@TensorOptions#b#b#...).
# Any difference between the two lists is a mismatch. A compile error on
# either side fails the run.
#
# USRs do not contain default arguments, so clang-query (clang-tools) also
# lists, for every call and constructor call in the program, each argument
# that is left to its default together with the parameter's declaration
# (e.g. "bool non_blocking = false"; namespace qualifiers, "::std::" as
# much as "c10::", are ignored). Any
# difference is a mismatch too.
#
# It also checks that the mock compile never falls through to a real LibTorch
# header, and that code real LibTorch rejects (Inputs/rejected.cpp, one
# "// REJECTED" marker per line that must not compile; "// REJECTED [1.13]"
# for a line that only the listed header sets reject) is rejected on exactly
# the same lines by both header sets.
#
# Usage: compare-qualified-names.sh   (no arguments)
# Environment (optional):
#   LIBTORCH_REAL_INCLUDE  real LibTorch C++ API include dir
#                          (default: /usr/include/torch/csrc/api/include)
#   LIBTORCH_REAL_FLAGS    the real headers' flags instead of
#                          "-isystem $LIBTORCH_REAL_INCLUDE", for a LibTorch
#                          that needs more than one include directory (2.x:
#                          "-isystem <root>/include -isystem
#                          <root>/include/torch/csrc/api/include -isystem
#                          <cuda>/include -D_GLIBCXX_USE_CXX11_ABI=1")
#   MOCK_FLAGS             extra flags of the mock side (for the 2.x mode:
#                          -DLIBTORCH_MOCK_VERSION_MAJOR=2)
#   STD_FLAG               the language standard of both sides
#                          (default: -std=c++17; LibTorch 2.x: -std=c++20)
#   C_INDEX_TEST           c-index-test binary (default: $LLVM_BIN/c-index-test)
#   CLANG_QUERY            clang-query binary (default: $LLVM_BIN/clang-query)
#   CLANGXX                clang++ binary (default: $LLVM_BIN/clang++)
#   REAL_PCH_FLAGS         flags that make the real side read <torch/torch.h>
#                          from a clang PCH ("<its flags> -include-pch <pch>"),
#                          for the programs that include it before anything
#                          else (then the PCH changes nothing but the time)
#   REAL_PCH_BUILD=1       instead, precompile the real <torch/torch.h> once
#                          in the temporary directory and read it so (for
#                          C++20, where c-index-test cannot read a PCH built
#                          for the other tools)
#   VERBOSE=1              also list the matching references
# Prints "N call sites compared, M mismatches" and exits non-zero on any
# mismatch.

set -u -o pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mock_dir="$(cd "$here/../Inputs/libtorch-mock" && pwd)"
real_dir="${LIBTORCH_REAL_INCLUDE:-/usr/include/torch/csrc/api/include}"
# The flags of each side (arrays, so that the default directories may
# contain spaces; LIBTORCH_REAL_FLAGS and MOCK_FLAGS are split on whitespace).
if [ -n "${LIBTORCH_REAL_FLAGS:-}" ]; then
  read -r -a real_args <<<"$LIBTORCH_REAL_FLAGS"
else
  real_args=(-isystem "$real_dir")
fi
read -r -a mock_extra <<<"${MOCK_FLAGS:-}"
mock_args=(-isystem "$mock_dir" ${mock_extra[@]+"${mock_extra[@]}"})
# The tools of the build's LLVM major (LLVM_BIN, test/lit.cfg.py's
# %llvm_bin): the real side may read a PCH that only that clang can read.
llvm_bin="${LLVM_BIN:?set LLVM_BIN to the bin directory of the LLVM of the build, as the .test files do with %llvm_bin}"
cindex="${C_INDEX_TEST:-$llvm_bin/c-index-test}"
cquery="${CLANG_QUERY:-$llvm_bin/clang-query}"
clangxx="${CLANGXX:-$llvm_bin/clang++}"
std_flag="${STD_FLAG:--std=c++17}"

for tool in "$cindex" "$cquery" "$clangxx"; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "error: '$tool' not found (install clang-tools-N / clang-N of the build's major)" >&2
    exit 2
  fi
done
if [ -n "${LIBTORCH_REAL_FLAGS:-}" ]; then
  found=""
  set -- "${real_args[@]}"
  while [ $# -gt 0 ]; do
    case "$1" in
    -isystem | -I) dir="${2:-}"; shift ;;
    -isystem* | -I*) dir="${1#-isystem}"; dir="${dir#-I}" ;;
    *) dir="" ;;
    esac
    if [ -n "$dir" ] && [ -f "$dir/torch/torch.h" ]; then found="$dir"; fi
    shift
  done
  if [ -z "$found" ]; then
    echo "error: no include directory with torch/torch.h in LIBTORCH_REAL_FLAGS '$LIBTORCH_REAL_FLAGS'" >&2
    exit 2
  fi
elif [ ! -f "$real_dir/torch/torch.h" ]; then
  echo "error: real LibTorch headers not found in '$real_dir' (install libtorch-dev or set LIBTORCH_REAL_INCLUDE)" >&2
  exit 2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# TORCH_VERSION of the headers of side $1 (mock or real).
torch_version() {
  local -n args="$1_args"
  printf '#include <torch/version.h>\nTORCH_VERSION_MAJOR TORCH_VERSION_MINOR TORCH_VERSION_PATCH\n' |
    "$clangxx" "$std_flag" "${args[@]}" -E -P -x c++ - 2>/dev/null | grep -v '^[[:space:]]*$' | tail -n 1 |
    awk 'NF == 3 && $1 ~ /^[0-9]+$/ { print $1 "." $2 "." $3 }'
}
real_version="$(torch_version real)"
mock_version="$(torch_version mock)"
if [ -z "$real_version" ]; then
  echo "error: cannot read TORCH_VERSION from the real headers' <torch/version.h>" >&2
  exit 2
fi
# The header set: the real LibTorch's MAJOR.MINOR.
header_set="${real_version%.*}"
version_mismatches=0
if [ "$mock_version" != "$real_version" ]; then
  echo "  mock: torch/version.h says ${mock_version:-nothing}, real says $real_version"
  version_mismatches=1
fi

# Whether the program $1 is compared under $header_set: its
# "// CONFORMANCE:" line lists it (status 0), does not (1), or is missing (2).
in_header_set() {
  local sets
  sets="$(grep -m 1 -E '^// CONFORMANCE:' "$1")" || return 2
  case " ${sets#// CONFORMANCE:} " in
  *" $header_set "*) return 0 ;;
  *) return 1 ;;
  esac
}

# Emits one line per reference made from the main file:
#   line:col <TAB> kind <TAB> name <TAB> USR <TAB> role
# USRs of internal-linkage functions start with the declaring file's name
# (e.g. "c:TensorOperators.h@..."); that file name is replaced by "<file>" so
# that `static inline` operators still compare equal, while a missing `static`
# still shows up as a mismatch.
extract_refs() {
  local src="$1" out="$3" extra="${4:-}"
  local -n args="$2_args"
  # shellcheck disable=SC2086 # $extra is a list of flags
  "$cindex" -index-file "$src" $std_flag "${args[@]}" $extra 2>/dev/null >"$out.index"
  grep '^\[diagnostic\]: .*: \(fatal \)\?error: ' "$out.index" | sed 's/^\[diagnostic\]: //' >"$out.errors"
  grep '^\[indexEntityReference\]' "$out.index" |
    awk -F ' [|] ' '
      {
        kind = name = usr = loc = role = ""
        for (i = 1; i <= NF; i++) {
          f = $i
          if (f ~ /^\[indexEntityReference\]: kind: /) { sub(/^[^:]*: kind: /, "", f); kind = f }
          else if (f ~ /^name: / && name == "") { sub(/^name: /, "", f); name = f }
          else if (f ~ /^USR: / && usr == "") { sub(/^USR: /, "", f); usr = f }
          else if (f ~ /^loc: /) { sub(/^loc: /, "", f); loc = f }
          else if (f ~ /^role: /) { sub(/^role: /, "", f); role = f }
        }
        # Only references written in the program itself (no file name).
        if (loc !~ /^[0-9]+:[0-9]+$/) next
        printf "%s\t%s\t%s\t%s\t%s\n", loc, kind, name, usr, role
      }' |
    sed -E 's/\tc:[A-Za-z0-9_.+-]+\.(h|hpp|cuh)@/\tc:<file>@/' |
    LC_ALL=C sort >"$out"
}

cat >"$work/defaults.query" <<'EOF'
set output diag
enable output print
match invocation(isExpansionInMainFile(), forEachArgumentWithParam(cxxDefaultArgExpr(), parmVarDecl().bind("p")))
EOF

# Emits one line per defaulted argument of a call made from the main file:
#   line:col <TAB> parameter declaration (qualifiers dropped, e.g.
#   "bool non_blocking = false")
extract_defaults() {
  local src="$1" out="$3" extra="${4:-}"
  local -n args="$2_args"
  # shellcheck disable=SC2086 # $extra is a list of flags
  "$cquery" -f "$work/defaults.query" "$src" -- $std_flag "${args[@]}" $extra 2>/dev/null |
    awk -v main="$src" '
      function flush(  i) { for (i = 1; i <= n; i++) print loc "\t" p[i]; n = 0; loc = "" }
      /^Match #/ { flush(); want = 0; next }
      index($0, main ":") == 1 && /: note: "root" binds here$/ {
        s = substr($0, length(main) + 2); sub(/: note:.*/, "", s); loc = s; next
      }
      /^Binding for "p":$/ { want = 1; next }
      want == 1 { want = 0; p[++n] = $0 }
      END { flush() }' |
    sed -E 's/(::)?([A-Za-z_][A-Za-z0-9_]*::)+//g; s/ +/ /g; s/\t /\t/; s/ $//' |
    LC_ALL=C sort >"$out"
}

# REAL_PCH_BUILD=1: the real side's <torch/torch.h>, precompiled once here.
# c-index-test always keeps a detailed preprocessing record, and in C++20
# clang-16 rejects a PCH that was built without one (and the other way
# round), so every tool of the real side is given one too; what a name
# resolves to does not change.
real_pch_flags="${REAL_PCH_FLAGS:-}"
if [ "${REAL_PCH_BUILD:-0}" = 1 ]; then
  printf '#include <torch/torch.h>\n' >"$work/torch-first.h"
  if ! "$clangxx" -x c++-header "$std_flag" "${real_args[@]}" \
    -Xclang -detailed-preprocessing-record -fpch-instantiate-templates \
    "$work/torch-first.h" -o "$work/torch-first.h.pch"; then
    echo "error: cannot precompile the real <torch/torch.h>" >&2
    exit 2
  fi
  real_pch_flags="-Xclang -detailed-preprocessing-record -include-pch $work/torch-first.h.pch"
fi

# $real_pch_flags for a program whose first line of code includes
# <torch/torch.h>, else nothing.
pch_flags_for() {
  [ -n "$real_pch_flags" ] || return 0
  first="$(sed -e 's://.*$::' "$1" | grep -v '^[[:space:]]*$' | head -n 1)"
  case "$first" in
  '#include <torch/torch.h>'*) printf '%s' "$real_pch_flags" ;;
  esac
}

total_calls=0
total_defaults=0
total_mismatches=0
total_refs=0
files=0
status=0

for src in "$here"/*.cpp; do
  name="$(basename "$src")"
  in_header_set "$src"
  case $? in
  0) ;;
  1)
    echo "$name: not compared with LibTorch $header_set ($(grep -m 1 -E '^// CONFORMANCE:' "$src" | sed 's:^// ::'))"
    continue
    ;;
  *)
    echo "$name: no '// CONFORMANCE: <header sets>' line" >&2
    status=1
    continue
    ;;
  esac
  files=$((files + 1))

  # 1. The mock compile must not include any real LibTorch header.
  leaks="$("$clangxx" "$std_flag" -fsyntax-only -H "${mock_args[@]}" "$src" 2>&1 |
    grep -E '^\.+ ' | sed -E 's/^\.+ //' |
    grep -E '/(torch|ATen|c10|caffe2)/' | grep -vF "$mock_dir/" | sort -u)"
  if [ -n "$leaks" ]; then
    echo "$name: the mock compile includes real LibTorch headers:" >&2
    echo "$leaks" | sed 's/^/  /' >&2
    status=1
  fi

  # 2. Compare the references.
  real_extra="$(pch_flags_for "$src")"
  extract_refs "$src" mock "$work/$name.mock"
  extract_refs "$src" real "$work/$name.real" "$real_extra"
  for side in mock real; do
    if [ -s "$work/$name.$side.errors" ]; then
      echo "$name: does not compile with the $side headers:" >&2
      sed 's/^/  /' "$work/$name.$side.errors" >&2
      status=1
    fi
  done
  if [ ! -s "$work/$name.real" ]; then
    echo "$name: no references found with the real headers (does it compile?)" >&2
    status=1
    continue
  fi

  calls="$(grep -c $'\t[^\t]*call[^\t]*$' "$work/$name.real" || true)"
  refs="$(wc -l <"$work/$name.real")"

  extract_defaults "$src" mock "$work/$name.mock.defaults"
  extract_defaults "$src" real "$work/$name.real.defaults" "$real_extra"
  cat "$work/$name.real.defaults" >>"$work/$name.real"
  cat "$work/$name.mock.defaults" >>"$work/$name.mock"
  LC_ALL=C sort -o "$work/$name.real" "$work/$name.real"
  LC_ALL=C sort -o "$work/$name.mock" "$work/$name.mock"

  defaults="$(wc -l <"$work/$name.real.defaults")"
  only_real="$(LC_ALL=C comm -23 "$work/$name.real" "$work/$name.mock")"
  only_mock="$(LC_ALL=C comm -13 "$work/$name.real" "$work/$name.mock")"
  # A reference that resolves differently appears once on each side; count
  # mismatching source positions.
  mismatches="$( { printf '%s\n' "$only_real"; printf '%s\n' "$only_mock"; } |
    grep -v '^$' | cut -f1 | sort -u | wc -l)"

  echo "$name: $calls call sites, $refs references, $defaults defaulted arguments, $mismatches mismatching positions"
  if [ "$mismatches" -gt 0 ]; then
    [ -n "$only_real" ] && printf '%s\n' "$only_real" | sed "s/^/  real: $name:/"
    [ -n "$only_mock" ] && printf '%s\n' "$only_mock" | sed "s/^/  mock: $name:/"
  fi
  if [ "${VERBOSE:-0}" = 1 ]; then
    sed "s/^/  both: $name:/" "$work/$name.real"
  fi

  total_calls=$((total_calls + calls))
  total_refs=$((total_refs + refs))
  total_defaults=$((total_defaults + defaults))
  total_mismatches=$((total_mismatches + mismatches))
done

# 3. Code that real LibTorch rejects must be rejected by the mock, on the same
#    lines.
rejected_src="$here/Inputs/rejected.cpp"
rejected_lines() {
  local -n args="$1_args"
  # shellcheck disable=SC2086 # $2 is a list of flags
  "$clangxx" $std_flag -fsyntax-only -ferror-limit=0 "${args[@]}" ${2:-} "$rejected_src" 2>&1 |
    grep -E '^[^ ]*rejected\.cpp:[0-9]+:[0-9]+: (error|note)' |
    cut -d: -f2 | sort -n -u
}
if [ -f "$rejected_src" ]; then
  # "// REJECTED" (every header set) or "// REJECTED [1.13 ...]" (those).
  expected="$(grep -n '// REJECTED' "$rejected_src" |
    awk -v set="$header_set" '
      {
        line = $0; sub(/:.*/, "", line)
        rest = $0; sub(/.*\/\/ REJECTED/, "", rest)
        if (rest !~ /^ \[/) { print line; next }
        sub(/^ \[/, "", rest); sub(/\].*/, "", rest)
        if (index(" " rest " ", " " set " ")) print line
      }' | sort -n -u)"
  got_mock="$(rejected_lines mock)"
  got_real="$(rejected_lines real "$(pch_flags_for "$rejected_src")")"
  n_expected="$(printf '%s\n' "$expected" | grep -c . || true)"
  rejected_mismatches=0
  for side in real mock; do
    if [ "$side" = real ]; then got="$got_real"; else got="$got_mock"; fi
    diff_lines="$(diff <(printf '%s\n' "$expected") <(printf '%s\n' "$got") |
      grep -E '^[<>] ' || true)"
    if [ -n "$diff_lines" ]; then
      n="$(printf '%s\n' "$diff_lines" | wc -l)"
      rejected_mismatches=$((rejected_mismatches + n))
      printf '%s\n' "$diff_lines" |
        sed -E "s/^< /  $side: rejected.cpp: compiles but must not: line /; s/^> /  $side: rejected.cpp: unexpected error on line /"
    fi
  done
  echo "rejected.cpp: $n_expected rejected lines, $rejected_mismatches mismatches"
  total_mismatches=$((total_mismatches + rejected_mismatches))
fi
total_mismatches=$((total_mismatches + version_mismatches))

if [ "$files" -eq 0 ]; then
  echo "error: no conformance programs found in $here" >&2
  exit 2
fi

echo "$total_refs references and $total_defaults defaulted arguments in $files programs compared"
echo "$total_calls call sites compared, $total_mismatches mismatches"
if [ "$total_mismatches" -ne 0 ] || [ "$status" -ne 0 ]; then
  exit 1
fi
exit 0
