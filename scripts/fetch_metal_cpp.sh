#!/usr/bin/env bash
# Fetches Apple's metal-cpp headers (Apache-2.0), which the Metal host
# (src/backend/metal/*.cpp) is written against, into a cache outside the
# tracked files. They come from a pinned package of the Python registry that
# bundles them (pymetal-cpp, source distribution, thirdparty/metal-cpp), so
# no third-party code is copied into this repository.
#
#   scripts/fetch_metal_cpp.sh [DIR]
#
# DIR defaults to $GPULAYER_METAL_CPP_DIR, else build/_deps/metal-cpp. On
# success DIR holds Foundation/, Metal/ and LICENSE.txt, and the script
# prints DIR. Safe to run again: an existing copy is kept.
set -euo pipefail

PKG=pymetal-cpp
VERSION=0.1.5
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="${1:-${GPULAYER_METAL_CPP_DIR:-$root/build/_deps/metal-cpp}}"

if [ -f "$dest/Metal/Metal.hpp" ] && [ -f "$dest/Foundation/Foundation.hpp" ]; then
  echo "$dest"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# --no-binary: the source distribution is the one that carries the headers.
python3 -m pip download -q --no-deps --no-binary :all: "$PKG==$VERSION" -d "$work" >&2
archive="$(ls "$work"/*.tar.gz 2>/dev/null | head -n 1)"
if [ -z "$archive" ]; then
  echo "fetch_metal_cpp: pip did not produce a source archive of $PKG $VERSION" >&2
  exit 1
fi
tar -xzf "$archive" -C "$work"
src="$(ls -d "$work"/*/thirdparty/metal-cpp 2>/dev/null | head -n 1)"
if [ -z "$src" ] || [ ! -f "$src/Metal/Metal.hpp" ]; then
  echo "fetch_metal_cpp: $PKG $VERSION has no thirdparty/metal-cpp/Metal/Metal.hpp" >&2
  exit 1
fi
mkdir -p "$(dirname "$dest")"
rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
cp -R "$src"/. "$dest.tmp"/
echo "$PKG $VERSION" > "$dest.tmp/SOURCE"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
echo "$dest"
