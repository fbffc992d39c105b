/* The PMI-1 wire format (pmi_wire.h). */
#include <string.h>

#include "pmi_wire.h"

static int separator(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

void mica_pmi_parse(char *s, mica_pmi_msg_t *m)
{
    m->n = 0;
    while (*s && m->n < MICA_PMI_MAXTOK) {
        while (separator(*s))
            s++;
        if (!*s)
            break;
        char *tok = s;
        while (*s && !separator(*s)) {
            if (*s == '\\' && s[1])
                s++;
            s++;
        }
        if (*s)
            *s++ = '\0';
        char *eq = strchr(tok, '=');
        char *val = "";
        if (eq) {
            *eq = '\0';
            val = eq + 1;
            char *w = val;
            for (char *r = val; *r; r++) {
                if (*r == '\\' && r[1])
                    r++;
                *w++ = *r;
            }
            *w = '\0';
        }
        m->key[m->n] = tok;
        m->val[m->n] = val;
        m->n++;
    }
}

const char *mica_pmi_find(const mica_pmi_msg_t *m, const char *key)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->key[i], key) == 0)
            return m->val[i];
    return NULL;
}
