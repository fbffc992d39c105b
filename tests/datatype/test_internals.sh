#!/bin/bash
# The datatype engine's internals, which MPI functions cannot reach: windows.c drives the packing
# interface (mica_type_pack/unpack/copy, mica_op_apply) with arbitrary byte windows, blocks.c
# reads the block lists that flattening makes. Both are linked statically against libmpi.a,
# where the hidden mica_ functions are still there to link with.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
: "${MICA_ROOT:=$(cd "$HERE/../.." && pwd)}"
: "${MICA_PREFIX:=$MICA_ROOT/install}"
: "${MICA_TMP:=$(mktemp -d)}"
[ -f "$MICA_PREFIX/lib/libmpi.a" ] || { echo "missing $MICA_PREFIX/lib/libmpi.a"; exit 1; }
for prog in windows blocks; do
    cc -std=gnu11 -O1 -g -Wall -Werror -I"$MICA_PREFIX/include" -I"$MICA_ROOT/src" \
        -o "$MICA_TMP/$prog" "$HERE/$prog.c" "$MICA_PREFIX/lib/libmpi.a" -pthread || exit 1
    "$MICA_TMP/$prog" || exit 1
done
