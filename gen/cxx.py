"""The C++ binding (MPI-2 style) from src/bindings/cxx/members.tsv and api/constants.tsv.

Two namespaces with the same classes (the MPI-2 C++ profiling interface's "has a" scheme):
  PMPI::X  holds the C handle; its members (src/bindings/cxx/pmpi_*.cc) call the C PMPI_ functions.
  MPI::X   holds a PMPI::X object (pmpi_comm, pmpi_datatype, ...); each of its members forwards to
           that object and is generated here into an object file of its own
           (cxx/MPI_<Class>_<Fn>.cc),
           so a C++ profiling library can replace any one of them.
Outputs: cxx/mpicxx.h (both namespaces' declarations and constants), the forwarders,
cxx/constants.cc (the predefined objects of both namespaces) and cxx/files.mk (the list, for make).
"""
import re

import api

MEMBERS = api.ROOT + '/src/bindings/cxx/members.tsv'

# The namespace's integer typedefs (a return type outside the class needs its namespace).
TYPEDEFS = ('Aint', 'Offset', 'Count')
# Classes: name -> (base, C type, member that holds the handle, the null handle).
# Every communicator class shares the one handle of its root, Comm_Null.
CLASSES = {
    'Comm_Null': (None, 'MPI_Comm', 'comm', 'MPI_COMM_NULL'),
    'Comm': ('Comm_Null', 'MPI_Comm', 'comm', 'MPI_COMM_NULL'),
    'Intracomm': ('Comm', 'MPI_Comm', 'comm', 'MPI_COMM_NULL'),
    'Cartcomm': ('Intracomm', 'MPI_Comm', 'comm', 'MPI_COMM_NULL'),
    'Graphcomm': ('Intracomm', 'MPI_Comm', 'comm', 'MPI_COMM_NULL'),
    'Distgraphcomm': ('Intracomm', 'MPI_Comm', 'comm', 'MPI_COMM_NULL'),
    'Intercomm': ('Comm', 'MPI_Comm', 'comm', 'MPI_COMM_NULL'),
    'Datatype': (None, 'MPI_Datatype', 'datatype', 'MPI_DATATYPE_NULL'),
    'Request': (None, 'MPI_Request', 'request', 'MPI_REQUEST_NULL'),
    'Prequest': ('Request', 'MPI_Request', 'request', 'MPI_REQUEST_NULL'),
    'Grequest': ('Request', 'MPI_Request', 'request', 'MPI_REQUEST_NULL'),
    'Status': (None, 'MPI_Status', 'status', None),
    'Group': (None, 'MPI_Group', 'group', 'MPI_GROUP_NULL'),
    'Op': (None, 'MPI_Op', 'op', 'MPI_OP_NULL'),
    'Info': (None, 'MPI_Info', 'info', 'MPI_INFO_NULL'),
    'Errhandler': (None, 'MPI_Errhandler', 'errhandler', 'MPI_ERRHANDLER_NULL'),
    'Win': (None, 'MPI_Win', 'win', 'MPI_WIN_NULL'),
    'File': (None, 'MPI_File', 'file', 'MPI_FILE_NULL'),
}
# The root of each class (the class that holds the handle).
ROOT_OF = {}
for _c in CLASSES:
    _r = _c
    while CLASSES[_r][0]:
        _r = CLASSES[_r][0]
    ROOT_OF[_c] = _r
# In namespace MPI, the communicator root holds the richer PMPI::Comm (Comm_Null has no members).
HELD = {'Comm_Null': 'Comm'}

