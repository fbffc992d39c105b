#!/bin/bash
# Every algorithm of src/coll/algorithms.tsv, forced with MICA_<COLLECTIVE>_ALGORITHM, gives the
# right result in the blocking, nonblocking and persistent forms (tests/coll/algorithms.c) on
# process counts that are and are not powers of two; a collective with one algorithm runs as is.
# The neighborhood collectives' (one algorithm each) are tests/topo's.
. "$(dirname "$0")/../profiling/lib.sh"
cd "$MICA_TMP"
run "$MICA_PREFIX/bin/mpicc" -Wall -Werror -o algorithms "$MICA_ROOT/tests/coll/algorithms.c"
table=$(grep -v '^#' "$MICA_ROOT/src/coll/algorithms.tsv" | grep -v '^neighbor_' | cut -f1,2)
while read -r coll alg; do
    n=$(cut -f1 <<< "$table" | grep -cx "$coll")
    var=MICA_$(echo "$coll" | tr a-z A-Z)_ALGORITHM
    for np in 3 4 5; do
        if [ "$n" -gt 1 ]; then
            env "$var=$alg" "$MICA_PREFIX/bin/mpiexec" -n $np ./algorithms "$coll" < /dev/null ||
                fail "$coll: algorithm $alg ($var=$alg) on $np processes"
        else
            "$MICA_PREFIX/bin/mpiexec" -n $np ./algorithms "$coll" < /dev/null || fail "$coll ($alg) on $np processes"
        fi
    done
done <<< "$table"
echo "every algorithm of the table passed"
