#!/bin/bash
# Every Fortran function of libmpi_fort is there under all eight linker names (the seed's group
# rule holds by construction): mpi_x, mpi_x_, mpi_x__, MPI_X weak (W) and the four PMPI names
# strong (T); and each function's object calls, of the MPI API, only its own C MPI_X and
# PMPI_X (the call-through rule; handle conversions are no MPI calls).
. "$(dirname "$0")/../profiling/lib.sh"
P=$MICA_PREFIX
[ -x "$P/bin/mpifort" ] || { echo "SKIP: no mpifort (built without a Fortran compiler)"; exit 77; }
MK=${MICA_BUILD:-$MICA_ROOT/build/weak}/gen/fortran/files.mk
need_file "$P/lib/libmpi_fort.so" "$P/lib/libmpi_fort.a" "$MK"
sed -n 's/^FORT_FUNCS := //p' "$MK" | tr ' ' '\n' | grep . > "$MICA_TMP/funcs"
n=$(wc -l < "$MICA_TMP/funcs")
[ "$n" -ge 150 ] || fail "only $n Fortran functions"
nm -D --defined-only "$P/lib/libmpi_fort.so" > "$MICA_TMP/so.nm" || fail "nm -D failed"
bad=$(awk 'FNR == NR { f[$1] = 1; next } NF == 3 { t[$3] = $2 }
    END { for (x in f) {
        X = toupper(x); p = "p" x; PX = toupper(p)
        split(x " " x "_ " x "__ " X, m, " "); split(p " " p "_ " p "__ " PX, q, " ")
        for (i = 1; i <= 4; i++) {
            if (t[m[i]] != "W") print "  " m[i] ": expected W, got " (t[m[i]] == "" ? "nothing" : t[m[i]])
            if (t[q[i]] != "T") print "  " q[i] ": expected T, got " (t[q[i]] == "" ? "nothing" : t[q[i]])
        } } }' "$MICA_TMP/funcs" "$MICA_TMP/so.nm" | sort)
[ -z "$bad" ] || { printf '%s\n' "$bad" | head -50; fail "libmpi_fort.so: wrong or missing names"; }
echo "ok: libmpi_fort.so: $n functions under 8 linker names each"

nm "$P/lib/libmpi_fort.a" 2>/dev/null > "$MICA_TMP/a.nm" || fail "nm libmpi_fort.a failed"
bad=$(awk '/:$/ && NF == 1 { obj = substr($0, 1, length($0) - 3); next }
    obj ~ /_f08(ts)?$/ { next }              # mpi_f08: see test_f08_names.sh
    NF == 2 && $1 == "U" && $2 ~ /^P?MPI_/ {
        c = $2; sub(/^P/, "", c)
        if (tolower(c) != obj) print "  " obj ".o calls " $2 }' "$MICA_TMP/a.nm")
[ -z "$bad" ] || { printf '%s\n' "$bad" | head -50; fail "libmpi_fort.a: calls other than its own"; }
calls=$(awk '/:$/ && NF == 1 { f08 = $0 ~ /_f08(ts)?\.o:$/ } !f08 && / U P?MPI_/' "$MICA_TMP/a.nm" | wc -l)
# MPI_F_SYNC_REG, Fortran only, calls nothing.
[ "$calls" -ge $((2 * (n - 1))) ] || fail "only $calls MPI_/PMPI_ calls in libmpi_fort.a for $n functions"
echo "ok: libmpi_fort.a: each object calls only its own C MPI_X and PMPI_X ($calls calls)"
