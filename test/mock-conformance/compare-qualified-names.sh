#!/usr/bin/env bash
# Compares what every name in the conformance programs resolves to under the
# mock LibTorch headers (test/Inputs/libtorch-mock) and under the real
# LibTorch headers.
#
# For each conformance program whose RUN line compiles it against both header
# sets, c-index-test (clang-tools-16) indexes the program twice and lists every
# reference made from the program's own source: calls (including implicit
# constructor calls such as the TensorOptions built from a Device, and calls
# hidden in macros such as TORCH_CHECK), types, variables and namespaces. Each
# reference is identified by its source position and the referenced entity's
# USR, which encodes the fully qualified name and, for functions, the
# parameter types (e.g. c:@N@at@S@Tensor@F@to#$@N@c10@S@TensorOptions#b#b#...).
# Any difference between the two lists is a mismatch.
#
# USRs do not contain default arguments, so clang-query (clang-tools-16) also
# lists, for every call and constructor call in the program, each argument
# that is left to its default together with the parameter's declaration
# (e.g. "bool non_blocking = false"; namespace qualifiers are ignored). Any
# difference is a mismatch too.
#
# It also checks that the mock compile never falls through to a real LibTorch
# header, and that code real LibTorch rejects (Inputs/rejected.cpp, one
# "// REJECTED" marker per line that must not compile) is rejected on exactly
# the same lines by both header sets.
#
# Usage: compare-qualified-names.sh   (no arguments)
# Environment (optional):
#   LIBTORCH_REAL_INCLUDE  real LibTorch C++ API include dir
#                          (default: /usr/include/torch/csrc/api/include)
#   C_INDEX_TEST           c-index-test binary (default: c-index-test-16)
#   CLANG_QUERY            clang-query binary (default: clang-query-16)
#   CLANGXX                clang++ binary (default: clang++-16)
#   REAL_PCH_FLAGS         flags that make the real side read <torch/torch.h>
#                          from a clang PCH ("<its flags> -include-pch <pch>"),
#                          for the programs that include it before anything
#                          else (then the PCH changes nothing but the time)
#   VERBOSE=1              also list the matching references
# Prints "N call sites compared, M mismatches" and exits non-zero on any
# mismatch.

set -u -o pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mock_dir="$(cd "$here/../Inputs/libtorch-mock" && pwd)"
real_dir="${LIBTORCH_REAL_INCLUDE:-/usr/include/torch/csrc/api/include}"
cindex="${C_INDEX_TEST:-c-index-test-16}"
cquery="${CLANG_QUERY:-clang-query-16}"
clangxx="${CLANGXX:-clang++-16}"
std_flag="-std=c++17"

for tool in "$cindex" "$cquery" "$clangxx"; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "error: '$tool' not found (install clang-tools-16 / clang-16)" >&2
    exit 2
  fi
done
if [ ! -f "$real_dir/torch/torch.h" ]; then
  echo "error: real LibTorch headers not found in '$real_dir' (install libtorch-dev or set LIBTORCH_REAL_INCLUDE)" >&2
  exit 2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Emits one line per reference made from the main file:
#   line:col <TAB> kind <TAB> name <TAB> USR <TAB> role
# USRs of internal-linkage functions start with the declaring file's name
# (e.g. "c:TensorOperators.h@..."); that file name is replaced by "<file>" so
# that `static inline` operators still compare equal, while a missing `static`
# still shows up as a mismatch.
extract_refs() {
  local src="$1" incdir="$2" out="$3" extra="${4:-}"
  # shellcheck disable=SC2086 # $extra is a list of flags
  "$cindex" -index-file "$src" $std_flag -isystem "$incdir" $extra 2>/dev/null |
    grep '^\[indexEntityReference\]' |
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
  local src="$1" incdir="$2" out="$3" extra="${4:-}"
  # shellcheck disable=SC2086 # $extra is a list of flags
  "$cquery" -f "$work/defaults.query" "$src" -- $std_flag -isystem "$incdir" $extra 2>/dev/null |
    awk -v main="$src" '
      function flush(  i) { for (i = 1; i <= n; i++) print loc "\t" p[i]; n = 0; loc = "" }
      /^Match #/ { flush(); want = 0; next }
      index($0, main ":") == 1 && /: note: "root" binds here$/ {
        s = substr($0, length(main) + 2); sub(/: note:.*/, "", s); loc = s; next
      }
      /^Binding for "p":$/ { want = 1; next }
      want == 1 { want = 0; p[++n] = $0 }
      END { flush() }' |
    sed -E 's/([A-Za-z_][A-Za-z0-9_]*::)+//g; s/ +/ /g; s/\t /\t/; s/ $//' |
    LC_ALL=C sort >"$out"
}

# $REAL_PCH_FLAGS for a program whose first line of code includes
# <torch/torch.h>, else nothing.
pch_flags_for() {
  [ -n "${REAL_PCH_FLAGS:-}" ] || return 0
  first="$(sed -e 's://.*$::' "$1" | grep -v '^[[:space:]]*$' | head -n 1)"
  case "$first" in
  '#include <torch/torch.h>'*) printf '%s' "$REAL_PCH_FLAGS" ;;
  esac
}

total_calls=0
total_defaults=0
total_mismatches=0
total_refs=0
files=0
status=0

for src in "$here"/*.cpp; do
  first_line="$(head -n 1 "$src")"
  case "$first_line" in
  *%clangxx_syntax_mock*%clangxx_syntax_real*) ;;
  *) continue ;; # mock-only programs (e.g. version-2x.cpp)
  esac
  name="$(basename "$src")"
  files=$((files + 1))

  # 1. The mock compile must not include any real LibTorch header.
  leaks="$("$clangxx" $std_flag -fsyntax-only -H -isystem "$mock_dir" "$src" 2>&1 |
    grep -E '^\.+ ' | sed -E 's/^\.+ //' |
    grep -E '/(torch|ATen|c10|caffe2)/' | grep -vF "$mock_dir/" | sort -u)"
  if [ -n "$leaks" ]; then
    echo "$name: the mock compile includes real LibTorch headers:" >&2
    echo "$leaks" | sed 's/^/  /' >&2
    status=1
  fi

  # 2. Compare the references.
  real_extra="$(pch_flags_for "$src")"
  extract_refs "$src" "$mock_dir" "$work/$name.mock"
  extract_refs "$src" "$real_dir" "$work/$name.real" "$real_extra"
  if [ ! -s "$work/$name.real" ]; then
    echo "$name: no references found with the real headers (does it compile?)" >&2
    status=1
    continue
  fi

  calls="$(grep -c $'\t[^\t]*call[^\t]*$' "$work/$name.real" || true)"
  refs="$(wc -l <"$work/$name.real")"

  extract_defaults "$src" "$mock_dir" "$work/$name.mock.defaults"
  extract_defaults "$src" "$real_dir" "$work/$name.real.defaults" "$real_extra"
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
  # shellcheck disable=SC2086 # $2 is a list of flags
  "$clangxx" $std_flag -fsyntax-only -ferror-limit=0 -isystem "$1" ${2:-} "$rejected_src" 2>&1 |
    grep -E '^[^ ]*rejected\.cpp:[0-9]+:[0-9]+: (error|note)' |
    cut -d: -f2 | sort -n -u
}
if [ -f "$rejected_src" ]; then
  expected="$(grep -n '// REJECTED' "$rejected_src" | cut -d: -f1 | sort -n -u)"
  got_mock="$(rejected_lines "$mock_dir")"
  got_real="$(rejected_lines "$real_dir" "$(pch_flags_for "$rejected_src")")"
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
