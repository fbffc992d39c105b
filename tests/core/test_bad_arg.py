"""One bad argument at a time (issue 9, point 1): every implemented function is called with
valid arguments except one, for each invalid value that parameter's kind allows (a null, freed
or wrong-kind handle, a negative count, a rank >= size, a bad tag, NULL for a required output,
an uncommitted datatype, ...), so the call gets past its first check. Each case runs in a
process of its own (a singleton: communicators have one process, so collectives need no
partner and rank 1 is out of range). It must return, not MPI_SUCCESS, with the kind's error
class where the standard gives one, and raise the error through the right error handler: every
object the program makes, MPI_COMM_WORLD, MPI_COMM_SELF and MPI_FILE_NULL get a handler that
records who called it and returns (so MPI_ERRORS_ARE_FATAL anywhere would end the process).

A baseline call with every argument valid comes first: where it fails (BASELINE_FAILS says
why), the function's cases still must return an error without crashing, but the class and the
handler are not checked. The program is generated from api/functions.tsv and
src/bindings/c/impl.tsv (gen/api.py's parameter model), so it covers new functions by itself.

Where the bindings' generator says MPI_IN_PLACE makes an argument insignificant (gen/bindings.py's
insignificant), its invalid values are tried again with that buffer MPI_IN_PLACE: the call must
then succeed as the all-valid call with MPI_IN_PLACE does (or, where that one fails, not crash)."""
import concurrent.futures
import os
import re
import subprocess
import sys
import time

root, prefix, tmp = os.environ['MICA_ROOT'], os.environ['MICA_PREFIX'], os.environ['MICA_TMP']
sys.path.insert(0, os.path.join(root, 'gen'))
import api  # noqa: E402
import bindings  # noqa: E402

# What ends the process or MPI on purpose, and what has no error to return.
LEFT_OUT = {'MPI_Abort', 'MPI_Init', 'MPI_Init_thread', 'MPI_Finalize', 'MPI_Session_finalize',
            'MPI_Pcontrol', 'MPI_Wtime', 'MPI_Wtick'}
# Functions whose all-valid call cannot succeed in a one-process program, and why.
BASELINE_FAILS = {
    'MPI_Comm_remote_size': 'needs an intercommunicator: one process cannot make one',
    'MPI_Comm_remote_group': 'needs an intercommunicator: one process cannot make one',
    'MPI_Intercomm_merge': 'needs an intercommunicator: one process cannot make one',
    'MPI_Intercomm_create': 'needs two disjoint groups: one process cannot make them',
    'MPI_Intercomm_create_from_groups': 'needs two disjoint groups: one process cannot make them',
}
# Arrays that may be NULL here: the valid call gives them no element.
MAY_BE_NULL = {('MPI_Type_get_contents', 'array_of_addresses'),
               ('MPI_Type_get_contents_c', 'array_of_addresses'),
               ('MPI_Type_get_contents_c', 'array_of_large_counts')}
# Known defects not fixed yet: function -> (argument, why). Their cases are reported, not failed.
EXPECTED_FAILURES = {}

CLASSES = {name: int(v.split()[1]) for name, v in api.constants()
           if name.startswith('MPI_ERR_') and v.startswith('int ')}
CLASSES['MPI_SUCCESS'] = 0
HANDLE = {t: (v[0], v[2], v[3]) for t, v in api.HANDLES.items()}   # kind, null, class
COUNT_KINDS = ('POLYXFER_NUM_ELEM_NNI', 'POLYDTYPE_NUM_ELEM_NNI', 'XFER_NUM_ELEM_NNI',
               'POLYXFER_NUM_ELEM')
# Output pointers the standard lets be NULL (or a sentinel that is NULL in the ABI).
NULLABLE = {'STATUS', 'F08_STATUS', 'F90_STATUS', 'BUFFER', 'C_BUFFER', 'C_BUFFER2',
            'ATTRIBUTE_VAL', 'ATTRIBUTE_VAL_10', 'EXTRA_STATE', 'EXTRA_STATE2', 'ARGUMENT_LIST',
            'STRING_ARRAY'}
ERROR_OBJECTS = ('MPI_Comm', 'MPI_Win', 'MPI_File', 'MPI_Session')

