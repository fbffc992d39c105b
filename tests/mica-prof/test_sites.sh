#!/bin/bash
# Call sites resolve to file:line on the rank that recorded them, in a PIE executable and in a
# shared library (address minus the object's load address, then addr2line); with
# MICA_PROF_DEPTH=2 the caller of the library function appears too. --no-sites turns them off.
. "$(dirname "$0")/lib.sh"
cd "$MICA_TMP" || exit 1
np=2
for f in $(flavors); do
    lib_of "$f" >/dev/null
    cc=$(cc_of "$f")
    mkdir -p "$f"
    run_logged "lib-$f" $cc -g -O1 -fPIC -shared -o "$f/libsite.so" "$HERE/libsite.c"
    run_logged "exe-$f" $cc -g -O1 -fPIE -pie -o "$f/sites" "$HERE/sites.c" -L"$f" -lsite -Wl,-rpath,"$MICA_TMP/$f"
    readelf -h "$f/sites" | grep -q 'DYN' || fail "$f: sites is not position independent"
    for depth in 1 2; do
        run_logged "run-$f-$depth" $(run_of "$f" $np) "$PROF" --depth $depth --dir "out-$f-$depth" "$f/sites"
        check sites "$(report "out-$f-$depth")" || fail "$f: call sites at depth $depth"
    done
    run_logged "nosites-$f" $(run_of "$f" $np) "$PROF" --no-sites --dir "none-$f" "$f/sites"
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['sites'] == [] and d['options']['sites'] is False" \
        "$(report "none-$f")" || fail "$f: --no-sites"
done
