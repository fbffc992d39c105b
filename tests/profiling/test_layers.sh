#!/bin/bash
# Layers call only downward. The floors, low to high:
#   runtime; core; transport; pt2pt; coll; topo, rma, io; mpi (the orchestrators) and tool (MPI_T); bindings.
# A module may include the headers of, and call, its own floor and the floors below it:
#  - includes: every #include "DIR/..." of a file of src/DIR0 names a floor at or below DIR0's
#    (the generated core_api.h and mpi.h, the bindings' contract, are everyone's);
#  - calls: every undefined mica_ symbol of an object of build/weak/obj is defined by an object
#    of the same floor or a lower one (nm); a generated object (obj/gen/DIR) is of DIR's floor. Static inline functions are covered by the includes.
# Each violation is printed as: file -> symbol (defined in file).
. "$(dirname "$0")/lib.sh"
OBJ=${MICA_BUILD:-$MICA_ROOT/build/weak}/obj
[ -d "$OBJ/core" ] || { echo "skip: $OBJ not built"; exit 77; }

floors='runtime=0 core=1 transport=2 pt2pt=3 coll=4 topo=5 rma=5 io=5 mpi=6 tool=6 bindings=7'

status=0
report() {  # report WHAT OUTPUT
    if [ -n "$2" ]; then
        echo "FAIL: $(printf '%s\n' "$2" | wc -l) $1:"
        printf '%s\n' "$2" | sed 's/^/  /'
        status=1
    fi
}

# Includes.
out=$(cd "$MICA_ROOT" && grep -H '^#include "[a-z0-9_]*/' src/*/*.[ch] | awk -v floors="$floors" '
    BEGIN { n = split(floors, f, " "); for (i = 1; i <= n; i++) { split(f[i], kv, "="); fl[kv[1]] = kv[2] } }
    {
        split($0, a, ":"); file = a[1]; split(file, p, "/"); dir = p[2]
        if (!(dir in fl)) next
        hdr = $0; sub(/^[^"]*"/, "", hdr); sub(/".*/, "", hdr); split(hdr, h, "/")
        if ((h[1] in fl) && fl[h[1]] > fl[dir]) print file " -> " hdr " (floor " h[1] " is above " dir ")"
    }')
report "includes of a higher floor" "$out"
ninc=$(cd "$MICA_ROOT" && grep -h '^#include "[a-z0-9_]*/' src/*/*.[ch] | wc -l)

# Calls (and data references).
# The objects of today's sources (a moved source leaves its old object behind) and the bindings.
objs=$(cd "$OBJ" && for d in runtime transport core pt2pt coll topo rma io mpi tool; do
           for o in "$d"/*.o; do [ -f "$MICA_ROOT/src/${o%.o}.c" ] && echo "$o"; done
           ls gen/"$d"/*.o 2>/dev/null
       done; ls bindings/*.o)
[ -n "$objs" ] || fail "no objects in $OBJ"
(cd "$OBJ" && nm -A $objs) > "$MICA_TMP/nm" 2>/dev/null || fail "nm failed in $OBJ"
out=$(awk -v floors="$floors" '
    BEGIN { n = split(floors, f, " "); for (i = 1; i <= n; i++) { split(f[i], kv, "="); fl[kv[1]] = kv[2] } }
    {
        obj = $1; sub(/:.*/, "", obj); sub(/^gen\//, "", obj); split(obj, p, "/")
        type = $(NF - 1); sym = $NF
        if (sym !~ /^mica_/) next
        if (type == "U") { use[++nu] = obj; usym[nu] = sym; next }
        if (type ~ /^[A-TV-Z]$/ && !(sym in def)) def[sym] = obj     # global definitions
    }
    END {
        for (i = 1; i <= nu; i++) {
            obj = use[i]; sym = usym[i]
            if (!(sym in def)) continue          # defined outside these objects
            split(obj, p, "/"); split(def[sym], q, "/")
            if (fl[q[1]] > fl[p[1]]) print obj " -> " sym " (defined in " def[sym] ")"
        }
    }' "$MICA_TMP/nm" | sort -u)
report "calls of a higher floor" "$out"
nobj=$(printf '%s\n' $objs | wc -l)
[ $status -eq 0 ] && echo "ok: $ninc includes and the mica_ references of $nobj objects call only downward"
exit $status
