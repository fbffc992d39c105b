/* np: 1 2 */
/* User error classes, codes and strings: MPI_Error_class/MPI_Error_string see them, they never
 * collide with Mica's own codes, MPI_LASTUSEDCODE follows them, and removing them (MPI 5.0)
 * checks the order the standard asks for. */
#include <mpi.h>
#include <string.h>
#include "../check.h"

static int lastused(void)
{
    int *v = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag);
    CHECK(flag && v);
    return flag && v ? *v : -1;
}

static int class_of(int code)
{
    int cls = -1;
    CHECK(MPI_Error_class(code, &cls) == MPI_SUCCESS);
    return cls;
}

static void string_of(int code, char *text)
{
    int len = -1;
    CHECK(MPI_Error_string(code, text, &len) == MPI_SUCCESS);
    CHECK(len == (int)strlen(text));
}

static int handler_code;
static void handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_code = *code;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    char text[MPI_MAX_ERROR_STRING];

    int last0 = lastused();
    CHECK(last0 >= MPI_ERR_LASTCODE);

    int cls = -1, code1 = -1, code2 = -1, ocode = -1;
    CHECK(MPI_Add_error_class(&cls) == MPI_SUCCESS);
    CHECK(cls > MPI_ERR_LASTCODE);
    CHECK(lastused() >= cls);
    CHECK(class_of(cls) == cls);
    string_of(cls, text);
    CHECK(text[0] == '\0');            /* no string yet: the empty string */

    CHECK(MPI_Add_error_code(cls, &code1) == MPI_SUCCESS);
    CHECK(MPI_Add_error_code(cls, &code2) == MPI_SUCCESS);
    CHECK(MPI_Add_error_code(MPI_ERR_OTHER, &ocode) == MPI_SUCCESS);
    CHECK(code1 != cls && code2 != cls && code1 != code2 && ocode != code1 && ocode != code2);
    CHECK(code1 > MPI_ERR_LASTCODE && code2 > MPI_ERR_LASTCODE && ocode > MPI_ERR_LASTCODE);
    CHECK(lastused() >= code1 && lastused() >= code2 && lastused() >= ocode);
    CHECK(class_of(code1) == cls && class_of(code2) == cls);
    CHECK(class_of(ocode) == MPI_ERR_OTHER);

    /* Mica's own codes (a class and a message slot) stay distinct and keep their classes. */
    int bad = MPI_Comm_size(MPI_COMM_NULL, &(int){0});
    CHECK(bad != MPI_SUCCESS && bad <= MPI_ERR_LASTCODE);
    CHECK(bad != code1 && bad != code2 && bad != cls && bad != ocode);
    CHECK(class_of(bad) == MPI_ERR_COMM);
    CHECK(class_of(code1) == cls);

    CHECK(MPI_Add_error_string(cls, "my class") == MPI_SUCCESS);
    CHECK(MPI_Add_error_string(code1, "my first code") == MPI_SUCCESS);
    string_of(cls, text);
    CHECK(!strcmp(text, "my class"));
    string_of(code1, text);
    CHECK(!strcmp(text, "my first code"));
    CHECK(MPI_Add_error_string(code1, "my first code, renamed") == MPI_SUCCESS);
    string_of(code1, text);
    CHECK(!strcmp(text, "my first code, renamed"));
    string_of(code2, text);
    CHECK(text[0] == '\0');
    string_of(MPI_ERR_COMM, text);
    CHECK(strstr(text, "MPI_ERR_COMM") != NULL);

    /* Errors: not a class, predefined strings, unknown codes. */
    int dummy;
    int rc = MPI_Add_error_code(code1, &dummy);
    CHECK(rc != MPI_SUCCESS && class_of(rc) == MPI_ERR_ARG);
    rc = MPI_Add_error_code(MPI_ERR_LASTCODE + 100000, &dummy);
    CHECK(rc != MPI_SUCCESS && class_of(rc) == MPI_ERR_ARG);
    rc = MPI_Add_error_string(MPI_ERR_COMM, "mine");
    CHECK(rc != MPI_SUCCESS && class_of(rc) == MPI_ERR_ARG);
    rc = MPI_Add_error_string(lastused() + 1, "nobody's");
    CHECK(rc != MPI_SUCCESS && class_of(rc) == MPI_ERR_ARG);
    int c = -1;
    rc = MPI_Error_class(lastused() + 1, &c);
    CHECK(rc != MPI_SUCCESS);

    /* A user code through an error handler reaches it unchanged. */
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(handler, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    CHECK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, code2) == MPI_SUCCESS);
    CHECK(handler_code == code2);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    string_of(code2, text);
    CHECK(text[0] == '\0');            /* raising it did not give it a message */

    /* Removal: strings before codes, codes before classes. */
    rc = MPI_Remove_error_code(code1);
    CHECK(rc != MPI_SUCCESS && class_of(rc) == MPI_ERR_ARG);
    rc = MPI_Remove_error_class(cls);
    CHECK(rc != MPI_SUCCESS && class_of(rc) == MPI_ERR_ARG);
    rc = MPI_Remove_error_string(code2);
    CHECK(rc != MPI_SUCCESS && class_of(rc) == MPI_ERR_ARG);
    rc = MPI_Remove_error_class(code1);  /* a code, not a class */
    CHECK(rc != MPI_SUCCESS && class_of(rc) == MPI_ERR_ARG);
    rc = MPI_Remove_error_code(MPI_ERR_OTHER);
    CHECK(rc != MPI_SUCCESS && class_of(rc) == MPI_ERR_ARG);
    CHECK(MPI_Remove_error_string(code1) == MPI_SUCCESS);
    CHECK(MPI_Remove_error_code(code1) == MPI_SUCCESS);
    CHECK(MPI_Remove_error_code(code2) == MPI_SUCCESS);
    rc = MPI_Error_class(code1, &c);
    CHECK(rc != MPI_SUCCESS);
    CHECK(MPI_Remove_error_string(cls) == MPI_SUCCESS);
    CHECK(MPI_Remove_error_class(cls) == MPI_SUCCESS);
    CHECK(MPI_Remove_error_code(ocode) == MPI_SUCCESS);
    CHECK(lastused() == last0);         /* everything removed: back to where it was */

    /* The values are available again. */
    CHECK(MPI_Add_error_class(&cls) == MPI_SUCCESS && cls > MPI_ERR_LASTCODE);
    CHECK(class_of(cls) == cls && lastused() >= cls);

    MPI_Finalize();
    return CHECK_RESULT();
}
