#!/bin/bash
# MPI_Pcontrol is a no-op valid at any time: MPI_Pcontrol(0), (1), (2, "extra") before
# MPI_Init, between MPI_Init and MPI_Finalize and after MPI_Finalize each return MPI_SUCCESS
# and print nothing on stderr (with libmpi.so, libmpi.a and the no-weak build); and a tool
# defining MPI_Pcontrol (varargs), linked statically before libmpi.a (and with -lpcprof
# -lpmpi -lmpi in the no-weak build), intercepts all nine calls, the program's output unchanged.
. "$(dirname "$0")/lib.sh"
P=$MICA_PREFIX
N=$MICA_NOWEAK_PREFIX
need_file "$P/bin/mpicc" "$P/lib/libmpi.a" "$P/lib/libmpi.so" "$N/lib/libmpi.a" "$N/lib/libpmpi.a"
cd "$MICA_TMP" || fail "no MICA_TMP"

run "$P/bin/mpicc" -Wall -Werror -o pc_shared "$HERE/pcontrol.c"
run "$P/bin/mpicc" -Wall -Werror -c "$HERE/pcontrol.c" -o pcontrol.o
run "$P/bin/mpicc" -Wall -Werror -c "$HERE/pcprof.c" -o pcprof.o
run ar rcs libpcprof.a pcprof.o
run cc -o pc_static pcontrol.o "$P/lib/libmpi.a" -pthread
run cc -o pc_static_prof pcontrol.o libpcprof.a "$P/lib/libmpi.a" -pthread
mkdir nw && cd nw || fail "mkdir"
run cc -Wall -Werror -I"$N/include" -c "$HERE/pcontrol.c" -o pcontrol.o
run cc -Wall -Werror -I"$N/include" -c "$HERE/pcprof.c" -o pcprof.o
run ar rcs libpcprof.a pcprof.o
run cc -o ../pc_noweak pcontrol.o -L"$N/lib" -lpmpi -lmpi -pthread
run cc -o ../pc_noweak_prof pcontrol.o -L. -lpcprof -L"$N/lib" -lpmpi -lmpi -pthread
cd "$MICA_TMP" || fail "cd"

expected() {
    for when in before-init initialized after-finalize; do
        for l in 0 1 2; do echo "pcontrol: $when level $l rc=0"; done
    done
    echo "pcontrol: 0 failures"
}
expected > want.out
tool_line="pcprof: MPI_Pcontrol called 9 times: 0 1 2(extra) 0 1 2(extra) 0 1 2(extra)"

status=0
for prog in pc_shared pc_static pc_noweak pc_static_prof pc_noweak_prof; do
    ./$prog > $prog.out 2> $prog.err
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL: $prog exited $rc"; cat $prog.out $prog.err; status=1; continue
    fi
    if [ -s $prog.err ]; then
        echo "FAIL: $prog printed on stderr:"; cat $prog.err; status=1
    fi
    case $prog in
    *_prof)
        if ! grep -qxF "$tool_line" $prog.out; then
            echo "FAIL: $prog: the tool did not intercept all 9 MPI_Pcontrol calls; expected"
            echo "  $tool_line"; echo "got:"; cat $prog.out; status=1
        fi
        grep -v '^pcprof:' $prog.out > $prog.app ;;
    *)
        if grep -q pcprof $prog.out; then
            echo "FAIL: $prog: a pcprof line without the tool"; status=1
        fi
        cp $prog.out $prog.app ;;
    esac
    if ! diff -u want.out $prog.app; then
        echo "FAIL: $prog: unexpected output (diff above)"; status=1
    fi
    [ $status -eq 0 ] && echo "ok: $prog"
done
exit $status
