# Mica MPI programs launched by MPICH's Hydra (mpiexec.mpich), in its default PMI_FD mode and
# with -pmi-port: point-to-point and collectives work as under Mica's own mpiexec.
set -u
hydra=$(command -v mpiexec.mpich || true)
[ -n "$hydra" ] || { echo "mpiexec.mpich is not installed: skipped"; exit 77; }
cd "$MICA_TMP"
mpicc -o basic "$MICA_ROOT/tests/pt2pt/t_basic.c" || exit 1
for mode in "" -pmi-port; do
    timeout 60 "$hydra" $mode -n 4 ./basic > out 2>&1 || { cat out; echo "hydra $mode: failed"; exit 1; }
    echo "hydra ${mode:-(PMI_FD)}: 4 ranks ok"
done

# A rank that dies during start-up, after the first fence of MPI_Init, while the others share
# their shared-memory segments and wait for it: Hydra kills the job (SIGKILL), and nothing of
# it is left, in /dev/shm or as a process (issue 9, point 4; Hydra cleans nothing up itself).
cc -std=c11 -D_GNU_SOURCE -I"$MICA_ROOT/src/runtime" -o rt_prog "$MICA_ROOT/tests/runtime/rt_prog.c" \
    "$MICA_ROOT/src/runtime/pmi.c" "$MICA_ROOT/src/runtime/pmi_wire.c" || exit 1
cat > dies.sh <<'WRAP'
#!/bin/sh
[ "${PMI_RANK:-0}" = 3 ] && exec ./rt_prog segv 3
exec "$@"
WRAP
chmod +x dies.sh
ls /dev/shm > shm.before
timeout 60 "$hydra" -n 4 ./dies.sh "$PWD/basic" > out 2>&1
rc=$?
[ $rc != 0 ] && [ $rc != 124 ] || { cat out; echo "hydra: the job did not end when a rank died (status $rc)"; exit 1; }
sleep 0.2
ls /dev/shm > shm.after
left=$(comm -13 shm.before shm.after | grep '^mica-' || true)
alive=$(pgrep -f "$PWD/basic" || true)
[ -z "$left$alive" ] || { echo "hydra: left behind after a rank died during start-up: $left $alive"; exit 1; }
echo "hydra: a rank died during start-up: nothing left behind"
