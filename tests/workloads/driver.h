/* driver: what every timed workload shares: its [SECONDS] [THREADS]
 * arguments, a deadline, extra threads and an atomically written pid file.
 * main() keeps calling its own hot function itself, so profiles see
 * main -> that function directly. */
#ifndef TRACETOP_WORKLOAD_DRIVER_H
#define TRACETOP_WORKLOAD_DRIVER_H

/* Parse argv ([SECONDS] [THREADS], defaults 5 and 1; exit 2 on a bad one),
 * set the deadline, start THREADS - 1 threads running thread_fn and write
 * our pid to the file named by env pidfile_env when it is set. */
void driver_start(const char *name, int argc, char **argv, const char *pidfile_env,
                  void *(*thread_fn)(void *));

/* Write our pid to path atomically (a temporary file, then a rename);
 * exit 1 on failure. name is for messages. */
void driver_pidfile(const char *name, const char *path);

/* Has the deadline passed? (One clock read: call it once per round.) */
int driver_past_deadline(void);

/* Wait for the threads driver_start made. */
void driver_join(void);

#endif
