# The tunables (src/core/tunables.tsv): MICA_<NAME> sets each; a bad value warns in one line
# naming the variable and what it may be, and the default stays; the README lists every one;
# point-to-point works with every message sent by rendezvous in small pieces and rings.
set -u
cd "$MICA_TMP"
table=$MICA_ROOT/src/core/tunables.tsv
mpicc -Wall -Werror -I"${MICA_BUILD:-$MICA_ROOT/build/weak}/gen" -c "$MICA_ROOT/tests/core/tunables.c" &&
    cc -o tunables tunables.o "$MICA_PREFIX/lib/libmpi.a" -pthread || exit 1
failed=0
fail() { echo "FAIL: $*"; failed=1; }

# value NAME: NAME's value in the last run's output
value() { awk -v n="$1" '$1 == n { print $2 }' out; }

./tunables > out 2> err || fail "the program failed without MICA_ variables"
[ -s err ] && fail "warnings without MICA_ variables: $(cat err)"
[ "$(value EAGER_LIMIT)" = 16384 ] || fail "EAGER_LIMIT default is $(value EAGER_LIMIT)"
[ "$(value SHM_RING_KB)" = -1 ] || fail "SHM_RING_KB default (auto) is $(value SHM_RING_KB)"

env MICA_EAGER_LIMIT=0 MICA_CHUNK=4k MICA_ALLREDUCE_LONG=1M MICA_BCAST_LONG=auto \
    MICA_SPIN_POLLS=7 ./tunables > out 2> err || fail "the program failed with good values"
[ -s err ] && fail "warnings for good values: $(cat err)"
for nv in EAGER_LIMIT=0 CHUNK=4096 ALLREDUCE_LONG=1048576 BCAST_LONG=-1 SPIN_POLLS=7; do
    [ "$(value "${nv%=*}")" = "${nv#*=}" ] || fail "$nv wanted, got $(value "${nv%=*}")"
done

# Every tunable, set to a word and to a number too large for any: a warning each, defaults kept.
./tunables > defaults 2> /dev/null
for name in $(grep -v '^#' "$table" | cut -f1); do
    for bad in bogus 99999999999999999999 -5; do
        env "MICA_$name=$bad" ./tunables > out 2> err || fail "MICA_$name=$bad: the program failed"
        [ "$(wc -l < err)" = 1 ] && grep -q "^mica: warning: MICA_$name=$bad is not .*default" err ||
            fail "MICA_$name=$bad: no one-line warning: $(cat err)"
        cmp -s out defaults || fail "MICA_$name=$bad changed a value: $(diff defaults out)"
    done
done
env MICA_EAGER_LIMIT=2x ./tunables > /dev/null 2> err
grep -q "MICA_EAGER_LIMIT=2x is not an integer from 0 to 1073741824" err ||
    fail "the warning does not name the range: $(cat err)"
env MICA_SHM_RING_KB=8 ./tunables > /dev/null 2> err
grep -q "MICA_SHM_RING_KB=8 is not auto or an integer from 16 to 1048576" err ||
    fail "a value below the range was not refused: $(cat err)"

# The README's list of tunables names each one.
for name in $(grep -v '^#' "$table" | cut -f1); do
    grep -q "MICA_$name\b" "$MICA_ROOT/README.md" || fail "README.md does not list MICA_$name"
done

# The knobs take effect: every message by rendezvous, in small pieces, through the smallest
# rings, or read once from the sender (t_basic and t_requests send to themselves before
# receiving: they need eager sends).
for prog in modes probe large single_copy; do
    mpicc -Wall -Werror -o $prog "$MICA_ROOT/tests/pt2pt/t_$prog.c" || exit 1
    for copy in 0 1; do
        knobs="MICA_EAGER_LIMIT=0 MICA_CHUNK=4k MICA_SHM_RING_KB=16 MICA_SINGLE_COPY=$copy"
        env $knobs mpiexec -n 2 ./$prog > out 2>&1 || fail "t_$prog with $knobs: $(tail -5 out)"
    done
done
[ $failed = 0 ] && echo "ok: tunables"
exit $failed
