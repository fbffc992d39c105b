#!/bin/bash
# mpi_f08's specific procedures under the linker names the standard's table gives them
# (gfortran's for MPI_Send_f08ts, MPI_Comm_rank_f08, MPI_Send_c_f08ts): mpi_send_f08ts_ weak (W),
# pmpi_send_f08ts_ strong (T), each pair alone in its object file, whose only MPI calls are its
# own C MPI_Send and PMPI_Send; and, in the build without weak symbols, the two in separate
# objects of libmpi_fort.a.
. "$(dirname "$0")/../profiling/lib.sh"
P=$MICA_PREFIX
[ -x "$P/bin/mpifort" ] || { echo "SKIP: no mpifort (built without a Fortran compiler)"; exit 77; }
MK=${MICA_BUILD:-$MICA_ROOT/build/weak}/gen/fortran/f08/files.mk
need_file "$P/lib/libmpi_fort.so" "$P/lib/libmpi_fort.a" "$P/include/mpi_f08.mod" "$MK"
sed -n 's/^F08_FUNCS := //p' "$MK" | tr ' ' '\n' | grep . > "$MICA_TMP/funcs"
n=$(wc -l < "$MICA_TMP/funcs")
[ "$n" -ge 400 ] || fail "only $n mpi_f08 specific procedures"
grep -q '^mpi_send_f08ts$' "$MICA_TMP/funcs" && grep -q '^mpi_comm_rank_f08$' "$MICA_TMP/funcs" &&
    grep -q '^mpi_send_c_f08ts$' "$MICA_TMP/funcs" || fail "expected names missing"

nm -D --defined-only "$P/lib/libmpi_fort.so" > "$MICA_TMP/so.nm" || fail "nm -D failed"
bad=$(awk 'FNR == NR { f[$1] = 1; next } NF == 3 { t[$3] = $2 }
    END { for (x in f) {
        if (t[x "_"] != "W") print "  " x "_: expected W, got " (t[x "_"] == "" ? "nothing" : t[x "_"])
        if (t["p" x "_"] != "T") print "  p" x "_: expected T, got " (t["p" x "_"] == "" ? "nothing" : t["p" x "_"])
    } }' "$MICA_TMP/funcs" "$MICA_TMP/so.nm" | sort)
[ -z "$bad" ] || { printf '%s\n' "$bad" | head -50; fail "libmpi_fort.so: wrong or missing names"; }
echo "ok: libmpi_fort.so: $n mpi_f08 specific procedures, MPI_ weak and PMPI_ strong"

# One function per object: each f08 object defines its two names and calls its own C pair.
check_archive() {  # check_archive LIB PAIRED(1: MPI_ and PMPI_ in one object)
    nm "$1" 2>/dev/null > "$MICA_TMP/a.nm" || fail "nm $1 failed"
    awk -v paired="$2" 'FNR == NR { f[$1] = 1; next }
        /:$/ && NF == 1 { obj = substr($0, 1, length($0) - 3); next }
        !(obj in f) && !(substr(obj, 2) in f && substr(obj, 1, 1) == "p") { next }
        { base = obj; if (!(base in f)) base = substr(obj, 2); seen[obj] = 1 }
        NF == 3 && $2 ~ /^[TW]$/ { defs[obj] = defs[obj] " " $3 }
        NF == 2 && $1 == "U" && $2 ~ /^P?MPI_/ {
            c = tolower($2); sub(/^p/, "", c); b = base; sub(/_f08(ts)?$/, "", b)
            if (c != b) print "  " obj ".o calls " $2 }
        END { for (x in f) nf++
            for (o in seen) nseen++
            if (nseen != (paired ? nf : 2 * nf)) print "  " nseen + 0 " objects for " nf " functions"
            for (o in seen) {
            b = o; if (!(b in f)) b = substr(o, 2)
            want = paired ? " " b "_ p" b "_" : (o == b ? " " b "_" : " p" b "_")
            if (defs[o] != want && defs[o] != " p" b "_ " b "_")
                print "  " o ".o defines" defs[o] ", expected" want } }' \
        "$MICA_TMP/funcs" "$MICA_TMP/a.nm"
}
bad=$(check_archive "$P/lib/libmpi_fort.a" 1)
[ -z "$bad" ] || { printf '%s\n' "$bad" | head -50; fail "libmpi_fort.a: objects other than one function each"; }
echo "ok: libmpi_fort.a: one function per object, calling only its own C MPI_X and PMPI_X"

N=$MICA_NOWEAK_PREFIX
if [ -f "$N/lib/libmpi_fort.a" ]; then
    bad=$(check_archive "$N/lib/libmpi_fort.a" 0)
    [ -z "$bad" ] || { printf '%s\n' "$bad" | head -50; fail "no-weak libmpi_fort.a: objects"; }
    echo "ok: no-weak libmpi_fort.a: the MPI_ and PMPI_ names in separate objects"
fi
