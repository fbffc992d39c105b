#!/bin/bash
# Linked before the MPI library instead of preloaded: mpicc app.c -lmicaprof (shared), the
# static libmicaprof.a, and Mica's build without weak symbols (app.o libmicaprof.a -lpmpi -lmpi).
. "$(dirname "$0")/lib.sh"
cd "$MICA_TMP" || exit 1
np=2
for f in $(flavors); do
    d=$(dirname "$(lib_of "$f")")
    cc=$(cc_of "$f")
    run_logged "shared-cc-$f" $cc -O1 -g -o "shared-$f" "$HERE/app.c" -L"$d" -lmicaprof -Wl,-rpath,"$d"
    run_logged "static-cc-$f" $cc -O1 -g -o "static-$f" "$HERE/app.c" "$d/libmicaprof.a" -pthread
    for k in shared static; do
        nm "$k-$f" >/dev/null 2>&1 || true
        run_logged "$k-run-$f" env MICA_PROF_DIR="$MICA_TMP/$k-$f.out" $(run_of "$f" $np) "./$k-$f"
        check simple "$(report "$k-$f.out")" $np || fail "$f: linked with $k libmicaprof"
    done
done
# Mica without weak symbols: the profiling library, then libpmpi.a, then libmpi.a
nw=${MICA_NOWEAK_PREFIX:-$MICA_ROOT/build/noweak/install}
if [ -f "$nw/lib/libmicaprof.a" ] && [ -f "$nw/lib/libpmpi.a" ]; then
    run_logged nw-cc cc -O1 -g -c -I"$nw/include" -o app.o "$HERE/app.c"
    run_logged nw-ld cc -o noweak app.o "$nw/lib/libmicaprof.a" "$nw/lib/libpmpi.a" "$nw/lib/libmpi.a" -pthread -ldl
    run_logged nw-run env MICA_PROF_DIR="$MICA_TMP/noweak.out" "$MICA_PREFIX/bin/mpiexec" -n $np ./noweak
    check simple "$(report noweak.out)" $np || fail "Mica without weak symbols"
else
    echo "no build without weak symbols in $nw: not tested"
fi