rows = api.implementation()
functions = [f for f in api.functions()
             if f.name in rows and rows[f.name].mode in ('checked', 'anytime', 'large')
             and f.name not in LEFT_OUT]


def family(f):
    """The kind of object the function is about, from its name: MPI_Win_x -> 'win'."""
    n = f.name
    for pre, fam in (('MPI_Win_', 'win'), ('MPI_File_', 'file'), ('MPI_Session_', 'session'),
                     ('MPI_Type_', 'type'), ('MPI_Attr_', 'comm'), ('MPI_Keyval_', 'comm')):
        if n.startswith(pre):
            return fam
    return 'comm'


# --- Valid values. Each function gets C declarations making every argument valid. ---------

def comm_for(f):
    n = f.name
    if re.match(r'MPI_(Cart_(coords|get|rank|shift|sub)|Cartdim_get)', n) or 'eighbor_' in n:
        return 'v_cart()'
    if re.match(r'MPI_Graph(_get|_neighbors|dims_get|_neighbors_count)', n):
        return 'v_graph()'
    if n.startswith('MPI_Dist_graph_neighbors'):
        return 'v_distgraph()'
    return 'v_comm()'


RMA_OPS = r'(?i)MPI_R?(Put|Get|Accumulate|Get_accumulate|Fetch_and_op|Compare_and_swap)(_c)?$'


def win_for(f):
    n = f.name
    if re.match(RMA_OPS, n) or re.match(r'MPI_Win_(flush|unlock_all|sync)', n):
        return 'v_win_lockall()'
    if n == 'MPI_Win_unlock':
        return 'v_win_locked()'
    if n == 'MPI_Win_attach':
        return 'v_win_dynamic()'
    if n == 'MPI_Win_detach':
        return 'v_win_dyn_attached()'
    if n == 'MPI_Win_start':
        return 'v_win_posted()'
    if n == 'MPI_Win_complete':
        return 'v_win_started()'
    if n in ('MPI_Win_wait', 'MPI_Win_test'):
        return 'v_win_completed()'
    return 'v_win()'


def handle_valid(f, p):
    t = p.base
    fam = family(f)
    if t == 'MPI_Comm':
        return comm_for(f)
    if t == 'MPI_Datatype':
        if fam == 'type' and f.name != 'MPI_Type_get_value_index' or f.name.startswith('MPI_Status'):
            return 'v_derived()'
        return 'MPI_INT'
    if t == 'MPI_Op':
        return 'v_userop()' if p.pointer else 'MPI_SUM'
    if t == 'MPI_Info':
        return 'v_info()'
    if t == 'MPI_Group':
        return 'v_group()'
    if t == 'MPI_Errhandler':
        if p.pointer:
            return 'v_errhandler()'
        return {'comm': 'eh_comm', 'win': 'eh_win', 'file': 'eh_file',
                'session': 'eh_session'}.get(fam, 'MPI_ERRORS_RETURN') \
            if 'set_errhandler' in f.name else 'MPI_ERRORS_RETURN'
    if t == 'MPI_Request':
        if f.name == 'MPI_Grequest_complete':
            return 'v_grequest()'
        if f.name.startswith('MPI_Start'):
            return 'v_prequest()'
        if f.name.startswith('MPI_Pready') or f.name == 'MPI_Parrived':
            return 'v_part(%d)' % (f.name != 'MPI_Parrived')
        return 'v_request()'
    if t == 'MPI_Win':
        return win_for(f)
    if t == 'MPI_File':
        return 'v_file()'
    if t == 'MPI_Message':
        return 'v_message()'
    if t == 'MPI_Session':
        return 'v_session()'
    raise SystemExit('no valid %s' % t)


INT_VALID = {'LOCK_TYPE': 'MPI_LOCK_SHARED', 'SPLIT_TYPE': 'MPI_COMM_TYPE_SHARED',
             'ORDER': 'MPI_ORDER_C', 'TYPECLASS': 'MPI_TYPECLASS_INTEGER', 'TYPECLASS_SIZE': '4',
             'UPDATE_MODE': 'MPI_SEEK_SET', 'ERROR_CODE': 'MPI_ERR_OTHER',
             'ACCESS_MODE': 'MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE',
             'WINDOW_SIZE': '64', 'WIN_ATTACH_SIZE': '64', 'ALLOC_MEM_NUM_BYTES': '64',
             'POLYNUM_BYTES_NNI': '4096', 'POLYNUM_PARAM_VALUES': '8', 'INFO_VALUE_LENGTH': '100',
             'POLYDTYPE_STRIDE_BYTES': '8', 'RANK': '0', 'RANK_NNI': '0', 'TAG': '0',
             'INDEX': '0', 'KEY_INDEX': '0', 'LOGICAL': '0', 'ASSERT': '0', 'COLOR': '0',
             'KEY': '0', 'OFFSET': '0', 'RMA_DISPLACEMENT_NNI': '0', 'ERROR_CLASS': 'v_class()',
             'DEGREE': '1', 'POLYRMA_DISPLACEMENT': '1'}
