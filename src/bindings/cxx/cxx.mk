# The C++ binding (MPI-2 C++ classes, namespaces MPI and PMPI): lib/libmpi_cxx.so and
# lib/libmpi_cxx.a above the C library, include/mpicxx.h (mpi.h includes it for C++), bin/mpicxx.
# Built only with a C++ compiler (g++ by default; `make CXX=` builds without). The generator
# lists the MPI:: forwarders, one object file each, in files.mk.
ifeq ($(origin CXX),default)
CXX := g++
endif
HAVE_CXX := $(if $(CXX),$(shell command -v $(CXX) >/dev/null 2>&1 && echo yes))

ifeq ($(HAVE_CXX),yes)
CXX_MK := $(B)/gen/cxx/files.mk
-include $(CXX_MK)
$(CXX_MK): $(GEN)
	@touch $@

CXX_DIR := src/bindings/cxx
CXX_FLAGS := -std=c++14 -fPIC -pthread $(WARN) $(CFLAGS) $(SAN_FLAGS) -I$(CXX_DIR) -I$(B)/gen/cxx \
             -I$(B)/gen/include
# The PMPI:: layer and the predefined objects; then each MPI:: member function on its own.
CXX_PMPI_OBJ := $(patsubst $(CXX_DIR)/%.cc,$(B)/obj/cxx/%.o,$(wildcard $(CXX_DIR)/pmpi_*.cc)) \
                $(B)/obj/cxx/constants.o
CXX_OBJ := $(CXX_PMPI_OBJ) $(CXX_FUNCS:%=$(B)/obj/cxx/%.o)
ifeq ($(NO_WEAK),1)
CXX_LIBS := $(B)/lib/libmpi_cxx.a
CXX_PMPI := -lpmpi
else
CXX_LIBS := $(B)/lib/libmpi_cxx.a $(B)/lib/libmpi_cxx.so
CXX_PMPI :=
endif
$(B)/obj/cxx/pmpi_%.o: $(CXX_DIR)/pmpi_%.cc | $(GEN)
	@mkdir -p $(@D)
	$(CXX) $(CXX_FLAGS) $(DEPFLAGS) -c $< -o $@
$(B)/obj/cxx/%.o: $(B)/gen/cxx/%.cc | $(GEN)
	@mkdir -p $(@D)
	@$(CXX) $(CXX_FLAGS) $(DEPFLAGS) -c $< -o $@

$(B)/lib/libmpi_cxx.a: $(CXX_OBJ)
	@mkdir -p $(@D)
	@rm -f $@
	@echo "AR $@"
	@printf '%s\n' $^ | xargs ar rcs $@
$(B)/lib/libmpi_cxx.so: $(CXX_OBJ) $(B)/lib/libmpi.so
	@echo "LD $@"
	@printf '%s\n' $(CXX_OBJ) > $(B)/lib/cxx-objects.txt
	@$(CXX) -shared -pthread $(SAN_FLAGS) -Wl,-soname,libmpi_cxx.so -o $@ @$(B)/lib/cxx-objects.txt \
	    -L$(B)/lib -Wl,-rpath,'$$ORIGIN' -lmpi

cxx-install: $(CXX_LIBS)
	@mkdir -p $(PREFIX)/bin $(PREFIX)/include $(PREFIX)/lib
	install -m 644 $(B)/gen/cxx/mpicxx.h $(PREFIX)/include/
	install -m 644 $(CXX_LIBS) $(PREFIX)/lib/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@CXX@|$(CXX)|g' -e 's|@PMPI@|$(CXX_PMPI)|g' \
	    -e 's|@SAN_FLAGS@|$(SAN_FLAGS)|g' bin/mpicxx.in > $(PREFIX)/bin/mpicxx
	chmod +x $(PREFIX)/bin/mpicxx
else
cxx-install:
	@rm -f $(PREFIX)/bin/mpicxx $(PREFIX)/include/mpicxx.h
	@echo "no C++ compiler ($(or $(CXX),CXX is empty)): the C++ binding is not built"
endif

.PHONY: cxx-install
install: cxx-install
