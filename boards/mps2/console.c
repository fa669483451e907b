/* MPS2 console (CMSDK UART0), timestamp timer (CMSDK timer 1), newlib glue. */
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>

#include "limen/armv7m.h"
#include "board.h"

#define UART0_BASE 0x40004000u
#define UART_DATA LM_REG32(UART0_BASE + 0x00u)
#define UART_STATE LM_REG32(UART0_BASE + 0x04u)
#define UART_CTRL LM_REG32(UART0_BASE + 0x08u)
#define UART_BAUDDIV LM_REG32(UART0_BASE + 0x10u)
#define UART_STATE_TXFULL (1u << 0)
#define UART_CTRL_TXEN (1u << 0)

#define TIMER1_BASE 0x40001000u
#define TIMER_CTRL LM_REG32(TIMER1_BASE + 0x00u)
#define TIMER_VALUE LM_REG32(TIMER1_BASE + 0x04u)
#define TIMER_RELOAD LM_REG32(TIMER1_BASE + 0x08u)
#define TIMER_CTRL_EN (1u << 0)

#define CONSOLE_BAUD 115200u

void lm_board_init(void)
{
    UART_BAUDDIV = MPS2_SYSCLK_HZ / CONSOLE_BAUD;
    UART_CTRL = UART_CTRL_TXEN;
    TIMER_RELOAD = 0xFFFFFFFFu;
    TIMER_VALUE = 0xFFFFFFFFu;
    TIMER_CTRL = TIMER_CTRL_EN;
}

void lm_board_putc(char c)
{
    while ((UART_STATE & UART_STATE_TXFULL) != 0u) {
    }
    UART_DATA = (uint8_t)c;
}

void lm_board_puts(const char *s)
{
    while (*s != '\0') {
        lm_board_putc(*s++);
    }
}

uint32_t lm_board_timestamp(void)
{
    return 0xFFFFFFFFu - TIMER_VALUE;
}

/* newlib system calls: output to the console, a heap between .bss and the
 * main stack, no files. */
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
int _read(int fd, char *buf, int len) { (void)fd; (void)buf; (void)len; return 0; }
int _close(int fd);
int _close(int fd) { (void)fd; return -1; }
int _lseek(int fd, int off, int whence);
int _lseek(int fd, int off, int whence) { (void)fd; (void)off; (void)whence; return 0; }
int _isatty(int fd);
int _isatty(int fd) { (void)fd; return 1; }
int _fstat(int fd, struct stat *st);
int _fstat(int fd, struct stat *st) { (void)fd; st->st_mode = S_IFCHR; return 0; }
int _getpid(void);
int _getpid(void) { return 1; }
int _kill(int pid, int sig);
int _kill(int pid, int sig) { (void)pid; (void)sig; errno = EINVAL; return -1; }
_Noreturn void _exit(int code);
_Noreturn void _exit(int code) { lm_board_exit(code); }
