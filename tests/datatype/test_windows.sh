#!/bin/bash
# The packing engine's internal interface (mica_type_pack/unpack/copy, mica_op_apply), which
# MPI functions cannot reach with arbitrary byte windows: windows.c is linked statically against
# libmpi.a, where the hidden mica_ functions are still there to link with.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
: "${MICA_ROOT:=$(cd "$HERE/../.." && pwd)}"
: "${MICA_PREFIX:=$MICA_ROOT/install}"
: "${MICA_TMP:=$(mktemp -d)}"
[ -f "$MICA_PREFIX/lib/libmpi.a" ] || { echo "missing $MICA_PREFIX/lib/libmpi.a"; exit 1; }
cc -std=gnu11 -O1 -g -Wall -Werror -I"$MICA_PREFIX/include" -I"$MICA_ROOT/src" \
    -o "$MICA_TMP/windows" "$HERE/windows.c" "$MICA_PREFIX/lib/libmpi.a" -pthread || exit 1
exec "$MICA_TMP/windows"