# The user's callback types (the standard's typedefs), written once for both namespaces: each
# namespace declares them in its namespace mica_fn as <Class>_<Name> (class "-": at namespace
# level, under their own name) and each class takes its own as a member typedef, so that
# namespace PMPI can name MPI::'s flavour before MPI's classes are complete.
CALLBACKS = [
    ('-', 'User_function', 'void', 'const void* invec, void* inoutvec, int len, const Datatype& datatype'),
    ('-', 'Datarep_extent_function', 'int', 'const Datatype& datatype, Aint& file_extent, void* extra_state'),
    ('-', 'Datarep_conversion_function', 'int', 'void* userbuf, Datatype& datatype, int count, void* filebuf, Offset position, void* extra_state'),
    ('Comm', 'Errhandler_function', 'void', 'Comm& comm, int* error_code, ...'),
    ('Comm', 'Copy_attr_function', 'int', 'const Comm& oldcomm, int comm_keyval, void* extra_state, void* attribute_val_in, void* attribute_val_out, bool& flag'),
    ('Comm', 'Delete_attr_function', 'int', 'Comm& comm, int comm_keyval, void* attribute_val, void* extra_state'),
    ('Datatype', 'Copy_attr_function', 'int', 'const Datatype& oldtype, int type_keyval, void* extra_state, void* attribute_val_in, void* attribute_val_out, bool& flag'),
    ('Datatype', 'Delete_attr_function', 'int', 'Datatype& type, int type_keyval, void* attribute_val, void* extra_state'),
    ('Win', 'Errhandler_function', 'void', 'Win& win, int* error_code, ...'),
    ('Win', 'Copy_attr_function', 'int', 'const Win& oldwin, int win_keyval, void* extra_state, void* attribute_val_in, void* attribute_val_out, bool& flag'),
    ('Win', 'Delete_attr_function', 'int', 'Win& win, int win_keyval, void* attribute_val, void* extra_state'),
    ('File', 'Errhandler_function', 'void', 'File& file, int* error_code, ...'),
    ('Grequest', 'Query_function', 'int', 'void* extra_state, Status& status'),
    ('Grequest', 'Free_function', 'int', 'void* extra_state'),
    ('Grequest', 'Cancel_function', 'int', 'void* extra_state, bool complete'),
]
# The predefined attribute callbacks of the classes with keyvals, defined in the header: they
# do in C++ what MPI_COMM_NULL_COPY_FN, MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN do in C.
KEYVAL_CLASSES = ('Comm', 'Datatype', 'Win')


def callback_typedefs():
    out = ['namespace mica_fn {\n']
    for cls, name, ret, params in CALLBACKS:
        if cls != '-':
            out.append('typedef %s %s_%s(%s);\n' % (ret, cls, name, params))
    out.append('}\n')
    for cls, name, ret, params in CALLBACKS:
        if cls == '-':
            out.append('typedef %s %s(%s);\n' % (ret, name, params))
    return ''.join(out)


def class_extras(cls):
    """Member typedefs of the callback types and the predefined attribute callbacks."""
    out = ['typedef mica_fn::%s_%s %s;' % (cls, name, name)
           for c, name, _, _ in CALLBACKS if c == cls]
    if cls in KEYVAL_CLASSES:
        copy = 'const %s&, int, void*, void* %%s, void* %%s, bool& %%s' % cls
        out.append('static int NULL_COPY_FN(%s) { flag = false; return MPI_SUCCESS; }'
                   % (copy % ('', '', 'flag')))
        out.append('static int DUP_FN(%s) { *static_cast<void**>(out) = in; flag = true; '
                   'return MPI_SUCCESS; }' % (copy % ('in', 'out', 'flag')))
        out.append('static int NULL_DELETE_FN(%s&, int, void*, void*) { return MPI_SUCCESS; }'
                   % cls)
    return out


def mpi_flavour(decl):
    """A member's declaration with the MPI:: flavour of its callback types (for namespace PMPI),
    or None when it takes no callback."""
    out = re.sub(r'\b(\w+)::(\w+_function)\*', r'MPI::mica_fn::\1_\2*', decl)
    out = re.sub(r'(?<![:\w])((?:User|Datarep_\w+)_function)\*', r'MPI::\1*', out)
    return out if out != decl else None

