#!/bin/bash
# Every function of api/functions.tsv, in libmpi.so (dynamic symbol table) and libmpi.a:
# MPI_X is a weak defined symbol (W) and PMPI_X a strong defined text symbol (T).
. "$(dirname "$0")/lib.sh"
SO=$MICA_PREFIX/lib/libmpi.so
AR=$MICA_PREFIX/lib/libmpi.a
need_file "$SO" "$AR"

functions > "$MICA_TMP/functions"
n=$(wc -l < "$MICA_TMP/functions")
[ "$n" -ge 664 ] || fail "only $n functions in api/functions.tsv (expected >= 664)"

status=0
check() {   # check LABEL NM-OUTPUT-FILE
    local bad
    # Collect every defined type of each name (a name defined twice shows both types).
    bad=$(awk -v OFS='' '
        FNR == NR { fn[$1] = 1; next }
        NF == 3 && $2 != "U" && $2 != "w" && $2 != "v" { t[$3] = t[$3] $2 }
        END {
            for (f in fn) {
                checked++
                if (t[f] != "W")
                    print "  ", f, ": expected W, got ", (t[f] == "" ? "nothing" : t[f])
                p = "P" f
                if (t[p] != "T")
                    print "  ", p, ": expected T, got ", (t[p] == "" ? "nothing" : t[p])
            }
            print "checked ", checked > "/dev/stderr"
        }' "$MICA_TMP/functions" "$2" 2> "$MICA_TMP/checked" | sort)
    local c
    c=$(sed -n 's/^checked //p' "$MICA_TMP/checked")
    if [ "${c:-0}" -lt 664 ]; then
        echo "FAIL: $1: only ${c:-0} functions checked (expected >= 664)"; status=1
    fi
    if [ -n "$bad" ]; then
        echo "FAIL: $1: $(printf '%s\n' "$bad" | wc -l) wrong or missing symbols:"
        printf '%s\n' "$bad" | head -100
        status=1
    else
        echo "ok: $1: $c functions, MPI_X weak (W) and PMPI_X strong text (T)"
    fi
}

nm -D --defined-only "$SO" > "$MICA_TMP/so.nm" || fail "nm -D $SO failed"
check "libmpi.so (nm -D)" "$MICA_TMP/so.nm"
nm "$AR" > "$MICA_TMP/a.nm" 2>/dev/null || fail "nm $AR failed"
check "libmpi.a" "$MICA_TMP/a.nm"
exit $status
