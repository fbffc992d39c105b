/* The PMI-1 wire format, shared by the client (pmi.c) and mpiexec's server: a line of
 * space-separated key=value tokens, backslash escapes in values. */
#ifndef MICA_PMI_WIRE_H
#define MICA_PMI_WIRE_H

#define MICA_PMI_MAXTOK 32

typedef struct {
    int n;
    char *key[MICA_PMI_MAXTOK];
    char *val[MICA_PMI_MAXTOK];
} mica_pmi_msg_t;

/* Split a line in place into its tokens; escapes in values are undone (as MPICH's parser does;
 * mica_boot_abort escapes the spaces of its message). Tabs and CRs separate tokens too. */
void mica_pmi_parse(char *s, mica_pmi_msg_t *m);
/* The value of `key`, or NULL. */
const char *mica_pmi_find(const mica_pmi_msg_t *m, const char *key);

#endif
