# The Fortran binding (mpif.h, `use mpi`, `use mpi_f08`): lib/libmpi_fort.so and lib/libmpi_fort.a
# above the C library, include/mpif.h, include/mpi.mod and include/mpi_f08.mod, bin/mpifort. Built only with a Fortran compiler
# (gfortran by default; `make FC=` builds without). The generator lists its files in files.mk.
ifeq ($(origin FC),default)
FC := gfortran
endif
HAVE_FC := $(if $(FC),$(shell command -v $(FC) >/dev/null 2>&1 && echo yes))

ifeq ($(HAVE_FC),yes)
FORT_MK := $(B)/gen/fortran/files.mk $(B)/gen/fortran/f08/files.mk
-include $(FORT_MK)
$(FORT_MK): $(GEN)
	@touch $@

FORT_DIR := src/bindings/fortran
# mpi_f08's descriptors: the Fortran compiler's ISO_Fortran_binding.h (gcc finds gfortran's
# anyway; another C compiler is told where).
FORT_CFI := $(dir $(shell $(FC) -print-file-name=ISO_Fortran_binding.h))
FORT_CFLAGS := $(ALL_CFLAGS) -I$(FORT_DIR) -idirafter $(FORT_CFI) -Wno-unused-parameter \
               $(if $(filter 1,$(NO_WEAK)),-DMICA_NO_WEAK)
FORT_FFLAGS := -O2 -g -fPIC $(SAN_FLAGS)
# gfortran 10 and later reject one routine called with buffers of different types in one file
# unless told otherwise; mpif.h declares no interfaces, so every choice buffer passes.
FORT_USER_FLAGS := $(shell $(FC) -fallow-argument-mismatch -fsyntax-only -x f95 /dev/null \
                   >/dev/null 2>&1 && echo -fallow-argument-mismatch)
FORT_OBJ := $(FORT_FUNCS:%=$(B)/obj/fortran/%.o) $(F08_FUNCS:%=$(B)/obj/fortran/f08/%.o) \
            $(B)/obj/fortran/fortran.o $(B)/obj/fortran/f08.o $(B)/obj/fortran/mpi_f08.o \
            $(B)/obj/fortran/mpi_module.o
ifeq ($(NO_WEAK),1)
# Without weak symbols each function is two objects: the MPI_ names and the PMPI_ names.
FORT_OBJ += $(FORT_FUNCS:%=$(B)/obj/fortran/p%.o) $(F08_FUNCS:%=$(B)/obj/fortran/f08/p%.o)
FORT_LIBS := $(B)/lib/libmpi_fort.a
FORT_PMPI := -lpmpi
else
FORT_LIBS := $(B)/lib/libmpi_fort.a $(B)/lib/libmpi_fort.so
FORT_PMPI :=
endif
$(B)/obj/fortran/fortran.o $(B)/obj/fortran/f08.o: $(B)/obj/fortran/%.o: $(FORT_DIR)/%.c | $(GEN)
	@mkdir -p $(@D)
	$(CC) $(FORT_CFLAGS) $(DEPFLAGS) -c $< -o $@
$(B)/obj/fortran/f08/p%.o: $(B)/gen/fortran/f08/%.c | $(GEN)
	@mkdir -p $(@D)
	@$(CC) $(FORT_CFLAGS) $(DEPFLAGS) -DMICA_PROFILELIB -c $< -o $@
$(B)/obj/fortran/p%.o: $(B)/gen/fortran/%.c | $(GEN)
	@mkdir -p $(@D)
	@$(CC) $(FORT_CFLAGS) $(DEPFLAGS) -DMICA_PROFILELIB -c $< -o $@
$(B)/obj/fortran/%.o: $(B)/gen/fortran/%.c | $(GEN)
	@mkdir -p $(@D)
	@$(CC) $(FORT_CFLAGS) $(DEPFLAGS) -c $< -o $@
# The mpi module: mpif.h's constants and MPI_SIZEOF, whose procedures put its object in the
# library; mpi.mod goes to include/.
$(B)/obj/fortran/mpi_module.o: $(FORT_DIR)/mpi.f90 $(wildcard $(B)/gen/fortran/*.h) | $(GEN)
	@mkdir -p $(@D) $(B)/mod
	$(FC) $(FORT_FFLAGS) -I$(B)/gen/fortran -J$(B)/mod -c $< -o $@
$(B)/mod/mpi.mod: $(B)/obj/fortran/mpi_module.o
# The mpi_f08 module (generated): its object holds the == and /= of handles, so it is part of
# the library; mpi_f08.mod goes to include/.
$(B)/obj/fortran/mpi_f08.o: $(B)/gen/fortran/mpi_f08.f90 | $(GEN)
	@mkdir -p $(@D) $(B)/mod
	@echo "FC $@"
	@$(FC) $(FORT_FFLAGS) -J$(B)/mod -c $< -o $@
$(B)/mod/mpi_f08.mod: $(B)/obj/fortran/mpi_f08.o

$(B)/lib/libmpi_fort.a: $(FORT_OBJ)
	@mkdir -p $(@D)
	@rm -f $@
	@echo "AR $@"
	@printf '%s\n' $^ | xargs ar rcs $@
$(B)/lib/libmpi_fort.so: $(FORT_OBJ) $(B)/lib/libmpi.so
	@echo "LD $@"
	@printf '%s\n' $(FORT_OBJ) > $(B)/lib/fortran-objects.txt
	@$(CC) -shared -pthread $(SAN_FLAGS) -Wl,-soname,libmpi_fort.so -o $@ @$(B)/lib/fortran-objects.txt \
	    -L$(B)/lib -Wl,-rpath,'$$ORIGIN' -lmpi

fortran-install: $(FORT_LIBS) $(B)/mod/mpi.mod $(B)/mod/mpi_f08.mod
	@mkdir -p $(PREFIX)/bin $(PREFIX)/include $(PREFIX)/lib
	install -m 644 $(B)/gen/fortran/mpif.h $(B)/mod/mpi.mod $(B)/mod/mpi_f08.mod $(PREFIX)/include/
	install -m 644 $(FORT_LIBS) $(PREFIX)/lib/
	@mkdir -p $(PREFIX)/lib/pkgconfig
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@SAN_FLAGS@|$(SAN_FLAGS)|g' bin/mpi-fort.pc.in \
	    > $(PREFIX)/lib/pkgconfig/mpi-fort.pc
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@FC@|$(FC)|g' -e 's|@FFLAGS@|$(FORT_USER_FLAGS)|g' \
	    -e 's|@PMPI@|$(FORT_PMPI)|g' -e 's|@SAN_FLAGS@|$(SAN_FLAGS)|g' bin/mpifort.in > $(PREFIX)/bin/mpifort
	chmod +x $(PREFIX)/bin/mpifort
else
fortran-install:
	@rm -f $(PREFIX)/bin/mpifort
	@echo "no Fortran compiler ($(or $(FC),FC is empty)): the Fortran binding is not built"
endif

.PHONY: fortran-install
install: fortran-install
