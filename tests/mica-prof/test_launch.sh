#!/bin/bash
# Both ways of starting a program under mica-prof, with each MPI's own launcher:
#   mpiexec -n 3 mica-prof ./app      and      mica-prof mpiexec -n 3 ./app
# The library matching the program's MPI (from ldd) is preloaded; the program's output is
# unchanged; a program that links no shared MPI library is refused with a message.
. "$(dirname "$0")/lib.sh"
cd "$MICA_TMP" || exit 1
np=3
for f in $(flavors); do
    lib=$(lib_of "$f")
    run_logged "cc-$f" $(cc_of "$f") -O1 -g -o "app-$f" "$HERE/app.c"
    got=$("$PROF" --print-lib "./app-$f") || fail "$f: --print-lib"
    [ "$got" = "$lib" ] || fail "$f: mica-prof picked $got for app-$f, expected $lib"
    run_logged "inner-$f" $(run_of "$f" $np) "$PROF" --dir "inner-$f" "./app-$f"
    check simple "$(report "inner-$f")" $np || fail "$f: mpiexec mica-prof ./app"
    run_logged "outer-$f" "$PROF" --dir "outer-$f" $(run_of "$f" $np) "./app-$f"
    check simple "$(report "outer-$f")" $np || fail "$f: mica-prof mpiexec ./app"
    for k in inner outer; do
        grep -qx "app: sum $np" "$k-$f.log" || { cat "$k-$f.log"; fail "$f $k: the program's output changed"; }
    done
done
# a program without a shared MPI library
cc -o plain -x c - <<<'int main(void) { return 0; }'
if "$PROF" ./plain 2>plain.err; then fail "mica-prof ran a program without MPI"; fi
grep -q 'does not link' plain.err || { cat plain.err; fail "no explanation for a program without MPI"; }
