/*
 * CTestProcesses: the test process's last exit handler, reserved as the test binary loads.
 *
 * Swift Testing runs suites in parallel and in no set order, and has no hook for "after every
 * test"; the one moment that is after every test is the test process's exit. An exit handler
 * runs in the reverse order of registration, so the handler registered first, from a constructor
 * as the binary loads, runs last: after the engine's teardown (registered when a test first
 * starts the engine). TestSupport's `LeftoverProcesses` sets what it does.
 */
#ifndef CTESTPROCESSES_H
#define CTESTPROCESSES_H

/** Sets the function the last exit handler calls (once; later calls replace it). */
void ctp_set_last_exit_check(void (*check)(void));

#endif /* CTESTPROCESSES_H */
