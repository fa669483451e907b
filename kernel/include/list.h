/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Intrusive circular doubly linked lists with a sentinel node.
 *
 *   operation        cost
 *   init, empty      O(1)
 *   push_back        O(1)
 *   remove           O(1)  (needs no list head: a node unlinks itself)
 *   pop_front        O(1)
 *   splice_back      O(1)  (moves a whole list)
 */
#ifndef LMK_LIST_H
#define LMK_LIST_H

#include <stddef.h>
#include "limen/base.h"

#define LMK_CONTAINER_OF(ptr, type, member) \
    ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

static inline void lmk_list_init(struct lm_dnode *head)
{
    head->next = head;
    head->prev = head;
}

static inline bool lmk_list_empty(const struct lm_dnode *head)
{
    return head->next == head;
}

static inline void lmk_list_push_back(struct lm_dnode *head, struct lm_dnode *n)
{
    n->next = head;
    n->prev = head->prev;
    head->prev->next = n;
    head->prev = n;
}

/* Unlink n from whatever list holds it; n->next becomes NULL ("not linked").
 * Precondition: n is linked, so n->prev and n->next are list members. */
static inline void lmk_list_remove(struct lm_dnode *n)
{
    /* A linked node's neighbours are never NULL. The analyzer loses the ring
     * invariant when it follows a pop_front loop (mutex.c) and assumes the
     * popped node is popped again. */
    /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
    n->prev->next = n->next;
    n->next->prev = n->prev;
    n->next = NULL;
    n->prev = NULL;
}

static inline struct lm_dnode *lmk_list_pop_front(struct lm_dnode *head)
{
    struct lm_dnode *n = head->next;
    if (n == head) {
        return NULL;
    }
    lmk_list_remove(n);
    return n;
}

/* Move every node of `from` to the back of `to`; `from` becomes empty. */
static inline void lmk_list_splice_back(struct lm_dnode *to, struct lm_dnode *from)
{
    if (lmk_list_empty(from)) {
        return;
    }
    struct lm_dnode *first = from->next;
    struct lm_dnode *last = from->prev;
    first->prev = to->prev;
    to->prev->next = first;
    last->next = to;
    to->prev = last;
    lmk_list_init(from);
}

#endif