# Predefined objects: C name -> (class, C++ name); the C++ names of MPI-2 where they differ.
RENAMED = {
    'MPI_CXX_BOOL': 'BOOL', 'MPI_CXX_FLOAT_COMPLEX': 'COMPLEX',
    'MPI_CXX_DOUBLE_COMPLEX': 'DOUBLE_COMPLEX',
    'MPI_CXX_LONG_DOUBLE_COMPLEX': 'LONG_DOUBLE_COMPLEX',
    'MPI_COMPLEX': 'F_COMPLEX', 'MPI_DOUBLE_COMPLEX': 'F_DOUBLE_COMPLEX',
    'MPI_2INT': 'TWOINT', 'MPI_2REAL': 'TWOREAL', 'MPI_2DOUBLE_PRECISION': 'TWODOUBLE_PRECISION',
    'MPI_2INTEGER': 'TWOINTEGER',
}
OBJECT_CLASS = {'MPI_Datatype': 'Datatype', 'MPI_Op': 'Op', 'MPI_Group': 'Group',
                'MPI_Info': 'Info', 'MPI_Errhandler': 'Errhandler', 'MPI_Request': 'Request',
                'MPI_Win': 'Win', 'MPI_File': 'File'}
# Predefined objects that are not const: a program sets the error handler of FILE_NULL (the one
# File::Open and File::Delete raise their errors through) and of WIN_NULL, and names predefined
# datatypes (MPI::INT.Set_name), as with MPICH.
MUTABLE = ('MPI_FILE_NULL', 'MPI_WIN_NULL')
COMMS = {'MPI_COMM_WORLD': 'Intracomm', 'MPI_COMM_SELF': 'Intracomm', 'MPI_COMM_NULL': 'Comm_Null'}
# Constants whose C++ names are common macros (autoconf's confdefs.h defines VERSION, which
# broke every configure test that includes mpi.h): declared only where no macro has the name.
MACRO_PRONE = ('VERSION', 'SUBVERSION')
# Integer constants left out: the MPI_T interface, Fortran's, and the names <stdio.h> defines.
SKIP_INT = re.compile(r'^MPI_(T_|F_|SEEK_|ABI_)|^MPIX_')


class Member:
    def __init__(self, cls, decl, index):
        self.cls = None if cls == '-' else cls
        self.decl = decl
        m = re.match(r'(static\s+)?(.+?)\s*\b(\w+)\((.*)\)\s*(const)?$', decl)
        if not m:
            raise SystemExit('members.tsv: cannot parse %r' % decl)
        self.static, self.ret, self.name, params, self.const = m.groups()
        self.params = [p.strip() for p in params.split(',')] if params.strip() else []
        self.index = index

    def file(self):
        suffix = '' if self.index == 1 else '_%d' % self.index
        return 'MPI_%s_%s%s' % (self.cls or 'ns', self.name, suffix)


def param_parts(p):
    """(type without name, name, is array) of one parameter declaration."""
    m = re.match(r'(.*?)\s*\b(\w+)\s*(\[\])?(\[\d+\])?$', p)
    return m.group(1), m.group(2), bool(m.group(3))


def class_in(t):
    """The binding class a parameter's type names, if any."""
    base = re.sub(r'\bconst\b|[&*]', ' ', t).split()
    return base[0] if base and base[0] in CLASSES else None


def forward_arg(p, friend=True):
    """How an MPI:: forwarder passes one of its parameters to the PMPI:: function (a namespace
    function is no friend of the classes: it passes a PMPI object made from the C handle)."""
    if p == '...':
        return None
    t, name, array = param_parts(p)
    c = class_in(t)
    if not c:
        return name
    if not friend and not array:
        return 'PMPI::%s(static_cast<%s>(%s))' % (c, CLASSES[c][1], name)
    if array:
        return 'reinterpret_cast<%sPMPI::%s*>(%s)' % ('const ' if 'const' in t else '', c, name)
    held = '%s.pmpi_%s' % (name, CLASSES[c][2])
    if ROOT_OF[c] == 'Comm_Null' and c not in ('Comm_Null', 'Comm'):
        return 'PMPI::%s(%s)' % (c, held)
    return held


def pmpi_view(cls):
    """The expression an MPI::cls member calls its PMPI counterpart on."""
    held = 'pmpi_' + CLASSES[cls][2]
    if cls in ('Comm', 'Comm_Null') or cls == ROOT_OF[cls]:
        return held
    return 'PMPI::%s(%s)' % (cls, held)


