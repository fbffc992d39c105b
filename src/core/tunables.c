/* Reading the tunables (src/core/tunables.tsv, generated into core/tunables.h) from the
 * environment: each MICA_<NAME> once, at start-up, checked against its row of the table. A
 * value that does not fit is reported in one line on stderr and the default kept: a typo in a
 * job script should neither stop the job nor pass unseen. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/tunables.h"

/* The index of `word` in "a|b|c", or -1. */
static long word_index(const char *values, const char *word)
{
    size_t len = strlen(word);
    long i = 0;
    for (const char *p = values; p; p = strchr(p, '|'), p = p ? p + 1 : NULL, i++)
        if (!strncasecmp(p, word, len) && (p[len] == '|' || p[len] == '\0'))
            return i;
    return -1;
}

/* Parse `text` as a value of row t into *out; 0 if it is not one. */
static int parse(const mica_tunable_t *t, const char *text, long *out)
{
    if (t->can_be_auto && !strcasecmp(text, "auto")) {
        *out = MICA_TUNABLE_AUTO;
        return 1;
    }
    switch (t->type) {
    case MICA_TUNABLE_BOOL:
        *out = word_index("0|no|false|off", text) >= 0 ? 0 : word_index("1|yes|true|on", text) >= 0 ? 1 : -1;
        return *out >= 0;
    case MICA_TUNABLE_ENUM:
        *out = word_index(t->values, text);
        return *out >= 0;
    default: {
        char *end;
        errno = 0;
        long v = strtol(text, &end, 10);
        if (end == text || v < 0 || errno)
            return 0;
        if (t->type == MICA_TUNABLE_SIZE && *end) {
            int shift = strchr("kK", *end) ? 10 : strchr("mM", *end) ? 20 : strchr("gG", *end) ? 30 : -1;
            if (shift < 0 || v > (t->max >> shift))
                return 0;
            v <<= shift;
            end++;
        }
        *out = v;
        return !*end && v >= t->min && v <= t->max;
    }
    }
}

/* What a value of row t may be, for the warning. */
static void describe(const mica_tunable_t *t, char *buf, size_t len)
{
    const char *unit = t->type == MICA_TUNABLE_SIZE ? " (bytes; k, m, g suffixes allowed)" : "";
    const char *or_auto = t->can_be_auto ? "auto or " : "";
    if (t->type == MICA_TUNABLE_BOOL)
        snprintf(buf, len, "0 or 1 (no/yes, false/true, off/on)");
    else if (t->type == MICA_TUNABLE_ENUM)
        snprintf(buf, len, "one of %s", t->values);
    else
        snprintf(buf, len, "%san integer from %ld to %ld%s", or_auto, t->min, t->max, unit);
}

void mica_tunables_read(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    for (int i = 0; i < mica_tunable_count; i++) {
        const mica_tunable_t *t = &mica_tunable_table[i];
        char var[64], allowed[128];
        snprintf(var, sizeof var, "MICA_%s", t->name);
        const char *text = getenv(var);
        long v;
        if (!text || !*text)          /* unset, or set to nothing: the default */
            continue;
        if (!parse(t, text, &v)) {
            describe(t, allowed, sizeof allowed);
            fprintf(stderr, "mica: warning: %s=%s is not %s; using the default, %s\n", var, text,
                    allowed, t->dflt_text);
            continue;
        }
        if (t->type == MICA_TUNABLE_SIZE)
            *(long *)t->value = v;
        else
            *(int *)t->value = (int)v;
    }
}
