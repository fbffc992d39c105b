# mica-prof, the PMPI profiler (docs/PROFILER.md), built for Mica by `make` and installed as
# $(PREFIX)/lib/libmicaprof.so, $(PREFIX)/lib/libmicaprof.a and $(PREFIX)/bin/mica-prof.
# For MPICH or Open MPI: tools/prof/build.sh MPICC DIR (the mica-prof launcher does it on demand),
# or `make prof-all` (into $(PREFIX)/lib/mica-prof/{mpich,openmpi}).
PROF_B := $(B)/prof
# The wrappers' generator runs as an included makefile, like the library's ($(GEN)): every
# generated file exists and is current before the dependency files are read. It writes only
# the files whose text changed, so an object is rebuilt only when what it includes changed.
PROF_GEN := $(PROF_B)/gen/gen.mk
PROF_GEN_SRC := $(PROF_B)/gen/mp_names.c $(PROF_B)/gen/mp_fwrappers.c \
                $(foreach k,0 1 2 3,$(PROF_B)/gen/mp_wrappers_$(k).c)
PROF_SRC := $(wildcard tools/prof/*.c)
PROF_OBJ := $(PROF_SRC:tools/prof/%.c=$(PROF_B)/obj/%.o) \
            $(PROF_GEN_SRC:$(PROF_B)/gen/%.c=$(PROF_B)/obj/%.o)
PROF_CFLAGS := -std=c11 -D_GNU_SOURCE -fPIC -fvisibility=hidden -pthread $(WARN) $(CFLAGS) $(SAN_FLAGS) \
               -I$(B)/gen/include -Itools/prof -I$(PROF_B)/gen

.PHONY: prof-install prof-all

# The wrappers: from the functions mpi.h declares, with the API table's parameter kinds.
ifeq ($(filter clean,$(MAKECMDGOALS)),)
-include $(PROF_GEN)
endif
$(PROF_GEN): $(GEN) tools/prof/gen_wrappers.py gen/api.py api/functions.tsv
	@mkdir -p $(@D)
	@echo '#include <mpi.h>' > $(@D)/h.c
	@$(CC) -E -I$(B)/gen/include $(@D)/h.c > $(@D)/mpi.i
	@$(CC) -E -dM -I$(B)/gen/include $(@D)/h.c > $(@D)/mpi.dM
	$(PYTHON) tools/prof/gen_wrappers.py $(@D)/mpi.i $(@D)/mpi.dM $(@D) --chunks 4 >/dev/null
	@echo '# generated: the wrappers generator ran' > $@

-include $(wildcard $(PROF_B)/obj/*.d)

$(PROF_B)/obj/%.o: tools/prof/%.c | $(PROF_GEN)
	@mkdir -p $(@D)
	$(CC) $(PROF_CFLAGS) $(DEPFLAGS) -c $< -o $@
$(PROF_B)/obj/%.o: $(PROF_B)/gen/%.c | $(PROF_GEN)
	@mkdir -p $(@D)
	$(CC) $(PROF_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(PROF_B)/libmicaprof.so: $(PROF_OBJ)
	@echo "LD $@"
	@$(CC) -shared -pthread $(SAN_FLAGS) -o $@ $(PROF_OBJ) -ldl
$(PROF_B)/libmicaprof.a: $(PROF_OBJ)
	@rm -f $@
	@echo "AR $@"
	@ar rcs $@ $(PROF_OBJ)

# What builds the tool for another MPI without the source checkout: the generator, the tool's
# sources and the API table, in the source tree's relative places (build.sh finds them there).
PROF_SHARE := $(PREFIX)/share/mica
prof-install: $(PROF_B)/libmicaprof.so $(PROF_B)/libmicaprof.a tools/prof/mica-prof.in
	@mkdir -p $(PREFIX)/bin $(PREFIX)/lib $(PROF_SHARE)/prof $(PROF_SHARE)/api $(PROF_SHARE)/gen
	@rm -f $(PROF_SHARE)/prof/*.c $(PROF_SHARE)/prof/*.h
	@install -m 755 tools/prof/mica-prof.in $(PREFIX)/bin/mica-prof
	@install -m 644 $(PROF_B)/libmicaprof.so $(PROF_B)/libmicaprof.a $(PREFIX)/lib/
	@install -p -m 644 tools/prof/*.c tools/prof/*.h tools/prof/gen_wrappers.py $(PROF_SHARE)/prof/
	@install -p -m 755 tools/prof/build.sh $(PROF_SHARE)/prof/
	@install -p -m 644 api/functions.tsv $(PROF_SHARE)/api/
	@install -p -m 644 gen/api.py $(PROF_SHARE)/gen/

install: prof-install

# The library for the other MPI libraries installed here.
prof-all: prof-install
	@for f in mpich openmpi; do \
	    cc=mpicc.$$f; command -v $$cc >/dev/null || continue; \
	    tools/prof/build.sh $$cc $(PREFIX)/lib/mica-prof/$$f || exit 1; \
	done