def forwarder(m):
    args = [forward_arg(p, m.cls is not None) for p in m.params]
    args = [a for a in args if a is not None]
    if m.cls is None:
        callee = 'PMPI::%s' % m.name
    elif m.static:
        callee = 'PMPI::%s::%s' % (m.cls, m.name)
    else:
        callee = '%s.%s' % (pmpi_view(m.cls), m.name)
    call = '%s(%s)' % (callee, ', '.join(args))
    clone = re.match(r'(\w+)&$', m.ret)
    if clone and clone.group(1) in CLASSES:
        # Clone: the PMPI:: member returns a new PMPI object; hand back a new MPI one instead.
        c = clone.group(1)
        body = ('PMPI::%s* p = &%s;\n    MPI::%s* c = new MPI::%s(*p);\n    delete p;\n'
                '    return *c;' % (c, call, c, c))
    elif m.ret == 'void':
        body = '%s;' % call
    elif m.ret in CLASSES:
        body = 'return %s(%s);' % (m.ret, call)
    else:
        body = 'return %s;' % call
    scope = 'MPI::%s::' % m.cls if m.cls else 'MPI::'
    # A variadic function (Pcontrol) cannot pass its variable arguments on; they are dropped.
    params = ', '.join(m.params)
    # The return type precedes the qualified name: it is looked up outside the class.
    ret = 'MPI::' + m.ret if m.ret.rstrip('&') in CLASSES or m.ret in TYPEDEFS else m.ret
    head = '%s %s%s(%s)%s' % (ret, scope, m.name, params, ' const' if m.const else '')
    return ('// Generated by gen/cxx.py from src/bindings/cxx/members.tsv: an MPI:: function that\n'
            '// forwards to its PMPI:: twin, alone in its object file so that a C++ profiling\n'
            '// library can replace exactly this one.\n'
            '#include "mpicxx.h"\n\n%s\n{\n    %s\n}\n' % (head, body))


def load_members():
    members, seen = [], {}
    for line in open(MEMBERS):
        if line.startswith('#') or not line.strip():
            continue
        cls, decl = line.rstrip('\n').split('\t')
        key = (cls, re.search(r'(\w+)\(', decl).group(1))
        seen[key] = seen.get(key, 0) + 1
        members.append(Member(cls, decl, seen[key]))
    return members


def class_decl(ns, cls, members):
    base, ctype, short, null = CLASSES[cls]
    root = ROOT_OF[cls]
    out = []
    head = 'class %s%s {' % (cls, ' : public %s' % base if base else '')
    out.append(head)
    out.append('public:')
    if ns == 'PMPI':
        if not base:
            init = '()' if null is None else '(%s)' % null
            out.append('    %s() : mpi_%s%s {}' % (cls, short, init))
            if cls == 'Status':
                out.append('    %s(const MPI_Status& s) : mpi_status(s) {}' % cls)
                out.append('    operator MPI_Status&() { return mpi_status; }')
                out.append('    operator const MPI_Status&() const { return mpi_status; }')
            else:
                out.append('    %s(%s h) : mpi_%s(h) {}' % (cls, ctype, short))
                out.append('    operator %s() const { return mpi_%s; }' % (ctype, short))
                out.append('    bool operator==(const %s& o) const { return mpi_%s == o.mpi_%s; }'
                           % (cls, short, short))
                out.append('    bool operator!=(const %s& o) const { return mpi_%s != o.mpi_%s; }'
                           % (cls, short, short))
        else:
            out.append('    %s() {}' % cls)
            out.append('    %s(%s h) : %s(h) {}' % (cls, ctype, base))
            out.append('    %s(const %s& o) : %s(o) {}' % (cls, root, base))
    else:
        held = 'PMPI::%s' % HELD.get(cls, cls)
        if not base:
            out.append('    %s() : pmpi_%s() {}' % (cls, short))
            if cls == 'Status':
                out.append('    %s(const MPI_Status& s) : pmpi_status(s) {}' % cls)
                out.append('    %s(const PMPI::Status& s) : pmpi_status(s) {}' % cls)
                out.append('    operator MPI_Status&() { return pmpi_status; }')
                out.append('    operator const MPI_Status&() const { return pmpi_status; }')
            else:
                out.append('    %s(%s h) : pmpi_%s(h) {}' % (cls, ctype, short))
                out.append('    %s(const PMPI::%s& p) : pmpi_%s(p) {}' % (cls, root, short))
                out.append('    operator %s() const { return pmpi_%s; }' % (ctype, short))
                out.append('    bool operator==(const %s& o) const { return pmpi_%s == o.pmpi_%s; }'
                           % (cls, short, short))
                out.append('    bool operator!=(const %s& o) const { return pmpi_%s != o.pmpi_%s; }'
                           % (cls, short, short))
        else:
            out.append('    %s() {}' % cls)
            out.append('    %s(%s h) : %s(h) {}' % (cls, ctype, base))
            out.append('    %s(const PMPI::%s& p) : %s(p) {}' % (cls, root, base))
            out.append('    %s(const %s& o) : %s(o) {}' % (cls, root, base))
    for extra in class_extras(cls):
        out.append('    ' + extra)
    for m in members:
        out.append('    %s;' % m.decl)
        # PMPI:: also takes the MPI:: flavour of a callback, which the MPI:: forwarder passes on.
        flavour = mpi_flavour(m.decl) if ns == 'PMPI' else None
        if flavour:
            out.append('    %s;' % flavour)
    if not base:
        out.append('protected:')
        # Every class of the namespace reaches every other's handle (MPI:: forwarders pass the
        # PMPI objects on; PMPI:: members pass the C handles on).
        for other in CLASSES:
            if other != cls:
                out.append('    friend class %s;' % other)
        if ns == 'PMPI':
            out.append('    %s mpi_%s;' % (ctype, short))
        else:
            out.append('    %s pmpi_%s;' % (held, short))
    out.append('};')
    return '\n'.join(out) + '\n'


