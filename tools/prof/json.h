/* mica-prof: the job's report as JSON (DIR/NAME.json; docs/PROFILER.md describes its fields). */
#ifndef MICA_PROF_JSON_H
#define MICA_PROF_JSON_H

#include <stdio.h>
#include "job.h"

void mp_json_write(FILE *j, const mp_job *J);

#endif
