#!/bin/bash
# Static libraries hold one MPI function per object file:
#  default libmpi.a: each binding object defines exactly one PMPI_X (T) and its MPI_X (W) alias
#                    and nothing else public named MPI_/PMPI_; each function has exactly one object.
#  no-weak libpmpi.a: each object defines exactly one PMPI_X (T) and nothing named MPI_.
#  no-weak libmpi.a: each binding object defines exactly one MPI_X (T) and nothing named PMPI_;
#                    each function has exactly one object.
. "$(dirname "$0")/lib.sh"
A=$MICA_PREFIX/lib/libmpi.a
NP=$MICA_NOWEAK_PREFIX/lib/libpmpi.a
NA=$MICA_NOWEAK_PREFIX/lib/libmpi.a
need_file "$A" "$NP" "$NA"
functions > "$MICA_TMP/functions"
status=0

# check LABEL ARCHIVE MODE: MODE is weak (PMPI_X T + MPI_X W), pmpi (PMPI_X T), mpi (MPI_X T).
# A binding object is one defining any global MPI_/PMPI_ symbol or named after a function;
# other objects (the core) are checked by test_one_rule.sh.
check() {
    local label=$1 ar=$2 mode=$3 out
    nm "$ar" 2>/dev/null > "$MICA_TMP/nm" || { echo "FAIL: nm $ar failed"; status=1; return; }
    out=$(awk -v mode="$mode" '
        function flush(   k, f, want, n) {
            if (obj == "") return
            if (!(obj in fn) && npub == 0) return          # a core object
            nbind++
            # The function this object defines, from its strong text symbol.
            f = ""; n = 0
            for (k in pub) {
                if (mode != "mpi" && pub[k] == "T" && k ~ /^PMPI_/) { f = substr(k, 2); n++ }
                if (mode == "mpi" && pub[k] == "T" && k ~ /^MPI_/) { f = k; n++ }
            }
            if (n != 1) {
                print "  " obj ": defines " n " functions (" list() ")"; return
            }
            if (!(f in fn)) print "  " obj ": defines " f ", which is not in the table"
            if (mode == "weak") { want["P" f] = "T"; want[f] = "W" }
            if (mode == "pmpi") want["P" f] = "T"
            if (mode == "mpi") want[f] = "T"
            for (k in pub)
                if (!(k in want) || pub[k] != want[k])
                    { print "  " obj ": unexpected " k " (" pub[k] "); all: " list(); return }
            for (k in want)
                if (!(k in pub)) { print "  " obj ": " k " missing; all: " list(); return }
            count[f]++; where[f] = where[f] " " obj
        }
        function list(   k, s) { s = ""; for (k in pub) s = s (s == "" ? "" : " ") pub[k] ":" k; return s }
        FNR == NR { fn[$1 ".o"] = 1; fn[$1] = 1; next }
        /^$/ { next }
        /:$/ && NF == 1 { flush(); obj = substr($0, 1, length($0) - 1); delete pub; npub = 0; next }
        NF == 3 && $2 ~ /^[A-TV-Z]$/ && $3 ~ /^P?MPI_/ { pub[$3] = $2; npub++ }
        # X.cold: the out-of-line cold part of X the compiler made (sanitized builds), no function
        NF == 3 && $2 ~ /^[a-z]$/ && $2 != "w" && $2 != "v" && $3 ~ /^P?MPI_/ && $3 !~ /\.cold$/ \
            { pub[$3] = $2; npub++ }
        END {
            flush()
            for (f in fn) {
                if (f ~ /\.o$/) continue
                if (count[f] == 0) print "  " f ": no object defines it"
                else if (count[f] > 1) print "  " f ": defined by " count[f] " objects:" where[f]
            }
            print "bindings " nbind > "/dev/stderr"
        }' "$MICA_TMP/functions" "$MICA_TMP/nm" 2> "$MICA_TMP/count" | sort)
    local nb
    nb=$(sed -n 's/^bindings //p' "$MICA_TMP/count")
    if [ -n "$out" ]; then
        echo "FAIL: $label: $(printf '%s\n' "$out" | wc -l) problems:"
        printf '%s\n' "$out" | head -100
        status=1
    else
        echo "ok: $label: $nb binding objects, one function each, every function in exactly one"
    fi
}

check "libmpi.a (default, weak)" "$A" weak
check "libpmpi.a (no-weak)" "$NP" pmpi
check "libmpi.a (no-weak)" "$NA" mpi

# libpmpi.a is nothing but name-shifted bindings: every object is a binding object.
n=$(functions | wc -l)
m=$(ar t "$NP" | wc -l)
[ "$m" -eq "$n" ] || { echo "FAIL: libpmpi.a (no-weak) has $m objects, $n functions"; status=1; }
exit $status
