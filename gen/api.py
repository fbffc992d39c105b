"""The project's API table (api/), loaded for the generators."""
import os
import re

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')

# Handle types: C type -> (kind of object, the name used in messages, the null handle, the
# error class of a bad one). The core's tables of kinds are generated from this (gen/tables.py).
HANDLES = {
    'MPI_Comm': ('comm', 'communicator', 'MPI_COMM_NULL', 'MPI_ERR_COMM'),
    'MPI_Datatype': ('type', 'datatype', 'MPI_DATATYPE_NULL', 'MPI_ERR_TYPE'),
    'MPI_Errhandler': ('errhandler', 'error handler', 'MPI_ERRHANDLER_NULL', 'MPI_ERR_ERRHANDLER'),
    'MPI_File': ('file', 'file', 'MPI_FILE_NULL', 'MPI_ERR_FILE'),
    'MPI_Group': ('group', 'group', 'MPI_GROUP_NULL', 'MPI_ERR_GROUP'),
    'MPI_Info': ('info', 'info object', 'MPI_INFO_NULL', 'MPI_ERR_INFO'),
    'MPI_Message': ('message', 'message', 'MPI_MESSAGE_NULL', 'MPI_ERR_REQUEST'),
    'MPI_Op': ('op', 'operation', 'MPI_OP_NULL', 'MPI_ERR_OP'),
    'MPI_Request': ('request', 'request', 'MPI_REQUEST_NULL', 'MPI_ERR_REQUEST'),
    'MPI_Session': ('session', 'session', 'MPI_SESSION_NULL', 'MPI_ERR_SESSION'),
    'MPI_Win': ('win', 'window', 'MPI_WIN_NULL', 'MPI_ERR_WIN'),
}


class Param:
    def __init__(self, decl, kind):
        self.decl = decl
        self.kind, self.dir = kind.split(':') if kind != '-' else ('OTHER', 'in')
        if decl == '...':
            self.name, self.type, self.base = '...', '...', '...'
            self.pointer = self.array = False
            return
        self.name = re.sub(r'\[.*\]', '', decl).split()[-1].lstrip('*')
        self.array = '[' in decl
        self.pointer = '*' in decl
        self.const = decl.startswith('const ')
        self.base = re.sub(r'\bconst\b|[*\[\]]', ' ', decl).split()[0]
        # The declaration without its name: the type, for casts and prototypes.
        self.type = re.sub(r'\b%s\b' % re.escape(self.name), '', decl, count=1).strip()
        self.type = self.type.replace(' []', ' *').replace('[]', ' *').replace('  ', ' ')

    @property
    def handle(self):
        """The handle's C type when this parameter passes one handle by value."""
        if self.base in HANDLES and not self.pointer and not self.array:
            return self.base
        return None


class Function:
    def __init__(self, name, ret, params, kinds, since, origin, note, f08='-'):
        self.name, self.ret, self.since, self.set, self.note = name, ret, since, origin, note
        # The mpi_f08 facts (tools/derive-api.py): has a binding, ASYNCHRONOUS and INTENT-less
        # parameters.
        facts = f08.split() if f08 != '-' else []
        self.f08 = 'nof08' not in facts
        self.asynchronous = {t[6:] for t in facts if t.startswith('async:')}
        self.nointent = {t[9:] for t in facts if t.startswith('nointent:')}
        decls = [] if params == 'void' else [p.strip() for p in params.split(',')]
        kinds = kinds.split() if kinds != '-' else []
        self.params = [Param(d, k) for d, k in zip(decls, kinds)]
        self.proto_params = params
        self.varargs = bool(self.params) and self.params[-1].name == '...'

    @property
    def core_name(self):
        """The core entry point that implements this function: MPI_Comm_rank -> mica_comm_rank."""
        return 'mica_' + self.name[4:].lower()

    def args(self):
        return ', '.join(p.name for p in self.params if p.name != '...')


def functions():
    out = []
    for line in open(os.path.join(ROOT, 'api', 'functions.tsv')):
        if line.startswith('#'):
            continue
        out.append(Function(*line.rstrip('\n').split('\t')))
    return out


def constants():
    """(name, C value) pairs of the ABI; integer constants are 'int N' in the table."""
    out = []
    for line in open(os.path.join(ROOT, 'api', 'constants.tsv')):
        if line.startswith('#') or not line.strip():
            continue
        name, value = line.rstrip('\n').split('\t')
        out.append((name, value))
    return out


class Impl:
    """A row of src/bindings/c/impl.tsv (its opening comment describes the columns)."""
    COLUMNS = ('mode', 'errors', 'null_ok', 'nullable', 'rooted', 'in_place', 'lock')

    def __init__(self, fields, where):
        if len(fields) != 1 + len(self.COLUMNS):
            raise SystemExit('%s: %d columns expected' % (where, 1 + len(self.COLUMNS)))
        values = [None if v == '-' else v for v in fields[1:]]
        self.mode, self.errors, null_ok, nullable, self.rooted, self.in_place, self.lock = values
        self.null_ok = set(null_ok.split(',')) if null_ok else set()
        self.nullable = set(nullable.split(',')) if nullable else set()
        if self.errors not in (None, 'file_null') \
                or self.rooted not in (None, 'gather', 'scatter', 'reduce') \
                or self.in_place not in (None, 'sendbuf', 'recvbuf') \
                or self.lock not in (None, 'none'):
            raise SystemExit('%s: unknown errors, rooted, in_place or lock value' % where)


def implementation():
    """Each implemented function's row of src/bindings/c/impl.tsv, by name."""
    out = {}
    path = os.path.join(ROOT, 'src', 'bindings', 'c', 'impl.tsv')
    for n, line in enumerate(open(path), 1):
        fields = line.split('#')[0].split()
        if fields:
            out[fields[0]] = Impl(fields, 'impl.tsv:%d' % n)
    return out


def implemented():
    """How the C binding reaches the core (its mode), per implemented function."""
    return {name: row.mode for name, row in implementation().items()}