# Per function and parameter, where the kind's default does not fit.
OVERRIDE = {
    ('MPI_Unpack', 'insize'): '4', ('MPI_Unpack_c', 'insize'): '4',
    ('MPI_Type_create_resized', 'lb'): '0', ('MPI_Type_create_resized_c', 'lb'): '0',
    ('MPI_Type_create_resized', 'extent'): '8', ('MPI_Type_create_resized_c', 'extent'): '8',
    ('MPI_Add_error_string', 'errorcode'): 'v_code()',
    ('MPI_Remove_error_code', 'errorcode'): 'v_code()',
    ('MPI_Remove_error_string', 'errorcode'): 'v_code_with_string()',
    ('MPI_Free_mem', 'base'): 'v_mem()',
    ('MPI_File_delete', 'filename'): 'v_existing_file()',
    ('MPI_File_open', 'filename'): 'v_new_file()',
    ('MPI_Comm_create_from_group', 'stringtag'): '"mica.bad_arg"',
    ('MPI_Group_from_session_pset', 'pset_name'): '"mpi://WORLD"',
    ('MPI_Session_get_pset_info', 'pset_name'): '"mpi://WORLD"',
    ('MPI_Comm_create_from_group', 'group'): 'v_session_group()',
    ('MPI_Info_set', 'key'): '"k2"',
    ('MPI_Dims_create', 'nnodes'): '1',
    ('MPI_Graph_create', 'indx'): 'v_ints(1)', ('MPI_Graph_map', 'indx'): 'v_ints(1)',
    ('MPI_Win_detach', 'base'): 'win_base',
    ('MPI_Buffer_attach', 'size'): '8192', ('MPI_Buffer_attach_c', 'size'): '8192',
    ('MPI_Comm_attach_buffer', 'size'): '8192', ('MPI_Comm_attach_buffer_c', 'size'): '8192',
    ('MPI_Info_create_env', 'argc'): '0',
    ('MPI_Session_get_nth_pset', 'pset_len'): 'v_intp(256)',
    ('MPI_Info_get_string', 'buflen'): 'v_intp(100)',
    ('MPI_Status_set_elements', 'datatype'): 'MPI_INT',
    ('MPI_Status_set_elements_c', 'datatype'): 'MPI_INT',
    ('MPI_Session_get_nth_pset', 'info'): 'MPI_INFO_NULL',
    ('MPI_File_set_view', 'datarep'): '"native"',
    ('MPI_Type_create_darray', 'array_of_distribs'): 'v_ints(MPI_DISTRIBUTE_BLOCK)',
    ('MPI_Type_create_darray_c', 'array_of_distribs'): 'v_ints(MPI_DISTRIBUTE_BLOCK)',
    ('MPI_Unpack_external', 'insize'): '64', ('MPI_Unpack_external_c', 'insize'): '64',
    ('MPI_Pack_external', 'outsize'): '64', ('MPI_Pack_external_c', 'outsize'): '64',
}
for _n in ('MPI_Pack_external', 'MPI_Pack_external_c', 'MPI_Pack_external_size',
           'MPI_Pack_external_size_c', 'MPI_Unpack_external', 'MPI_Unpack_external_c'):
    OVERRIDE[(_n, 'datarep')] = '"external32"'
