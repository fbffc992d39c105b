#!/usr/bin/env bash
# docs/STATUS.md is the generator's table as committed: fail while it is stale (`make status`
# rewrites it; the build itself never writes into the tracked tree).
set -u
gen=${MICA_BUILD:-$MICA_ROOT/build/weak}/gen/STATUS.md
[ -f "$gen" ] || { echo "no generated table at build/weak/gen/STATUS.md"; exit 1; }
if ! cmp -s "$gen" "$MICA_ROOT/docs/STATUS.md"; then
    diff "$MICA_ROOT/docs/STATUS.md" "$gen" | head -20
    echo "FAIL: docs/STATUS.md is stale: run 'make status' and commit it"
    exit 1
fi
echo "ok: docs/STATUS.md matches the API table"
