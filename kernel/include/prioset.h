/*
 * Sets of priorities (struct lm_prio_set, limen/base.h): the bitmap behind
 * every priority queue and the scheduler's set of held threads (R3.6).
 *
 *   operation   cost (P = LM_CFG_PRIORITIES)
 *   add         O(1): one bit, and the summary bit above 32 priorities
 *   remove      O(1)
 *   has         O(1)
 *   first       O(1): one bit scan, two above 32 priorities
 *
 * Lower numbers are more urgent, so the most urgent member is the lowest
 * set bit: __builtin_ctz, one instruction (RBIT + CLZ) on Armv7-M.
 */
#ifndef LMK_PRIOSET_H
#define LMK_PRIOSET_H

#include "limen/base.h"

/* What lmk_prioset_first returns for an empty set. */
#define LMK_PRIO_NONE 0xFFFFu

static inline bool lmk_prioset_empty(const struct lm_prio_set *s)
{
#if LM_PRIO_WORDS > 1
    return s->summary == 0u;
#else
    return s->word[0] == 0u;
#endif
}

static inline bool lmk_prioset_has(const struct lm_prio_set *s, unsigned prio)
{
    return (s->word[prio / 32u] & (1u << (prio % 32u))) != 0u;
}

static inline void lmk_prioset_add(struct lm_prio_set *s, unsigned prio)
{
#if LM_PRIO_WORDS > 1
    s->summary |= 1u << (prio / 32u);
#endif
    s->word[prio / 32u] |= 1u << (prio % 32u);
}

static inline void lmk_prioset_remove(struct lm_prio_set *s, unsigned prio)
{
    s->word[prio / 32u] &= ~(1u << (prio % 32u));
#if LM_PRIO_WORDS > 1
    if (s->word[prio / 32u] == 0u) {
        s->summary &= ~(1u << (prio / 32u));
    }
#endif
}

/* Most urgent member; LMK_PRIO_NONE if the set is empty. */
static inline unsigned lmk_prioset_first(const struct lm_prio_set *s)
{
#if LM_PRIO_WORDS > 1
    if (s->summary == 0u) {
        return LMK_PRIO_NONE;
    }
    unsigned w = (unsigned)__builtin_ctz(s->summary);
    return w * 32u + (unsigned)__builtin_ctz(s->word[w]);
#else
    if (s->word[0] == 0u) {
        return LMK_PRIO_NONE;
    }
    return (unsigned)__builtin_ctz(s->word[0]);
#endif
}

#endif