# Calls a function needs before it, with every argument valid: `%(param)s` is that argument.
SETUP = {
    'MPI_Buffer_detach': 'MPI_Buffer_attach(v_bsend_buf(), 8192);',
    'MPI_Buffer_detach_c': 'MPI_Buffer_attach(v_bsend_buf(), 8192);',
    'MPI_Comm_detach_buffer': 'MPI_Comm_attach_buffer(%(comm)s, v_bsend_buf(), 8192);',
    'MPI_Comm_detach_buffer_c': 'MPI_Comm_attach_buffer(%(comm)s, v_bsend_buf(), 8192);',
}
for _n in ('MPI_Comm_delete_attr', 'MPI_Attr_delete'):
    SETUP[_n] = 'MPI_Comm_set_attr(%(comm)s, %(' + ('comm_keyval' if 'Comm' in _n else 'keyval') \
        + ')s, NULL);'
SETUP['MPI_Type_delete_attr'] = 'MPI_Type_set_attr(%(datatype)s, %(type_keyval)s, NULL);'
SETUP['MPI_Win_delete_attr'] = 'MPI_Win_set_attr(%(win)s, %(win_keyval)s, NULL);'


def setup_for(f):
    names = {p.name for p in f.params}
    if f.name in SETUP:
        return SETUP[f.name]
    m = re.match(r'(MPI_File_\w+)_end$', f.name)
    if m:                             # a split collective ends what its begin started
        off = ' 0,' if '_at_' in f.name else ''
        return '%s_begin(%%(fh)s,%s %%(buf)s, 1, MPI_INT);' % (m.group(1), off)
    if re.match(r'MPI_I?[Bb]send', f.name):
        return 'MPI_Buffer_attach(v_bsend_buf(), 8192);'
    if 'source' in names and 'comm' in names:
        return 'MPI_Send(v_buf(), 1, MPI_INT, 0, 0, %(comm)s);'   # something to receive
    if 'dest' in names and 'comm' in names and re.match(r'MPI_I?[SR]send(_c)?$', f.name):
        return 'MPI_Irecv(v_buf(), 4, MPI_INT, 0, 0, %(comm)s, v_reqp());'   # a matching receive
    return ''


def int_array_valid(f, p):
    if f.name.startswith('MPI_Group_range'):
        return 'v_ranges()'
    zero = ('displ', 'disp', 'rank', 'period', 'coords', 'sources', 'destinations', 'starts',
            'edges')
    if any(z in p.name for z in zero):
        return 'v_zeros()'
    return 'v_ones()'


def valid(f, p):
    """The C expression of a valid value for parameter p of f."""
    if (f.name, p.name) in OVERRIDE:
        return OVERRIDE[(f.name, p.name)]
    t = p.base
    if p.handle:
        return handle_valid(f, p)
    if p.kind == 'KEYVAL':
        k = 'v_keyval_%s()' % ('comm' if family(f) not in ('type', 'win') else family(f))
        return 'v_intp(%s)' % k if p.pointer and p.dir != 'out' else 'v_out()' if p.pointer else k
    if t in HANDLE and (p.pointer or p.array):
        if p.dir == 'out':
            return 'v_out()'
        if p.array or f.name in ('MPI_Waitall', 'MPI_Testall'):
            return 'v_%s_array(%s)' % (HANDLE[t][0], handle_valid(f, p))
        return 'v_%s_ref(%s)' % (HANDLE[t][0], handle_valid(f, p))
    if p.kind == 'FUNCTION' or p.kind == 'POLYFUNCTION':
        return '(%s)v_fn' % p.type
    if p.kind == 'STATUS':
        return 'v_out()'
    if p.kind in ('BUFFER', 'C_BUFFER', 'C_BUFFER2', 'ATTRIBUTE_VAL', 'ATTRIBUTE_VAL_10',
                  'EXTRA_STATE', 'EXTRA_STATE2'):
        return 'v_buf()' if p.dir == 'in' or p.const else 'v_out()'
    if p.kind == 'ARGUMENT_LIST':
        return 'NULL'
    if p.kind == 'STRING' and p.dir == 'in':
        return '"k"'
    if p.pointer or p.array:
        if p.dir == 'out':
            return 'v_out()'
        if p.base in ('MPI_Aint', 'MPI_Count'):
            return 'v_%s_zeros()' % p.base[4:].lower() if 'displ' in p.name or 'starts' in p.name or \
                p.kind.startswith('POLYDISPLACEMENT') or p.kind == 'DISPLACEMENT' \
                else 'v_%s_ones()' % p.base[4:].lower()
        if p.dir == 'inout':
            return 'v_intp(0)'
        return int_array_valid(f, p)
    if p.kind in INT_VALID:
        return INT_VALID[p.kind]
    return '1'