def constants():
    """(int constants [(C++ name, C name)], objects [(class, C++ name, C name, const?)])."""
    ints, objects = [], []
    for name, value in api.constants():
        if re.match(r'^(int\s+)?-?\d+$', value) and not SKIP_INT.match(name):
            ints.append((name[4:], name))
            continue
        m = re.match(r'\(\((MPI_\w+)\)0x', value)
        if m and m.group(1) in OBJECT_CLASS:
            cls = OBJECT_CLASS[m.group(1)]
            objects.append((cls, RENAMED.get(name, name[4:]), name,
                            name not in MUTABLE and cls != 'Datatype'))
        elif name in COMMS:
            objects.append((COMMS[name], name[4:], name, name == 'MPI_COMM_NULL'))
        elif re.match(r'^MPI_\w+$', value) and objects and any(o[2] == value for o in objects):
            cls = [o for o in objects if o[2] == value][0][0]
            objects.append((cls, RENAMED.get(name, name[4:]), name, cls != 'Datatype'))
    return ints, objects


HEADER_TOP = '''/* mpicxx.h: Mica's C++ binding: the MPI-2 C++ classes, MPI-2 C++ profiling interface.
 * Generated by gen/cxx.py from src/bindings/cxx/members.tsv: do not edit.
 * Namespace PMPI holds the real implementation (calling the C PMPI_ functions); every class of
 * namespace MPI holds a PMPI object and forwards each member to it, from a separate object file:
 * a C++ profiling library defines the MPI:: members it observes and calls the PMPI:: ones.
 * mpi.h includes this file for C++ unless MICA_SKIP_MPICXX is defined. */
#ifndef MICA_MPICXX_H
#define MICA_MPICXX_H
#include "mpi.h"

/* MPI::SEEK_SET, SEEK_CUR, SEEK_END: the C headers define these names as macros, which would
 * turn MPI::SEEK_SET into MPI::0. The headers that define them come first (their guards keep
 * them from doing it again later); their macros give way to constants of the same values. */
#include <stdio.h>
#include <fcntl.h>
#ifdef SEEK_SET
enum { mica_stdio_seek_set = SEEK_SET, mica_stdio_seek_cur = SEEK_CUR,
       mica_stdio_seek_end = SEEK_END };
#undef SEEK_SET
#undef SEEK_CUR
#undef SEEK_END
const int SEEK_SET = mica_stdio_seek_set;
const int SEEK_CUR = mica_stdio_seek_cur;
const int SEEK_END = mica_stdio_seek_end;
#endif

namespace MPI {
typedef MPI_Aint Aint;
typedef MPI_Offset Offset;
%s%s}

'''


