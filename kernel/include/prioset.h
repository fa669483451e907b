/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sets of priorities (struct lm_prio_set, limen/base.h): the bitmap behind
 * every priority queue and the scheduler's set of held threads (R3.6).
 *
 *   operation   cost (P = LM_CFG_PRIORITIES)
 *   add         O(1): one bit, and the summary bit above 32 priorities
 *   remove      O(1)
 *   contains    O(1)
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

/* Word and bit of prio. With 32 priorities or fewer there is one word and
 * prio < 32 (every caller passes a valid priority), so these fold to word 0
 * and a single shift: no division or mask on the hot paths. */
static inline unsigned lmk_prioset_word(unsigned prio)
{
    return (LM_PRIO_WORDS > 1) ? prio / 32u : 0u;
}

static inline uint32_t lmk_prioset_bit(unsigned prio)
{
    return 1u << ((LM_PRIO_WORDS > 1) ? prio % 32u : prio);
}

static inline bool lmk_prioset_empty(const struct lm_prio_set *s)
{
#if LM_PRIO_WORDS > 1
    return s->summary == 0u;
#else
    return s->word[0] == 0u;
#endif
}

static inline void lmk_prioset_add(struct lm_prio_set *s, unsigned prio)
{
#if LM_PRIO_WORDS > 1
    s->summary |= 1u << (prio / 32u);
#endif
    s->word[lmk_prioset_word(prio)] |= lmk_prioset_bit(prio);
}

static inline void lmk_prioset_remove(struct lm_prio_set *s, unsigned prio)
{
    s->word[lmk_prioset_word(prio)] &= ~lmk_prioset_bit(prio);
#if LM_PRIO_WORDS > 1
    if (s->word[prio / 32u] == 0u) {
        s->summary &= ~(1u << (prio / 32u));
    }
#endif
}

/* Remove the most urgent member of a set the caller knows is not empty:
 * the lowest bit, cleared with no need to know which it is. */
static inline void lmk_prioset_remove_first(struct lm_prio_set *s)
{
#if LM_PRIO_WORDS > 1
    unsigned w = (unsigned)__builtin_ctz(s->summary);
    s->word[w] &= s->word[w] - 1u;
    if (s->word[w] == 0u) {
        s->summary &= s->summary - 1u;
    }
#else
    s->word[0] &= s->word[0] - 1u;
#endif
}

static inline bool lmk_prioset_contains(const struct lm_prio_set *s, unsigned prio)
{
    return (s->word[lmk_prioset_word(prio)] & lmk_prioset_bit(prio)) != 0u;
}

/* Most urgent member of a set the caller knows is not empty. */
static inline unsigned lmk_prioset_first_of_nonempty(const struct lm_prio_set *s)
{
#if LM_PRIO_WORDS > 1
    unsigned w = (unsigned)__builtin_ctz(s->summary);
    return w * 32u + (unsigned)__builtin_ctz(s->word[w]);
#else
    return (unsigned)__builtin_ctz(s->word[0]);
#endif
}

/* Most urgent member; LMK_PRIO_NONE if the set is empty. */
static inline unsigned lmk_prioset_first(const struct lm_prio_set *s)
{
#if LM_PRIO_WORDS > 1
    if (s->summary == 0u) {
        return LMK_PRIO_NONE;
    }
#else
    if (s->word[0] == 0u) {
        return LMK_PRIO_NONE;
    }
#endif
    return lmk_prioset_first_of_nonempty(s);
}

#endif
