# Fatal errors end the program with a non-zero status and a message naming the rank, the MPI
# function and the error; output written before the error is not lost.
set -u
cd "$MICA_TMP"
mpicc -Wall -Werror -o fatal "$MICA_ROOT/tests/core/fatal.c" || exit 1
failed=0

# expect MODE STATUS PATTERN...: exit status STATUS (or "nonzero") and stderr matching each PATTERN.
expect() {
    local mode=$1 want=$2; shift 2
    ./fatal "$mode" > out 2> err
    local got=$?
    if [ "$want" = nonzero ] && [ $got -eq 0 ] || [ "$want" != nonzero ] && [ $got -ne "$want" ]; then
        echo "$mode: exit status $got, expected $want"; failed=1
    fi
    for p in "$@"; do
        grep -q -- "$p" err || { echo "$mode: stderr lacks '$p':"; cat err; failed=1; }
    done
    if grep -q survived out; then echo "$mode: the program went on after a fatal error"; failed=1; fi
    if [ "$mode" != before-init ] && ! grep -q started out; then
        echo "$mode: output written before the error was lost"; failed=1
    fi
    echo "$mode: status $got: $(head -1 err)"
}

expect null-comm "$(( 5 ))" "rank 0" "MPI_Comm_rank" "MPI_COMM_NULL" "MPI_ERR_COMM"
expect bad-handle 5 "MPI_Comm_size" "0x7777" "MPI_ERR_COMM"
expect null-output 13 "MPI_Comm_rank" "rank is NULL" "MPI_ERR_ARG"
expect errors-abort 13 "MPI_Comm_rank" "MPI_ERR_ARG"
expect abort 7 "rank 0" "MPI_Abort" "error code 7"
expect after-finalize nonzero "MPI_Comm_rank called after MPI_Finalize"
expect before-init nonzero "MPI_Comm_rank called before MPI_Init"
exit $failed
