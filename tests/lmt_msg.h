/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Messages whose every byte names them, for the queue tests
 * (test_queue.c, test_pqueue.c): a receive that copies the wrong message,
 * part of one, or writes past it is caught by the bytes themselves.
 * A receive buffer is LMT_MSG_SIZE bytes followed by 4 guard bytes.
 */
#ifndef LMT_MSG_H
#define LMT_MSG_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "harness.h"

#define LMT_MSG_SIZE 7u     /* odd, so that no copy is word-sized */
#define LMT_MSG_GUARD 0xEEu /* the bytes after a message in a buffer */

/* Message `id`: every byte depends on id and position. */
static inline void lmt_msg_make(uint8_t *m, unsigned id)
{
    for (unsigned i = 0; i < LMT_MSG_SIZE; i++) {
        m[i] = (uint8_t)(id * 37u + i * 11u + 1u);
    }
}

/* The id (0..255) of a received message; fails unless every byte matches
 * and the bytes after the message are untouched. */
static inline unsigned lmt_msg_id(const uint8_t *buf)
{
    for (unsigned i = LMT_MSG_SIZE; i < LMT_MSG_SIZE + 4u; i++) {
        if (buf[i] != LMT_MSG_GUARD) {
            lmt_fail(__FILE__, __LINE__, "receive wrote past the message");
        }
    }
    for (unsigned id = 0; id < 256u; id++) {
        uint8_t m[LMT_MSG_SIZE];
        lmt_msg_make(m, id);
        if (memcmp(m, buf, LMT_MSG_SIZE) == 0) {
            return id;
        }
    }
    lmt_fail(__FILE__, __LINE__, "message bytes corrupted");
}

/* A receive buffer of guard bytes only. */
static inline void lmt_msg_clear(uint8_t *buf)
{
    memset(buf, LMT_MSG_GUARD, LMT_MSG_SIZE + 4u);
}

/* True if no receive wrote into buf since lmt_msg_clear. */
static inline bool lmt_msg_untouched(const uint8_t *buf)
{
    for (unsigned i = 0; i < LMT_MSG_SIZE + 4u; i++) {
        if (buf[i] != LMT_MSG_GUARD) {
            return false;
        }
    }
    return true;
}

#endif
