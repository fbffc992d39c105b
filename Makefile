# Mica: `make` builds and installs into $(PREFIX); `make check` also runs every test.
# NO_WEAK=1 builds for toolchains without weak symbols: libpmpi.a (PMPI_ names) + libmpi.a (MPI_).
# SANITIZE=address (AddressSanitizer + UndefinedBehaviorSanitizer) or SANITIZE=thread
# (ThreadSanitizer) builds everything instrumented, in a build directory of its own; the
# installed mpicc, mpicxx and mpifort add the same flags, so programs link the runtime.

PREFIX ?= $(CURDIR)/install
NO_WEAK ?= 0
SANITIZE ?=
CC ?= cc
PYTHON ?= python3

# UBSan's reports stay recoverable so that its suppressions work (tests/sanitize/ubsan.supp);
# tests/run.py makes the first one fatal all the same (halt_on_error=1).
ifeq ($(SANITIZE),address)
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer
SAN_DIR := asan-
else ifeq ($(SANITIZE),thread)
SAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer
SAN_DIR := tsan-
else ifneq ($(SANITIZE),)
$(error SANITIZE=$(SANITIZE): use address (ASan + UBSan) or thread (TSan))
endif

ifeq ($(NO_WEAK),1)
B := build/$(SAN_DIR)noweak
else
B := build/$(SAN_DIR)weak
endif

# Sanitizers' instrumentation misleads some warnings (-Wnonnull on paths it adds): the plain
# build alone makes warnings errors.
WARN := -Wall -Wextra $(if $(SANITIZE),,-Werror)
CFLAGS ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE -fPIC -fvisibility=hidden -pthread $(WARN) $(CFLAGS) $(SAN_FLAGS) \
              -Isrc -Isrc/bindings/c -I$(B)/gen -I$(B)/gen/include

