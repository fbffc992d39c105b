#!/bin/bash
# An installed mica-prof builds its variant for another MPI without the source checkout: a copy
# of the installation in another place (nothing of the checkout named in what builds the tool)
# builds the library from PREFIX/share/mica, into its own lib/mica-prof, and profiles a program.
. "$(dirname "$0")/lib.sh"
cd "$MICA_TMP" || exit 1
f=$(flavors | grep -v "^mica$" | sort -r | head -1)     # openmpi first: fewer functions to build
mkdir prefix
(cd "$MICA_PREFIX" && tar cf - --exclude=./lib/mica-prof .) | (cd prefix && tar xf -) || fail "copying $MICA_PREFIX"
p=$MICA_TMP/prefix
[ -x "$p/share/mica/prof/build.sh" ] && [ -f "$p/share/mica/prof/gen_wrappers.py" ] ||
    fail "no generator in $MICA_PREFIX/share/mica/prof"
if grep -rl -F "$MICA_ROOT" "$p/bin/mica-prof" "$p/share/mica"; then
    fail "the installed mica-prof names the source checkout"
fi
if [ -z "$f" ]; then
    # no other MPI: Mica's own variant, built into a directory of the copy
    f=mica
    export MICA_PROF_LIBDIR=$p/lib/mica-prof
fi
lib=$(cd / && "$p/bin/mica-prof" --build "$f" 2>"$MICA_TMP/build.log") || { cat build.log >&2; fail "$f: build"; }
[ "$lib" = "$p/lib/mica-prof/$f/libmicaprof.so" ] || fail "$f: built $lib, expected it in the copy"
run_logged "cc-$f" $(cc_of "$f") -O1 -g -o "app-$f" "$HERE/app.c"
run_logged "run-$f" "$p/bin/mica-prof" --dir "out-$f" $(run_of "$f" 2) "./app-$f"
check simple "$(report "out-$f")" 2 || fail "$f: profile with the copied installation"
echo "$f: built and used from a copy of the installation"
