#!/usr/bin/env python3
"""Derive Mica's API table (api/) from the MPI standard's data in ../shared/mpi-standard.

A maintainer's tool, run by hand when the standard's data changes; the build never runs it.
The output holds facts only: names, C signatures, parameter kinds and directions.

  functions.tsv  one line per C function: name, return type, parameters, kinds, since, note,
                 and the mpi_f08 facts (no binding; ASYNCHRONOUS buffers; parameters without INTENT)
  constants.tsv  the MPI 5.0 standard ABI's constants, as given
  types.h        the MPI 5.0 standard ABI's C type declarations, as given
"""
import json, os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, '..', '..', 'shared', 'mpi-standard')
out = os.path.join(here, '..', 'api')

forum = json.load(open(os.path.join(src, 'apis-mpi4.0.json')))

# Handle conversions of the C/Fortran interlanguage chapter: in the MPI Forum database but not
# in the standard-ABI header (the ABI adds *_toint/*_fromint instead). MPI users rely on them.
HANDLES = [('Comm', 'comm'), ('Errhandler', 'errhandler'), ('File', 'file'), ('Group', 'group'),
           ('Info', 'info'), ('Message', 'message'), ('Op', 'op'), ('Request', 'request'),
           ('Session', 'session'), ('Type', 'datatype'), ('Win', 'win')]
CTYPE = {'Type': 'MPI_Datatype'}
extras = []
for obj, arg in HANDLES:
    t = CTYPE.get(obj, 'MPI_' + obj)
    extras.append(('MPI_%s_c2f' % obj, 'MPI_Fint', '%s %s' % (t, arg), ''))
    extras.append(('MPI_%s_f2c' % obj, t, 'MPI_Fint %s' % arg, ''))
extras += [
    ('MPI_Status_c2f', 'int', 'const MPI_Status *c_status, MPI_Fint *f_status', ''),
    ('MPI_Status_f2c', 'int', 'const MPI_Fint *f_status, MPI_Status *c_status', ''),
    ('MPI_Status_c2f08', 'int', 'const MPI_Status *c_status, MPI_F08_status *f08_status', ''),
    ('MPI_Status_f082c', 'int', 'const MPI_F08_status *f08_status, MPI_Status *c_status', ''),
    ('MPI_Status_f082f', 'int', 'const MPI_F08_status *f08_status, MPI_Fint *f_status', ''),
    ('MPI_Status_f2f08', 'int', 'const MPI_Fint *f_status, MPI_F08_status *f08_status', ''),
]

# Kinds by analogy for parameters the 4.0 database does not describe (functions of 4.1 and 5.0,
# and the few whose C parameters differ): first by C type, then by parameter name.
BY_TYPE = {
    'MPI_Comm': 'COMMUNICATOR', 'MPI_Datatype': 'DATATYPE', 'MPI_Errhandler': 'ERRHANDLER',
    'MPI_File': 'FILE', 'MPI_Group': 'GROUP', 'MPI_Info': 'INFO', 'MPI_Message': 'MESSAGE',
    'MPI_Op': 'OPERATION', 'MPI_Request': 'REQUEST', 'MPI_Session': 'SESSION', 'MPI_Win': 'WINDOW',
    'MPI_Status': 'STATUS', 'MPI_F08_status': 'F08_STATUS', 'char': 'STRING',
}
BY_NAME = {
    'tag': 'TAG', 'source': 'RANK', 'dest': 'RANK', 'errorclass': 'ERROR_CLASS',
    'errorcode': 'ERROR_CODE', 'error': 'ERROR_CODE', 'buffer': 'BUFFER', 'buf': 'BUFFER',
    'size': 'NUM_BYTES', 'count': 'ARRAY_LENGTH', 'incount': 'ARRAY_LENGTH',
    'outcount': 'ARRAY_LENGTH', 'indx': 'INDEX', 'index': 'INDEX', 'flag': 'LOGICAL',
    'array_of_indices': 'INDEX', 'abi_major': 'VERSION', 'abi_minor': 'VERSION',
    'logical_size': 'NUM_BYTES', 'logical_true': 'C_BUFFER', 'logical_false': 'C_BUFFER',
    'is_set': 'LOGICAL', 'value_index': 'DATATYPE', 'f_status': 'F90_STATUS',
    'c_status': 'STATUS', 'f08_status': 'F08_STATUS', 'string': 'STRING', 'datatype': 'DATATYPE',
    'hw_info': 'INFO', 'type_class': 'TYPECLASS', 'value_type': 'DATATYPE',
    'index_type': 'DATATYPE', 'array_of_statuses': 'STATUS', 'array_of_requests': 'REQUEST',
}


def split_params(params):
    if params == 'void':
        return []
    return [p.strip() for p in params.split(',')]


def param_name(decl):
    if decl == '...':
        return '...'
    return re.sub(r'\[.*\]', '', decl).split()[-1].lstrip('*')