FUNCTIONS := $(shell sed -n 's/^\(MPI_[A-Za-z0-9_]*\)\t.*/\1/p' api/functions.tsv)
CORE_SRC := $(wildcard src/core/*.c src/mpi/*.c src/io/*.c src/pt2pt/*.c src/coll/*.c src/topo/*.c \
                       src/rma/*.c src/transport/*.c src/runtime/*.c src/tool/*.c)
# Generated C sources of the library (gen/tunables.py, gen/tables.py, gen/ops.py, gen/coll.py: one a
# collective of src/coll/algorithms.tsv, the neighborhood ones in topo)
COLLECTIVES := $(sort $(shell sed -n 's/^\([a-z_]*\)\t.*/\1/p' src/coll/algorithms.tsv))
CORE_GEN_OBJ := $(B)/obj/gen/core/tunables_table.o $(B)/obj/gen/core/api_tables.o \
                $(B)/obj/gen/core/op_kernels.o \
                $(patsubst %,$(B)/obj/gen/coll/%.o,$(filter-out neighbor_%,$(COLLECTIVES))) \
                $(patsubst %,$(B)/obj/gen/topo/%.o,$(filter neighbor_%,$(COLLECTIVES)))
CORE_OBJ := $(CORE_SRC:src/%.c=$(B)/obj/%.o) $(CORE_GEN_OBJ)
BIND_OBJ := $(FUNCTIONS:%=$(B)/obj/bindings/%.o)
PBIND_OBJ := $(FUNCTIONS:%=$(B)/obj/pbindings/%.o)
# The generator's output is an included makefile: make runs the generator (when its inputs
# changed) before it reads anything else, so every generated file exists and is current when
# the dependency files below are read. It writes only files whose text changed.
GEN := $(B)/gen/gen.mk

MPIEXEC_SRC := $(wildcard src/mpiexec/*.c) src/runtime/pmi_wire.c
MPIEXEC := $(B)/bin/mpiexec

ifeq ($(NO_WEAK),1)
LIBS := $(B)/lib/libmpi.a $(B)/lib/libpmpi.a
else
LIBS := $(B)/lib/libmpi.a $(B)/lib/libmpi.so
endif

.PHONY: all install check clean demo status
all: install

ifeq ($(filter clean,$(MAKECMDGOALS)),)
-include $(GEN)
endif
$(GEN): gen/*.py api/functions.tsv api/constants.tsv api/types.h src/bindings/c/impl.tsv \
        src/bindings/cxx/members.tsv src/core/tunables.tsv \
        src/coll/algorithms.tsv
	$(PYTHON) gen/generate.py $(B)/gen
	@echo '# generated: the generator ran' > $@

# Each object depends on its source and on the headers it includes (gcc -MMD writes the list).
DEPFLAGS = -MMD -MP
-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)

$(B)/obj/%.o: src/%.c | $(GEN)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(B)/obj/gen/%.o: $(B)/gen/%.c | $(GEN)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c $< -o $@

# Bindings: one object per MPI function; unused parameters are normal in a not-yet function.
BIND_FLAGS := $(ALL_CFLAGS) -Wno-unused-parameter $(if $(filter 1,$(NO_WEAK)),-DMICA_NO_WEAK)
$(B)/obj/bindings/%.o: $(B)/gen/c/%.c | $(GEN)
	@mkdir -p $(@D)
	@$(CC) $(BIND_FLAGS) $(DEPFLAGS) -c $< -o $@
$(B)/obj/pbindings/%.o: $(B)/gen/c/%.c | $(GEN)
	@mkdir -p $(@D)
	@$(CC) $(BIND_FLAGS) $(DEPFLAGS) -DMICA_PROFILELIB -c $< -o $@

$(B)/lib/libmpi.a: $(BIND_OBJ) $(CORE_OBJ)
	@mkdir -p $(@D)
	@rm -f $@
	@echo "AR $@"
	@printf '%s\n' $^ | xargs ar rcs $@
$(B)/lib/libpmpi.a: $(PBIND_OBJ)
	@mkdir -p $(@D)
	@rm -f $@
	@echo "AR $@"
	@printf '%s\n' $^ | xargs ar rcs $@
$(B)/lib/libmpi.so: $(BIND_OBJ) $(CORE_OBJ)
	@mkdir -p $(@D)
	@echo "LD $@"
	@printf '%s\n' $^ > $(B)/lib/objects.txt
	$(CC) -shared -pthread $(SAN_FLAGS) -Wl,-soname,libmpi.so -o $@ @$(B)/lib/objects.txt

# The launcher is a program of its own: it does not link the MPI library.
$(MPIEXEC): $(MPIEXEC_SRC) $(wildcard src/mpiexec/*.h)
	@mkdir -p $(@D)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(SAN_FLAGS) -o $@ $(MPIEXEC_SRC)

install: $(LIBS) $(MPIEXEC)
	@mkdir -p $(PREFIX)/bin $(PREFIX)/include $(PREFIX)/lib/pkgconfig
	install -m 755 $(MPIEXEC) $(PREFIX)/bin/
	install -m 644 $(B)/gen/include/mpi.h $(PREFIX)/include/
	install -m 644 $(LIBS) $(PREFIX)/lib/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@SAN_FLAGS@|$(SAN_FLAGS)|g' bin/mpicc.in > $(PREFIX)/bin/mpicc
	chmod +x $(PREFIX)/bin/mpicc
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@SAN_FLAGS@|$(SAN_FLAGS)|g' bin/mpi.pc.in > $(PREFIX)/lib/pkgconfig/mpi.pc

# The Fortran binding: lib/libmpi_fort.{so,a}, include/mpif.h, include/mpi.mod, bin/mpifort
include src/bindings/fortran/fortran.mk

# The C++ binding: lib/libmpi_cxx.{so,a}, include/mpicxx.h, bin/mpicxx
include src/bindings/cxx/cxx.mk

# mica-prof, the profiler: lib/libmicaprof.so, lib/libmicaprof.a, bin/mica-prof
include tools/prof/prof.mk

check:
	$(PYTHON) tests/run.py $(if $(SANITIZE),--sanitize $(SANITIZE))

# docs/STATUS.md is generated; the build never writes into the tracked tree, this does
# (tests/abi/test_status.sh fails while the committed table is stale).
status: $(GEN)
	cp $(B)/gen/STATUS.md docs/STATUS.md

clean:
	rm -rf build install

# The demo: an MPI program on 4 ranks under mica-prof; its text report is printed at the end.
demo: install
	@rm -rf build/demo && mkdir -p build/demo
	$(PREFIX)/bin/mpicc -g -o build/demo/hello examples/hello.c
	$(PREFIX)/bin/mica-prof --dir build/demo --name report --top 8 $(PREFIX)/bin/mpiexec -n 4 build/demo/hello
	@cat build/demo/report.txt
