# MPI_T control variables show the environment's MICA_<NAME>, before MPI_Init already:
# t_mpit_cvar.c run with MICA_EAGER_LIMIT and MICA_YIELD_POLLS set (it reads them from its
# environment and checks the control variables against them), alone and on 2 ranks.
set -u
cd "$MICA_TMP"
mpicc -Wall -Werror -o cvar "$MICA_ROOT/tests/tool/t_mpit_cvar.c" || exit 1
MICA_EAGER_LIMIT=4096 MICA_YIELD_POLLS=77 ./cvar || { echo "FAIL: singleton"; exit 1; }
MICA_EAGER_LIMIT=0 MICA_YIELD_POLLS=5 mpiexec -n 2 ./cvar || { echo "FAIL: 2 ranks"; exit 1; }
echo "ok: the control variables are the environment's"