# --- Invalid values: (label, C statement making the argument invalid, expected class or None
# for "any error"). `V` is the argument's variable. ------------------------------------------

def bad_handles(f, p, t, ref):
    kind, null, cls = HANDLE[t]
    out = []
    null_ok = p.name in rows[f.name].null_ok or (t == 'MPI_Info' and not ref)
    if ref and t == 'MPI_Request' and f.name in ('MPI_Wait', 'MPI_Test'):
        null_ok = True
    if ref and t == 'MPI_Request' and p.array and f.name not in ('MPI_Startall',):
        null_ok = True                # arrays of requests may hold null requests
    if not null_ok:
        out.append(('null handle', '%s = %s' % (ref or 'V', null), cls))
    out.append(('freed handle', '%s = freed_%s()' % (ref or 'V', kind), cls))
    wrong = '(%s)MPI_COMM_WORLD' % t if t != 'MPI_Comm' else '(MPI_Comm)MPI_INT'
    out.append(('wrong-kind handle', '%s = %s' % (ref or 'V', wrong), cls))
    return out


def invalids(f, p):
    out = []
    has = lambda t: any(q.handle == t for q in f.params)   # noqa: E731
    t = p.base
    if p.handle:
        out += bad_handles(f, p, t, None)
        if t == 'MPI_Datatype' and any(q.kind == 'BUFFER' for q in f.params) \
                and family(f) != 'type' and f.name not in ('MPI_Get_address', 'MPI_Free_mem'):
            out.append(('uncommitted datatype', 'V = v_uncommitted()', 'MPI_ERR_TYPE'))
        return out
    if t in HANDLE and (p.pointer or p.array):
        if p.dir == 'out':
            if p.name not in rows[f.name].nullable:
                out.append(('NULL output', 'V = NULL', 'MPI_ERR_ARG'))
            return out
        out.append(('NULL pointer', 'V = NULL', 'MPI_ERR_ARG'))
        out += bad_handles(f, p, t, '((%s *)V)[0]' % t)
        return out
    if p.kind in ('FUNCTION', 'POLYFUNCTION'):
        if 'errhandler' in p.name or p.name == 'user_fn':
            out.append(('NULL function', 'V = NULL', None))
        return out
    if p.kind == 'KEYVAL' and p.pointer and p.dir == 'inout':
        out.append(('NULL pointer', 'V = NULL', 'MPI_ERR_ARG'))
        out.append(('MPI_KEYVAL_INVALID', '*V = MPI_KEYVAL_INVALID', 'MPI_ERR_KEYVAL'))
        return out
    if p.pointer or p.array:
        if p.kind in NULLABLE and not (p.kind == 'STATUS' and p.dir != 'out'):
            if p.kind == 'BUFFER' and buffer_count(f, p):
                out.append(('NULL buffer', 'V = NULL', 'MPI_ERR_BUFFER'))
            return out
        if p.name in rows[f.name].nullable or (f.name, p.name) in MAY_BE_NULL:
            return out
        if p.kind in ('DIMENSION',) and p.dir == 'in' and f.name == 'MPI_Cart_shift':
            return out
        if p.kind == 'WEIGHT' and p.dir == 'in':
            return out                # NULL is neither MPI_UNWEIGHTED nor wrong: weights ignored
        out.append(('NULL %s' % ('output' if p.dir == 'out' else 'array' if p.array
                                 else 'pointer'), 'V = NULL',
                    'MPI_ERR_ARG' if p.dir in ('out', 'inout') and not p.array else None))
        if p.dir == 'in' and p.kind in COUNT_KINDS + ('POLYDTYPE_NUM_ELEM_PI',):
            out.append(('negative count in array', '((%s *)V)[0] = -1' % p.base,
                        'MPI_ERR_COUNT' if 'XFER' in p.kind else None))
        if p.dir == 'in' and p.kind == 'RANK' and 'ranks' in p.name:
            out.append(('rank >= size in array', '((int *)V)[0] = 1', 'MPI_ERR_RANK'))
        if p.kind == 'STRING' and p.dir == 'in' and f.name.startswith('MPI_Info_') \
                and p.name == 'key':
            out.append(('empty key', 'V = ""', 'MPI_ERR_INFO_KEY'))
            out.append(('key longer than MPI_MAX_INFO_KEY', 'V = long_key', 'MPI_ERR_INFO_KEY'))
        if p.kind == 'STRING' and p.dir == 'in' and f.name == 'MPI_Info_set' \
                and p.name == 'value':
            out.append(('value longer than MPI_MAX_INFO_VAL', 'V = long_value',
                        'MPI_ERR_INFO_VALUE'))
        return out
    if f.name.startswith('MPI_Status_'):
        return out                    # a status may hold any tag, source, count
    if p.kind in COUNT_KINDS:
        out.append(('negative count', 'V = -1', 'MPI_ERR_COUNT'))
    elif p.kind in ('RANK', 'RANK_NNI') and (has('MPI_Comm') or has('MPI_Win')):
        cls = 'MPI_ERR_ROOT' if p.name == 'root' else 'MPI_ERR_RANK'
        out.append(('negative rank', 'V = -7', cls))
        out.append(('rank >= size', 'V = 1', cls))
    elif p.kind == 'TAG':
        out.append(('negative tag', 'V = -7', 'MPI_ERR_TAG'))
        # No int is above an upper bound of INT_MAX (tag_ub + 1 would overflow): the most
        # negative one then, which is no wildcard either.
        out.append(('tag > MPI_TAG_UB', 'V = tag_ub < INT_MAX ? tag_ub + 1 : INT_MIN',
                    'MPI_ERR_TAG'))
    elif p.kind == 'RMA_DISPLACEMENT_NNI':
        out.append(('negative displacement', 'V = -1', 'MPI_ERR_DISP'))
    elif p.kind.endswith('_NNI') or p.kind in ('NUM_DIMS', 'COMM_SIZE', 'DEGREE', 'OFFSET',
                                               'INFO_VALUE_LENGTH', 'WINDOW_SIZE',
                                               'ALLOC_MEM_NUM_BYTES', 'ARRAY_LENGTH'):
        out.append(('negative', 'V = -1', None))
    elif p.kind == 'ARRAY_LENGTH_PI':
        out.append(('zero', 'V = 0', None))
    elif p.kind == 'KEYVAL':
        out.append(('MPI_KEYVAL_INVALID', 'V = MPI_KEYVAL_INVALID', 'MPI_ERR_KEYVAL'))
        out.append(('freed keyval', 'V = freed_keyval()', 'MPI_ERR_KEYVAL'))
        out.append(('made-up keyval', 'V = 123457', 'MPI_ERR_KEYVAL'))
    elif p.kind in ('LOCK_TYPE', 'UPDATE_MODE', 'ORDER', 'TYPECLASS', 'KEY_INDEX'):
        out.append(('out of range', 'V = 12345', None))
    elif p.kind == 'INDEX' and f.name in ('MPI_Cart_shift', 'MPI_Session_get_nth_pset'):
        out.append(('out of range', 'V = 12345', None))
        out.append(('negative', 'V = -1', None))
    elif p.kind == 'ACCESS_MODE':
        out.append(('no access mode', 'V = MPI_MODE_CREATE', 'MPI_ERR_AMODE'))
    elif p.kind in ('ERROR_CODE', 'ERROR_CLASS') and f.name != 'MPI_Comm_call_errhandler' \
            and not f.name.endswith('call_errhandler'):
        out.append(('made-up code', 'V = 123457', None))
    elif p.kind == 'POLYRMA_DISPLACEMENT':
        out.append(('zero', 'V = 0', None))
    return out


