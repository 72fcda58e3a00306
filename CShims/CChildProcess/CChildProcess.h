/*
 * CChildProcess: a child process tied to the thread that starts it, for the private Xvfb `webauth`
 * starts before it becomes `webauth-engine` (Sources/PrivateDisplay/XvfbHandOver.swift). Linux's
 * parent-death signal (prctl(2) PR_SET_PDEATHSIG) must be set in the child between fork(2) and
 * execve(2), where only async-signal-safe calls may run and Swift cannot call prctl (a variadic C
 * function): so the whole child side is C, here. No library: the module is this header alone.
 */
#ifndef CCHILDPROCESS_H
#define CCHILDPROCESS_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <unistd.h>

/*
 * Starts `path` with `argv` and `envp` as a child process: its standard output is `output`, its
 * standard input and error /dev/null, every signal unblocked and at its default action, and it gets
 * SIGTERM when the thread that called this ends (the process exits, is killed, or that thread
 * ends; execve(2) keeps the thread, so a process this one becomes inherits the tie). `output` must
 * be above 2. Returns 0 with the child's pid in `pid`, or fork's errno; a child that cannot set the
 * signal, finds its parent gone already, or cannot execute `path` exits 127 at once.
 */
static inline int cchild_spawn_tied(const char *path, char *const argv[], char *const envp[], int output, pid_t *pid)
{
    pid_t parent = getpid();
    pid_t child = fork();
    if (child < 0)
        return errno;
    if (child == 0) {
        if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
            _exit(127);
        struct sigaction standard = { .sa_handler = SIG_DFL };
        for (int number = 1; number < NSIG; number++)
            sigaction(number, &standard, NULL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        int null = open("/dev/null", O_RDWR);
        if (null < 0 || dup2(null, 0) < 0 || dup2(output, 1) < 0 || dup2(null, 2) < 0)
            _exit(127);
        execve(path, argv, envp);
        _exit(127);
    }
    *pid = child;
    return 0;
}

#endif /* CCHILDPROCESS_H */
