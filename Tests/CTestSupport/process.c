// Test-only: start a child process (the linkhost binary, a server, a tool) with piped input and output,
// and reap it with a timeout.
//
// Every child is started from one helper thread that lives as long as the test process, because
// PR_SET_PDEATHSIG fires when the *thread* that forked ends: forking from a pool thread that later
// retires would kill a server in the middle of its test.
//
// The child is a clone that shares the test process's memory until it execs (CLONE_VM | CLONE_VFORK, as
// glibc's posix_spawn does), on a stack of its own: a plain fork copies the page tables of a test process
// that holds hundreds of threads and holds its memory map locked meanwhile, which under a full run's
// hundreds of tool starts stalled every thread of it for seconds. Only the helper thread waits for the exec.
#define _GNU_SOURCE
#include "CTestSupport.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct spawn_job {
    const char *path;
    char *const *argv;
    char *const *envp;
    const char *directory;
    int stdin_read, stdout_write, stderr_write, report_write;
    pid_t parent;
    pid_t pid;
    int error_number;
    int done;
};

// The child's stack until it execs; one at a time, since the helper thread waits for each exec.
static char child_stack[256 * 1024] __attribute__((aligned(16)));

static pthread_mutex_t spawn_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t spawn_changed = PTHREAD_COND_INITIALIZER;
static struct spawn_job *pending_job;
static pthread_once_t spawner_once = PTHREAD_ONCE_INIT;
static int spawner_started;

// Marks every descriptor above stderr close-on-exec, so the child keeps none it inherited by accident:
// another thread's pipe (Foundation's are not close-on-exec) held open by a long-lived server would keep
// that pipe's reader from ever seeing end of file. The report pipe stays usable until exec.
static void keep_only_standard_descriptors(void) {
    if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return;
    long limit = sysconf(_SC_OPEN_MAX);
    if (limit < 0 || limit > 65536) limit = 65536;
    for (int fd = 3; fd < limit; fd++) fcntl(fd, F_SETFD, FD_CLOEXEC);
}

// Runs in the child between clone and exec, in the parent's memory: async-signal-safe calls only, and no
// writes but to its own stack and descriptors.
static void become_child(const struct spawn_job *job, pid_t parent) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    for (int signal_number = 1; signal_number < NSIG; signal_number++) {
        if (signal_number != SIGKILL && signal_number != SIGSTOP) sigaction(signal_number, &action, NULL);
    }
    sigset_t empty;
    sigemptyset(&empty);
    sigprocmask(SIG_SETMASK, &empty, NULL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the test process died before the line above
    // A group of its own, so a deadline can kill what it started too (a grandchild holding its stdout).
    setpgid(0, 0);
    int input_fd = job->stdin_read >= 0 ? job->stdin_read : open("/dev/null", O_RDONLY);
    if (input_fd >= 0) dup2(input_fd, 0);
    dup2(job->stdout_write, 1);
    dup2(job->stderr_write, 2);
    keep_only_standard_descriptors();
    int error_number = 0;
    if (job->directory && *job->directory && chdir(job->directory) != 0) {
        error_number = errno;
    } else {
        execve(job->path, job->argv, job->envp);
        error_number = errno;
    }
    ssize_t ignored = write(job->report_write, &error_number, sizeof error_number);
    (void)ignored;
    _exit(127);
}

static int child_main(void *argument) {
    const struct spawn_job *job = argument;
    become_child(job, job->parent);
    return 127;
}

static void *spawner_main(void *unused) {
    (void)unused;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    pthread_mutex_lock(&spawn_mutex);
    for (;;) {
        while (pending_job == NULL) pthread_cond_wait(&spawn_changed, &spawn_mutex);
        struct spawn_job *job = pending_job;
        pending_job = NULL;
        pthread_mutex_unlock(&spawn_mutex);
        job->parent = getpid();
        pid_t pid = clone(child_main, child_stack + sizeof child_stack, CLONE_VM | CLONE_VFORK | SIGCHLD, job);
        pthread_mutex_lock(&spawn_mutex);
        job->pid = pid;
        job->error_number = pid < 0 ? errno : 0;
        job->done = 1;
        pthread_cond_broadcast(&spawn_changed);
    }
    return NULL;
}

static void start_spawner(void) {
    // Writing input to a child that already exited must fail with EPIPE, not kill the test process.
    signal(SIGPIPE, SIG_IGN);
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    spawner_started = pthread_create(&thread, &attributes, spawner_main, NULL) == 0;
    pthread_attr_destroy(&attributes);
}