def buffer_count(f, p):
    """Whether choice buffer p has a count (or an array of counts) and a datatype (or an array
    of them) after it: the data at its offset 0 would be read or written."""
    ps = [q for q in f.params if q.name != '...']
    j = ps.index(p) + 1
    while j < len(ps) and ps[j].kind == 'BUFFER':
        j += 1
    if j >= len(ps) or ps[j].kind not in COUNT_KINDS or (ps[j].pointer and not ps[j].array):
        return False
    return any(q.base == 'MPI_Datatype' and q.dir == 'in' for q in ps[j + 1:j + 3])


def error_param(f):
    """The parameter whose error handler should see the function's errors, or None for
    MPI_COMM_SELF's ('file_null': MPI_FILE_NULL's; 'request': the core picks: the failing
    request's communicator, or the one a message was matched on)."""
    if rows[f.name].errors == 'file_null':
        return 'file_null'
    for t in ERROR_OBJECTS:
        for p in f.params:
            if p.handle == t:
                return p
    for t in ERROR_OBJECTS:
        for p in f.params:
            if p.base == t and p.pointer and not p.array and p.dir == 'inout':
                return p
    if any(p.kind in ('REQUEST', 'MESSAGE') and p.dir != 'out' for p in f.params):
        return 'request'
    return None


