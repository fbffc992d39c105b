/* mica-prof: the job's report as text (DIR/NAME.txt). */
#ifndef MICA_PROF_TEXT_H
#define MICA_PROF_TEXT_H

#include <stdio.h>
#include "job.h"

void mp_text_write(FILE *f, const mp_job *J);

#endif