def namespace(ns, members, ints, objects):
    out = ['namespace %s {\n' % ns]
    out.append('typedef MPI_Aint Aint;\ntypedef MPI_Offset Offset;\ntypedef MPI_Count Count;\n')
    out.append(''.join('class %s;\n' % c for c in CLASSES))
    if ns == 'PMPI':
        out.append(callback_typedefs())
        out.append('''
/* What ERRORS_THROW_EXCEPTIONS throws: MPI::Exception, whose base this is. */
class Exception {
public:
    explicit Exception(int error_code);
    int Get_error_code() const { return code_; }
    int Get_error_class() const { return class_; }
    const char* Get_error_string() const { return string_; }
protected:
    int code_, class_;
    char string_[MPI_MAX_ERROR_STRING];
};
''')
    else:
        out.append('''
/* Thrown by the PMPI layer when a call fails under ERRORS_THROW_EXCEPTIONS ("is a" PMPI::Exception:
 * a value without a handle; catch either). */
class Exception : public PMPI::Exception {
public:
    explicit Exception(int error_code) : PMPI::Exception(error_code) {}
};
''')
    out.append('\n')
    for cls in CLASSES:
        out.append(class_decl(ns, cls, [m for m in members if m.cls == cls]))
        out.append('\n')
    for m in members:
        if m.cls is None:
            out.append('%s;\n' % m.decl)
            flavour = mpi_flavour(m.decl) if ns == 'PMPI' else None
            if flavour:
                out.append('%s;\n' % flavour)
    out.append('\n')
    for cxx, c in ints:
        if cxx in MACRO_PRONE:
            out.append('#ifndef %s\nconst int %s = %s;\n#endif\n' % (cxx, cxx, c))
            continue
        out.append('const int %s = %s;\n' % (cxx, c))
    out.append('void* const BOTTOM = MPI_BOTTOM;\nvoid* const IN_PLACE = MPI_IN_PLACE;\n')
    out.append('const int SEEK_SET = MPI_SEEK_SET;\nconst int SEEK_CUR = MPI_SEEK_CUR;\n'
               'const int SEEK_END = MPI_SEEK_END;\n')
    out.append('const char** const ARGV_NULL = 0;\nint* const ERRCODES_IGNORE = 0;\n'
               'int* const UNWEIGHTED = MPI_UNWEIGHTED;\nint* const WEIGHTS_EMPTY = MPI_WEIGHTS_EMPTY;\n')
    out.append('\n')
    for cls, cxx, c, const in objects:
        out.append('extern %s%s %s;\n' % ('const ' if const else '', cls, cxx))
    out.append('extern const Errhandler ERRORS_THROW_EXCEPTIONS;\n')
    out.append('\n} /* namespace %s */\n\n' % ns)
    return ''.join(out)


def constants_cc(objects):
    out = ['// Generated by gen/cxx.py: the predefined objects of namespaces PMPI and MPI, in an\n'
           '// object file of their own (apart from the MPI:: functions a profiling library\n'
           '// replaces).\n'
           '#include "mpicxx.h"\n#include "cxx.h"\n\n']
    for ns in ('PMPI', 'MPI'):
        for cls, cxx, c, const in objects:
            out.append('%s%s::%s %s::%s(%s);\n' % ('const ' if const else '', ns, cls, ns, cxx, c))
        out.append('const %s::Errhandler %s::ERRORS_THROW_EXCEPTIONS(mica_cxx_throw_handle());\n'
                   % (ns, ns))
    return ''.join(out)


def generate():
    members = load_members()
    ints, objects = constants()
    top = HEADER_TOP % (''.join('class %s;\n' % c for c in CLASSES), callback_typedefs())
    header = [top, namespace('PMPI', members, ints, objects),
              namespace('MPI', members, ints, objects), '#endif /* MICA_MPICXX_H */\n']
    files = {'cxx/mpicxx.h': ''.join(header), 'cxx/constants.cc': constants_cc(objects)}
    for m in members:
        files['cxx/%s.cc' % m.file()] = forwarder(m)
    files['cxx/files.mk'] = 'CXX_FUNCS := %s\n' % ' '.join(m.file() for m in members)
    return files