def ignored_in_place(f):
    """[(buffer, its label, the parameters ignored when it is MPI_IN_PLACE)], from the rules the
    bindings are generated with (one process: it is the root, so only MPI_IN_PLACE matters)."""
    f.impl = rows[f.name]
    out = []
    for b in ('sendbuf', 'recvbuf'):
        ps = [p for p in f.params if p.name != '...' and not p.pointer and not p.array
              and '%s != MPI_IN_PLACE' % b in bindings.insignificant(f, p)]
        if ps:
            out.append((b, ps))
    return out


def in_place_cases(f):
    """Cases (param, label, statement, expectation): the all-valid call with the buffer
    MPI_IN_PLACE ('in place'), then each invalid value of an argument that ignores
    ('ignored')."""
    out = []
    for b, ps in ignored_in_place(f):
        buf = next(p for p in f.params if p.name == b)
        out.append((buf, 'all valid, %s MPI_IN_PLACE' % b, 'V = MPI_IN_PLACE', 'in place'))
        for p in ps:
            for label, stmt, cls in invalids(f, p):
                stmt = 'a_%s = MPI_IN_PLACE; %s' % (b, stmt)
                out.append((p, '%s, %s MPI_IN_PLACE (ignored)' % (label, b), stmt, 'ignored'))
    return out


def c_function(i, f, cases):
    decl, expr = [], []
    sub = {}
    for p in f.params:
        if p.name == '...':
            continue
        v = valid(f, p)
        ty = p.type
        if p.decl.startswith('int ranges'):
            decl.append('    int (*a_%s)[3] = %s;\n' % (p.name, v))
        elif ty == 'char * *' or ty == 'char **':
            decl.append('    char **a_%s = %s;\n' % (p.name, v))
        else:
            decl.append('    %s a_%s = %s;\n' % (ty.replace('const ', ''), p.name, v)
                        if '*' in ty else '    %s a_%s = %s;\n' % (ty, p.name, v))
        expr.append('a_%s' % p.name)
        sub[p.name] = 'a_%s' % p.name
    out = ['static int f%d(int bad)   /* %s */\n{\n' % (i, f.name)]
    out += decl
    s = setup_for(f) % sub
    if s:
        out.append('    %s\n' % s)
    out.append('    switch (bad) {\n')
    for n, (p, label, stmt, cls) in enumerate(cases):
        out.append('    case %d: %s; break;   /* %s: %s */\n'
                   % (n, re.sub(r'\bV\b', 'a_' + p.name, stmt), p.name, label))
    out.append('    }\n')
    ep = error_param(f)
    if isinstance(ep, api.Param):
        h = 'a_%s' % ep.name if not ep.pointer else '(a_%s ? (void *)*a_%s : NULL)' % (ep.name, ep.name)
    else:
        h = {None: 'MPI_COMM_SELF', 'file_null': 'MPI_FILE_NULL'}.get(ep, 'NULL')
    out.append('    expect_handle = (const void *)%s;\n' % h)
    out.append('    seen = "none", seen_handle = NULL;\n')
    out.append('    return %s(%s);\n}\n\n' % (f.name, ', '.join(expr)))
    return ''.join(out)


all_cases = []          # (function index, case index or -1, function, param, label, class)
chunks = []
for i, f in enumerate(functions):
    cases = []
    for p in f.params:
        if p.name != '...':
            cases += [(p,) + c for c in invalids(f, p)]
    cases += in_place_cases(f)
    chunks.append(c_function(i, f, cases))
    all_cases.append((i, -1, f, None, 'all valid', 'MPI_SUCCESS'))
    all_cases += [(i, n, f, p, label, cls) for n, (p, label, stmt, cls) in enumerate(cases)]

