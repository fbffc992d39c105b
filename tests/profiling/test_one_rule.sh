#!/bin/bash
# The one rule: nothing below the binding layer calls an MPI_ or PMPI_ function.
#  - no object of the three archives (default libmpi.a, no-weak libpmpi.a and libmpi.a) has an
#    undefined reference to a symbol starting with MPI_ or PMPI_ (so bindings don't call each
#    other, and the core calls no binding);
#  - the non-binding (core/runtime) objects define no MPI_/PMPI_ symbol;
#  - libmpi.so exports only MPI_*, PMPI_*, MPIX_* and ordinary linker symbols (mica_ is hidden,
#    but for the entry points the Fortran binding library calls: objects.h, core/interlang.h),
#    imports no MPI_/PMPI_ symbol and has no relocation against one (no internal PLT calls).
. "$(dirname "$0")/lib.sh"
A=$MICA_PREFIX/lib/libmpi.a
SO=$MICA_PREFIX/lib/libmpi.so
NP=$MICA_NOWEAK_PREFIX/lib/libpmpi.a
NA=$MICA_NOWEAK_PREFIX/lib/libmpi.a
need_file "$A" "$SO" "$NP" "$NA"
functions > "$MICA_TMP/functions"
status=0

report() {  # report LABEL WHAT OUTPUT
    if [ -n "$3" ]; then
        echo "FAIL: $1: $(printf '%s\n' "$3" | wc -l) $2:"
        printf '%s\n' "$3" | head -100
        status=1
    fi
}

for ar in "$A" "$NP" "$NA"; do
    label=${ar#"$MICA_ROOT"/}
    nm "$ar" 2>/dev/null > "$MICA_TMP/nm" || { echo "FAIL: nm $ar failed"; status=1; continue; }
    # Objects named after a table function (MPI_X.o) are bindings; all others are the core.
    out=$(awk '
        FNR == NR { fn[$1 ".o"] = 1; next }
        /:$/ && NF == 1 { obj = substr($0, 1, length($0) - 1); nobj++; if (!(obj in fn)) ncore++; next }
        NF == 2 && ($1 == "U" || $1 == "w" || $1 == "v") && $2 ~ /^P?MPI_/ {
            print "  " obj " (" ((obj in fn) ? "binding" : "core") "): calls " $2 " (" $1 ")" }
        NF == 3 && $3 ~ /^P?MPI_/ && !(obj in fn) {
            print "  " obj " (core): defines " $3 " (" $2 ")" }
        END { print nobj + 0 " objects (" ncore + 0 " core)" > "/dev/stderr" }
        ' "$MICA_TMP/functions" "$MICA_TMP/nm" 2> "$MICA_TMP/count")
    report "$label" "violations of the one rule" "$out"
    [ -z "$out" ] && echo "ok: $label: $(cat "$MICA_TMP/count"); no MPI_/PMPI_ calls, core defines none"
done

# libmpi.so: what it exports.
fortran='mica_fortran_(c2f|f2c|keyval|attr|attr_value|op|errhandler|peers|grequest|raise|section|type_free)'
allowed='^(mica_fortran_(c2f|f2c|keyval|attr|attr_value|op|errhandler|peers|grequest|raise|section|type_free)|P?MPIX?_[A-Za-z0-9_]+|_init|_fini|_edata|_end|__bss_start|__end__|_DYNAMIC|_GLOBAL_OFFSET_TABLE_|__dso_handle|__data_start|data_start|__TMC_END__)$'
nm -D --defined-only "$SO" > "$MICA_TMP/so.nm" || fail "nm -D $SO failed"
out=$(awk 'NF == 3 { print $3 }' "$MICA_TMP/so.nm" | sed 's/@.*//' | grep -Ev "$allowed" | sed 's/^/  /')
report "libmpi.so" "exported symbols that are neither MPI_/PMPI_/MPIX_ nor linker symbols" "$out"
out=$(awk 'NF == 3 { print $3 }' "$MICA_TMP/so.nm" | grep '^mica_' | grep -Evx "$fortran" | sed 's/^/  /')
report "libmpi.so" "internal mica_ symbols exported (must be hidden)" "$out"
nexp=$(grep -cE ' [A-Za-z] P?MPIX?_' "$MICA_TMP/so.nm")
[ "$nexp" -gt 0 ] || { echo "FAIL: libmpi.so exports no MPI_ symbol at all"; status=1; }

# libmpi.so: what it imports, and relocations against MPI names (an internal call through the PLT).
out=$(nm -D --undefined-only "$SO" | awk '{ print $NF }' | grep -E '^P?MPI_' | sed 's/^/  /')
report "libmpi.so" "undefined MPI_/PMPI_ references" "$out"
out=$(readelf -rW "$SO" | awk '$5 ~ /^P?MPI_/ { print "  " $3 " against " $5 }')
report "libmpi.so" "dynamic relocations against MPI_/PMPI_ symbols (internal calls)" "$out"
[ $status -eq 0 ] && echo "ok: libmpi.so: exports $nexp MPI symbols and nothing internal; no internal MPI calls"
exit $status
