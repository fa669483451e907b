/* SPDX-License-Identifier: Apache-2.0 */
/* newlib's system calls, the same on every board: output goes to the board's
 * console, the heap lies between .bss and the main stack (the linker
 * script's __heap_start and __heap_end), and there are no files.
 *
 * Linked into every image as an object file, not from the board's static
 * library: libc asks for these only after the board library has been
 * scanned, so an archive member holding them would never be pulled in. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "board_services.h"

extern uint8_t __heap_start[], __heap_end[];

int _write(int fd, const char *buf, int len);
int _write(int fd, const char *buf, int len)
{
    (void)fd;
    for (int i = 0; i < len; i++) {
        if (buf[i] == '\n') {
            lm_board_putc('\r');
        }
        lm_board_putc(buf[i]);
    }
    return len;
}

void *_sbrk(int incr);
void *_sbrk(int incr)
{
    static uint8_t *brk = __heap_start;
    if (incr < 0 || (size_t)(__heap_end - brk) < (size_t)incr) {
        errno = ENOMEM;
        return (void *)-1;
    }
    uint8_t *old = brk;
    brk += incr;
    return old;
}

int _read(int fd, char *buf, int len);
int _read(int fd, char *buf, int len)
{
    (void)fd;
    (void)buf;
    (void)len;
    return 0;
}

int _close(int fd);
int _close(int fd)
{
    (void)fd;
    return -1;
}

int _lseek(int fd, int off, int whence);
int _lseek(int fd, int off, int whence)
{
    (void)fd;
    (void)off;
    (void)whence;
    return 0;
}

int _isatty(int fd);
int _isatty(int fd)
{
    (void)fd;
    return 1;
}

int _fstat(int fd, struct stat *st);
int _fstat(int fd, struct stat *st)
{
    (void)fd;
    st->st_mode = S_IFCHR;
    return 0;
}

int _getpid(void);
int _getpid(void)
{
    return 1;
}

int _kill(int pid, int sig);
int _kill(int pid, int sig)
{
    (void)pid;
    (void)sig;
    errno = EINVAL;
    return -1;
}

_Noreturn void _exit(int code);
_Noreturn void _exit(int code)
{
    lm_board_exit(code);
}

/* newlib's __libc_init_array calls these; with -nostartfiles nothing else
 * provides them, and there is nothing to do. */
void _init(void);
void _init(void) {}
void _fini(void);
void _fini(void) {}