def guess(decl, fname):
    """Kind and direction of a parameter the database does not describe."""
    if decl == '...':
        return 'VARARGS', 'in'
    name = param_name(decl)
    base = re.sub(r'\b(const)\b|[*\[\]]', ' ', decl).split()[0]
    pointer = '*' in decl or '[' in decl
    kind = BY_NAME.get(name) if name in ('tag', 'source', 'dest', 'indx', 'flag') else None
    kind = kind or BY_TYPE.get(base) or BY_NAME.get(name) or 'OTHER'
    if kind == 'STATUS' and fname.startswith('MPI_Status_'):
        direction = 'in' if 'const' in decl else 'inout'
    elif pointer and 'const' not in decl and base not in ('void', 'char') or (
            base == 'void' and decl.count('*') == 1 and 'const' not in decl and kind == 'BUFFER'):
        direction = 'out'
    else:
        direction = 'in'
    if fname.endswith('_fromint') or fname.endswith('_f2c'):
        kind = 'INDEX'  # an integer handle: validated by the conversion itself
    return kind, direction


# Newer functions that take an older one's parameters after a leading handle (or none).
ANALOGY = {
    'MPI_Comm_attach_buffer': 'MPI_Buffer_attach', 'MPI_Session_attach_buffer': 'MPI_Buffer_attach',
    'MPI_Comm_detach_buffer': 'MPI_Buffer_detach', 'MPI_Session_detach_buffer': 'MPI_Buffer_detach',
    'MPI_Request_get_status_all': 'MPI_Testall', 'MPI_Request_get_status_any': 'MPI_Testany',
    'MPI_Request_get_status_some': 'MPI_Testsome',
}


def by_analogy(name, decls):
    base = name[:-2] if name.endswith('_c') else name
    if base not in ANALOGY:
        return None
    old = ANALOGY[base] + name[len(base):]
    kinds = describe(old, ', '.join(decls[-len(split_params(SIGS[old])):]))[0]
    kinds = [k.replace('REQUEST:inout', 'REQUEST:in') for k in kinds]
    return ['%s:%s' % guess(d, name) for d in decls[:len(decls) - len(kinds)]] + kinds


def describe(name, params):
    """Kinds and directions, from the MPI Forum database where it describes this function."""
    key = name.lower()
    large = key.endswith('_c') and key not in forum
    if large:
        key = key[:-2]
    decls = split_params(params)
    entry = forum.get(key)
    kinds = [] if entry else by_analogy(name, decls) or []
    if entry:
        ps = [p for p in entry['parameters'] if 'c_parameter' not in p['suppress']
              and (large or not p['large_only'])]
        if len(ps) != len(decls):
            entry = None
    for i, decl in enumerate(decls[len(kinds):] if not entry else decls):
        if entry:
            p = ps[i]
            kinds.append('%s:%s' % (p['kind'], p['param_direction']))
        else:
            kinds.append('%s:%s' % guess(decl, name))
    return kinds, ('4.0' if entry else '5.0')


def fortran_facts(name):
    """The mpi_f08 facts of a function: `nof08` if the standard gives it no mpi_f08 binding,
    `async:P` for each ASYNCHRONOUS parameter, `nointent:P` for each declared without INTENT.
    Functions newer than the database take their analogue's (MPI_Comm_attach_buffer is
    MPI_Buffer_attach's); the large-count _c forms their base function's."""
    key = name.lower()
    base = key[:-2] if key.endswith('_c') and key not in forum else key
    old = ANALOGY.get(name[:-2] if name.endswith('_c') else name)
    entry = forum.get(base) or (old and forum.get(old.lower()))
    if name.startswith('MPI_T_') or name.endswith(('_toint', '_fromint')):
        return ['nof08']
    if not entry:
        return []
    out = [] if entry['attributes']['f08_expressible'] else ['nof08']
    for p in entry['parameters']:
        if p['asynchronous']:
            out.append('async:' + p['name'])
        if 'f08_intent' in p['suppress']:
            out.append('nointent:' + p['name'])
    return out


rows = []
SIGS = {}
for line in open(os.path.join(src, 'c-functions-mpi5.0.tsv')):
    if line.startswith('#'):
        continue
    name, ret, params, note = line.rstrip('\n').split('\t')
    rows.append((name, ret, params, note, 'abi'))
    SIGS[name] = params
for name, ret, params, note in extras:
    rows.append((name, ret, params, note, 'c2f'))

with open(os.path.join(out, 'functions.tsv'), 'w') as f:
    f.write('# Every C function of MPI 5.0, derived by tools/derive-api.py from the MPI Forum\'s data.\n'
            '# name\treturn\tparameters\tkinds (KIND:direction per parameter)\tsince\tset\tnote\tf08\n'
            '# since: 4.0 = described by the MPI 4.0 API database, 5.0 = newer (kinds by analogy).\n'
            '# set: abi = in the MPI 5.0 standard-ABI header; c2f = C/Fortran handle conversions.\n'
            '# f08: nof08 = no mpi_f08 binding; async:P = P is ASYNCHRONOUS; nointent:P = no INTENT.\n')
    for name, ret, params, note, origin in sorted(rows):
        kinds, since = describe(name, params)
        f.write('\t'.join([name, ret, params, ' '.join(kinds) or '-', since, origin, note,
                           ' '.join(fortran_facts(name)) or '-']) + '\n')

for fn in ('c-constants-mpi5.0-abi.tsv', 'c-types-mpi5.0-abi.txt'):
    text = open(os.path.join(src, fn)).read()
    dest = {'c-constants-mpi5.0-abi.tsv': 'constants.tsv', 'c-types-mpi5.0-abi.txt': 'types.h'}[fn]
    with open(os.path.join(out, dest), 'w') as f:
        f.write(text)
print('api/: %d functions' % len(rows))
