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