// Splits `count` NUL-terminated strings laid end to end into a NULL-terminated array (pointing into `block`).
static char **split_block(const char *block, int count) {
    char **list = calloc((size_t)count + 1, sizeof *list);
    if (!list) return NULL;
    const char *cursor = block;
    for (int index = 0; index < count; index++) {
        list[index] = (char *)cursor;
        cursor += strlen(cursor) + 1;
    }
    return list;
}

pid_t lhtest_spawn(const char *path,
                   const char *arguments, int argument_count,
                   const char *environment, int environment_count,
                   const char *directory,
                   int stdin_pipe, int *stdin_fd, int *stdout_fd, int *stderr_fd, int *error_number) {
    *error_number = 0;
    pthread_once(&spawner_once, start_spawner);
    if (!spawner_started) { *error_number = EAGAIN; return -1; }
    int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 }, report[2] = { -1, -1 };
    char **argv = split_block(arguments, argument_count);
    char **envp = split_block(environment, environment_count);
    pid_t pid = -1;
    if (!argv || !envp) { *error_number = ENOMEM; goto done; }
    if ((stdin_pipe && pipe2(in, O_CLOEXEC) != 0) ||
        pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0 || pipe2(report, O_CLOEXEC) != 0) {
        *error_number = errno;
        goto done;
    }

    struct spawn_job job = {
        .path = path, .argv = argv, .envp = envp, .directory = directory,
        .stdin_read = in[0], .stdout_write = out[1], .stderr_write = err[1], .report_write = report[1],
        .pid = -1, .error_number = 0, .done = 0,
    };
    pthread_mutex_lock(&spawn_mutex);
    while (pending_job != NULL) pthread_cond_wait(&spawn_changed, &spawn_mutex);
    pending_job = &job;
    pthread_cond_broadcast(&spawn_changed);
    while (!job.done) pthread_cond_wait(&spawn_changed, &spawn_mutex);
    pthread_mutex_unlock(&spawn_mutex);

    if (in[0] >= 0) { close(in[0]); in[0] = -1; }
    close(out[1]); out[1] = -1;
    close(err[1]); err[1] = -1;
    close(report[1]); report[1] = -1;
    if (job.pid < 0) { *error_number = job.error_number; goto done; }

    // The report pipe closes on a successful exec; four bytes mean chdir or exec failed.
    int child_error = 0;
    ssize_t got;
    do { got = read(report[0], &child_error, sizeof child_error); } while (got < 0 && errno == EINTR);
    if (got == (ssize_t)sizeof child_error) {
        int status;
        while (waitpid(job.pid, &status, 0) < 0 && errno == EINTR) {}
        *error_number = child_error;
        goto done;
    }
    pid = job.pid;
    *stdin_fd = in[1]; in[1] = -1;
    *stdout_fd = out[0]; out[0] = -1;
    *stderr_fd = err[0]; err[0] = -1;

done:
    for (int index = 0; index < 2; index++) {
        if (in[index] >= 0) close(in[index]);
        if (out[index] >= 0) close(out[index]);
        if (err[index] >= 0) close(err[index]);
        if (report[index] >= 0) close(report[index]);
    }
    free(argv);
    free(envp);
    return pid;
}

int lhtest_wait(pid_t pid, int timeout_ms, int *exit_code, int *signal_number) {
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        int status = 0;
        pid_t result = waitpid(pid, &status, WNOHANG);
        if (result == pid) {
            if (WIFEXITED(status)) { *exit_code = WEXITSTATUS(status); *signal_number = 0; }
            else { *exit_code = -1; *signal_number = WIFSIGNALED(status) ? WTERMSIG(status) : 0; }
            return 1;
        }
        if (result < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        long elapsed_ms = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
        if (elapsed_ms >= timeout_ms) return 0;
        usleep(500);
    }
}

int lhtest_write_all(int fd, const void *bytes, long length) {
    const char *cursor = bytes;
    while (length > 0) {
        ssize_t written = write(fd, cursor, (size_t)length);
        if (written < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        cursor += written;
        length -= written;
    }
    return 0;
}

void lhtest_error_text(int code, char *buffer, int length) {
    if (length <= 0) return;
    buffer[0] = 0;
    char *text = strerror_r(code, buffer, (size_t)length);  // GNU form: may return a static string instead
    if (text != buffer) snprintf(buffer, (size_t)length, "%s", text);
}
