#!/bin/bash
# The bootstrap client's own tests (client_*.c, plain C programs linked with
# src/runtime/pmi.c): singleton mode, and the wire protocol against a
# scripted server.
. "$(dirname "$0")/lib.sh"
for t in client_singleton client_wire; do
    build $t
    "$TMP/$t" >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/out" "$TMP/err"; fail "$t"; }
done
echo "PASS: $NAME"
