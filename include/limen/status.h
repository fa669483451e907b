/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one status enumeration every Limen call returns.
 * docs/errors.md maps each class of bad input to its code.
 */
#ifndef LIMEN_STATUS_H
#define LIMEN_STATUS_H

typedef enum lm_status {
    LM_OK = 0,
    /* Outcomes of a legal request. */
    LM_ERR_TIMEOUT = -1,     /* the wait ended because its timeout expired;
                                lm_thread_sleep_until: the deadline had passed */
    LM_ERR_DELETED = -2,     /* the object was deleted while the caller waited */
    LM_ERR_WOULD_BLOCK = -3, /* not available now (queue full or empty, count 0,
                                mutex owned, pool empty) and no wait was asked */
    LM_ERR_ABORTED = -4,     /* the wait was ended by lm_thread_wait_abort() */
    LM_ERR_ABANDONED = -5,   /* mutex acquired, but its previous owner ended
                                while holding it: the caller owns it now */
    LM_ERR_OVERFLOW = -6,    /* a count would exceed its limit (semaphore
                                maximum, mutex recursion) */
    LM_ERR_DEADLOCK = -7,    /* waiting would close a cycle of mutex owners */
    /* Bad requests: nothing was changed. */
    LM_ERR_PARAM = -10,      /* NULL or misaligned pointer, zero or oversized
                                size, bad option, timeout out of range */
    LM_ERR_OBJECT = -11,     /* not a live object of the expected type
                                (uninitialised, deleted, wrong type) */
    LM_ERR_PRIORITY = -12,   /* priority or threshold out of range */
    LM_ERR_ISR = -13,        /* not allowed from interrupt context */
    LM_ERR_NOT_OWNER = -14,  /* mutex released by a thread that does not own it */
    LM_ERR_STATE = -15,      /* the object or thread is not in a state that
                                allows the call (resume of a thread not
                                suspended, start of a running thread, ...) */
    LM_ERR_LOCKED = -16,     /* the caller would block or stop while holding
                                the scheduler lock */
    LM_ERR_SIZE = -17,       /* message size differs from the queue's */
    LM_ERR_INIT = -18        /* called before lm_kernel_init() */
} lm_status_t;

/* A short constant name for a status ("LM_ERR_TIMEOUT"), for logs. */
const char *lm_status_name(lm_status_t status);

#endif /* LIMEN_STATUS_H */
