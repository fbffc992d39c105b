# Shared part of the test_intercept_*.sh tests (sourced): compare_runs WITH WITHOUT
# runs the program without the tool (WITHOUT: a command) and with it (WITH: a command),
# then asserts:
#  - both exit 0;
#  - without the tool, no line mentions myprof;
#  - with the tool, exactly the lines "myprof: MPI_Init called 1 times" and
#    "myprof: MPI_Comm_rank called 3 times" (the tool intercepted both functions);
#  - the app's own lines (all but the tool's) are identical, and are the expected ones.
compare_runs() {
    local with=$1 without=$2
    local d=$MICA_TMP
    bash -c "$without" > "$d/plain.out" 2>&1 || { cat "$d/plain.out"; fail "run without the tool failed: $without"; }
    bash -c "$with" > "$d/tool.out" 2>&1 || { cat "$d/tool.out"; fail "run with the tool failed: $with"; }
    echo "--- without the tool ($without):"; cat "$d/plain.out"
    echo "--- with the tool ($with):"; cat "$d/tool.out"
    if grep -q myprof "$d/plain.out"; then
        fail "a myprof line appears without the tool"
    fi
    grep '^myprof:' "$d/tool.out" | sort > "$d/tool.lines"
    printf '%s\n' "myprof: MPI_Comm_rank called 3 times" "myprof: MPI_Init called 1 times" > "$d/want.lines"
    if ! diff -u "$d/want.lines" "$d/tool.lines"; then
        fail "the tool's counts are wrong (or it did not intercept): see the diff above"
    fi
    grep -v '^myprof:' "$d/tool.out" > "$d/tool.app"
    if ! diff -u "$d/plain.out" "$d/tool.app"; then
        fail "the app's output differs with the tool: see the diff above"
    fi
    cat > "$d/want.app" <<'EOT'
app: MPI_Init rc=0
app: MPI_Comm_rank call 1 rc=0 rank=0
app: MPI_Comm_rank call 2 rc=0 rank=0
app: MPI_Comm_rank call 3 rc=0 rank=0
app: MPI_Comm_size rc=0 size=1
app: MPI_Finalize rc=0
EOT
    if ! diff -u "$d/want.app" "$d/plain.out"; then
        fail "the app's output is not the expected one (singleton: rank 0 of 1)"
    fi
    echo "ok: intercepted MPI_Init and 3 MPI_Comm_rank calls; app output unchanged"
}