prelude = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'bad_arg.h')).read()
src = prelude + ''.join(chunks) + '''
typedef int (*case_fn)(int);
static const case_fn table[] = {%s};

int main(int argc, char **argv)
{
    if (argc != 4)
        return 2;
    dir = argv[1];
    int fi = atoi(argv[2]), bad = atoi(argv[3]);
    start();
    int rc = table[fi](bad);
    finish(rc);
    return 0;
}
''' % ', '.join('f%d' % i for i in range(len(functions)))
open(os.path.join(tmp, 'bad_arg.c'), 'w').write(src)
exe = os.path.join(tmp, 'bad_arg')
subprocess.check_call([os.path.join(prefix, 'bin', 'mpicc'), '-std=gnu11', '-w', '-O0',
                       os.path.join(tmp, 'bad_arg.c'), '-o', exe])


def run(case):
    """(case, status, output): status 'ok', 'crash' or 'hang'."""
    i, n = case[0], case[1]
    d = os.path.join(tmp, 'c%d_%d' % (i, n))
    os.mkdir(d)
    try:
        r = subprocess.run([exe, d, str(i), str(n)], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors='replace', timeout=30)
    except subprocess.TimeoutExpired:
        return case, 'hang', ''
    m = re.search(r'^returned (-?\d+) class (-?\d+) handler (\S+) same (\d)$', r.stdout, re.M)
    if not m:
        return case, 'crash', 'status %d: %s' % (r.returncode, r.stdout.strip()[-300:])
    return case, 'ok', m.groups()


t0 = time.time()
with concurrent.futures.ThreadPoolExecutor(4) as pool:
    results = list(pool.map(run, all_cases))
base_ok, in_place_ok = {}, {}
for (i, n, f, p, label, cls), status, got in results:
    if n == -1:
        base_ok[i] = status == 'ok' and got[1] == '0'
    if cls == 'in place':             # the ignored cases after it expect its outcome
        ok = status == 'ok' and got[1] == '0'
    if cls == 'ignored':
        in_place_ok[(i, n)] = ok
wrong, expected, class_mismatch = [], [], 0
for (i, n, f, p, label, cls), status, got in results:
    what = '%s(%s: %s)' % (f.name, p.name if p else '-', label)
    complaint = None
    if status != 'ok':
        complaint = '%s: %s %s' % (what, status, got)
    elif n == -1:
        if not base_ok[i] and f.name not in BASELINE_FAILS:
            complaint = '%s: returned %s (class %s) with every argument valid' % (what, got[0], got[1])
        elif base_ok[i] and f.name in BASELINE_FAILS:
            complaint = '%s: succeeds now: take it out of BASELINE_FAILS' % what
    elif cls == 'in place':
        pass                          # MPI_IN_PLACE may be an error there; it must not crash
    elif cls == 'ignored':
        if in_place_ok[(i, n)] and got[1] != '0':
            complaint = '%s: returned class %s, not MPI_SUCCESS: the argument is ignored' % (
                what, got[1])
    elif got[1] == '0':
        complaint = '%s: returned MPI_SUCCESS' % what
    elif base_ok[i]:
        if cls and int(got[1]) != CLASSES[cls]:
            complaint = '%s: class %s, not %s' % (what, got[1], cls)
        ep = error_param(f)
        if complaint is None and ep != 'request' and not (isinstance(ep, api.Param) and ep is p):
            want = {None: 'comm', 'file_null': 'file'}.get(ep) if not isinstance(ep, api.Param) \
                else HANDLE[ep.base][0]
            if got[2] != want or got[3] != '1':
                complaint = '%s: error raised through the %s handler %s, not the %s%s' % (
                    what, got[2], '(of this object)' if got[3] == '1' else '(another object\'s)',
                    want, ' argument\'s' if isinstance(ep, api.Param) else
                    {None: ' of MPI_COMM_SELF', 'file_null': ' of MPI_FILE_NULL'}[ep])
    if complaint:
        (expected if f.name in EXPECTED_FAILURES else wrong).append(complaint)
for w in expected:
    print('expected failure:', w)
for w in wrong:
    print('wrong:', w)
print('%d functions, %d cases in %.1f s: %d wrong, %d expected failures'
      % (len(functions), len(all_cases), time.time() - t0, len(wrong), len(expected)))
sys.exit(1 if wrong else 0)
