/* The library's counters and the event seam (core/counters.h). */
#include "core/counters.h"

struct mica_counters mica_counters;
int mica_event_armed[MICA_EVENT_COUNT];
void (*mica_event_deliver)(int kind, const void *data, size_t size);
