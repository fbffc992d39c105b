! For test_attr_interlang.sh: the C half of the attribute tests (attrlang.c) as seen from
! attrlang.f90 and attrlang08.f90. Handles are Fortran's (INTEGER; mpi_f08's MPI_VAL).
module cside
  use iso_c_binding
  implicit none
  integer, parameter :: K_COMM = 0, K_TYPE = 1, K_WIN = 2
  interface
    integer(c_int) function c_set(kind, h, key, word) bind(c)
      import
      integer(c_int), value :: kind, h, key
      integer(c_intptr_t), value :: word
    end function
    integer(c_int) function c_expect_word(where, kind, h, key, word) bind(c)
      import
      integer(c_int), value :: where, kind, h, key
      integer(c_intptr_t), value :: word
    end function
    integer(c_int) function c_expect_aint(where, kind, h, key, value) bind(c)
      import
      integer(c_int), value :: where, kind, h, key
      integer(c_intptr_t), value :: value
    end function
    integer(c_int) function c_expect_fint(where, h, key, value) bind(c)
      import
      integer(c_int), value :: where, h, key, value
    end function
    integer(c_int) function c_pointer_holds(where, h, key, value) bind(c)
      import
      integer(c_int), value :: where, h, key
      integer(c_intptr_t), value :: value
    end function
    integer(c_int) function c_keyval() bind(c)
      import
    end function
    integer(c_intptr_t) function c_target() bind(c)
      import
    end function
    subroutine c_expect_copy_in(value) bind(c)
      import
      integer(c_intptr_t), value :: value
    end subroutine
    integer(c_int) function c_callbacks(where, ncopies, ndeletes, word, value) bind(c)
      import
      integer(c_int), value :: where, ncopies, ndeletes
      integer(c_intptr_t), value :: word, value
    end function
    integer(c_int) function c_pointer_keyval() bind(c)
      import
    end function
    integer(c_int) function c_same_pointer(where, orig, copy, key, value) bind(c)
      import
      integer(c_int), value :: where, orig, copy, key
      integer(c_intptr_t), value :: value
    end function
    subroutine c_poke(comm, key, value) bind(c)
      import
      integer(c_int), value :: comm, key
      integer(c_intptr_t), value :: value
    end subroutine
    integer(c_int) function c_predefined(where, comm, win, tag_ub, size) bind(c)
      import
      integer(c_int), value :: where, comm, win
      integer(c_intptr_t), value :: tag_ub, size
    end function
  end interface
end module cside
