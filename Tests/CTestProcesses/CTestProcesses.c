#include "CTestProcesses.h"
#include <stdlib.h>

static void (*last_exit_check)(void);

static void run_last_exit_check(void) {
    void (*check)(void) = __atomic_load_n(&last_exit_check, __ATOMIC_ACQUIRE);
    if (check) check();
}

__attribute__((constructor)) static void reserve_last_exit_handler(void) {
    atexit(run_last_exit_check);
}

void ctp_set_last_exit_check(void (*check)(void)) {
    __atomic_store_n(&last_exit_check, check, __ATOMIC_RELEASE);
}
