#!/usr/bin/env bash
# debian_package.sh SRC_ROOT OBJ_ROOT WORK_DIR MOCK_HEADERS
#
# For test/driver/debian-package.test: builds the .deb with scripts/package
# (its own build directory under OBJ_ROOT, kept between runs), makes a clean
# Debian bookworm root with debootstrap (minbase: essential packages and apt,
# no compiler, no LLVM), installs the package there with apt, which brings
# exactly its Depends:, and runs what it ships inside that root: the CLI on
# an example (mock LibTorch headers), `verify --help`, `man libtorch-tidy`;
# then it installs the Recommends (clang-tidy) and runs the plugin and the
# wrapper. The mirror is the one apt uses here, or $LIBTORCH_TIDY_DEBIAN_MIRROR.
# $LIBTORCH_TIDY_DEB names a .deb made already (by scripts/package, or by
# cpack from a build directory) to test instead of building one.
set -euo pipefail
src=$1 obj=$2 work=$3 mock=$4
root=$work/root
# The LLVM major the package is built for (CMakeLists.txt keeps it in the cache).
major=$(sed -n 's/^LIBTORCH_TIDY_LLVM_MAJOR:STRING=//p' "$obj/CMakeCache.txt")
start=$(date +%s)
elapsed() { echo "[$(($(date +%s) - start)) s] $*"; }

rm -rf "$work" && mkdir -p "$work"
# /proc is mounted in the root while the test runs (the CLI starts its
# workers through /proc/self/exe, as on any installed system); the root is
# removed only once nothing is mounted in it.
cleanup() {
  if mountpoint -q "$root/proc"; then umount "$root/proc" || return; fi
  rm -rf "$root"
}
trap cleanup EXIT

if [[ -n "${LIBTORCH_TIDY_DEB:-}" ]]; then
  deb=$LIBTORCH_TIDY_DEB
else
  deb=$(LIBTORCH_TIDY_PACKAGE_DIR="$obj/package-build" "$src/scripts/package" | tail -n 1)
fi
elapsed "built $(basename "$deb")"
dpkg-deb --field "$deb" Depends Recommends Installed-Size

mirror=${LIBTORCH_TIDY_DEBIAN_MIRROR:-$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)}
mirror=${mirror:-http://deb.debian.org/debian}
debootstrap --variant=minbase bookworm "$root" "$mirror" > "$work/debootstrap.log" 2>&1 ||
  { tail -n 20 "$work/debootstrap.log"; exit 1; }
elapsed "debootstrap bookworm minbase"
# LLVM 22 is in bookworm-security, where a user's bookworm finds it too.
echo "deb $(dirname "$mirror")/debian-security bookworm-security main" \
  > "$root/etc/apt/sources.list.d/security.list"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 "$@"; }
for tool in "clang-tidy-$major" "clang-$major" cc; do
  if in_root sh -c "command -v $tool" >/dev/null; then
    echo "error: the clean root already has $tool"; exit 1
  fi
done

cp "$deb" "$root/tmp/"
in_root apt-get update -qq
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  "/tmp/$(basename "$deb")" > "$work/install.log" 2>&1 || { tail -n 20 "$work/install.log"; exit 1; }
elapsed "installed the package and its Depends"
echo "installed packages: $(in_root dpkg-query -W -f='${Package}\n' | wc -l)"
in_root dpkg-query -W -f='installed: ${Package} ${Installed-Size} KiB\n' libtorch-tidy
in_root sh -c "command -v clang-tidy-$major || echo clang-tidy-$major: not installed"

mkdir -p "$root/work/ws"
cp -r "$mock" "$root/work/mock"
cp -r "$src/examples/accumulation" "$root/work/ws/"
in_root libtorch-tidy --version | head -n 3
set +e
in_root sh -c 'cd /work/ws && libtorch-tidy accumulation/train_accumulation.cpp -- -std=c++17 -isystem /work/mock'
echo "cli exit code: $?"
set -e
in_root libtorch-tidy verify --help | head -n 1
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends man-db \
  > "$work/man.log" 2>&1 || { tail -n 20 "$work/man.log"; exit 1; }
in_root man -P cat libtorch-tidy | sed -n '1,/^NAME/d;/^[A-Z]/q;p' | sed 's/^ *//' | head -n 2

in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  "clang-tidy-$major" > "$work/recommends.log" 2>&1 || { tail -n 20 "$work/recommends.log"; exit 1; }
elapsed "installed the Recommends (clang-tidy-$major)"
set +e
in_root sh -c "cd /work/ws && clang-tidy-$major --load=/usr/lib/LibTorchTidy.so '--checks=-*,libtorch-*' accumulation/train_accumulation.cpp -- -std=c++17 -isystem /work/mock"
echo "plugin exit code: $?"
set -e
in_root /usr/libexec/libtorch-tidy/clang-tidy "--checks=-*,libtorch-*" --list-checks | grep -c '    libtorch-' | sed 's/^/wrapper lists checks: /'
elapsed "done"
