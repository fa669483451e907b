/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The study's red-black tree, keyed by (key, insertion order): insert with
 * the usual recolouring and rotations, and the next thread is the leftmost
 * node, removed with the usual fix-up. A sentinel stands for every leaf.
 */
#include <stddef.h>

#include "rq.h"

static rq_thread_t nil_node;
#define NIL (&nil_node)
static rq_thread_t *root;
static uint32_t now, seq;

static void rb_init(unsigned levels)
{
    (void)levels;
    nil_node.red = 0u;
    nil_node.left = nil_node.right = nil_node.parent = NIL;
    root = NIL;
    now = 0u;
    seq = 0u;
}

static int before(const rq_thread_t *a, const rq_thread_t *b)
{
    int32_t d = (int32_t)(a->key - b->key);
    return d < 0 || (d == 0 && (int32_t)(a->seq - b->seq) < 0);
}

static void rotate_left(rq_thread_t *x)
{
    rq_thread_t *y = x->right;
    x->right = y->left;
    if (y->left != NIL) {
        y->left->parent = x;
    }
    y->parent = x->parent;
    if (x->parent == NIL) {
        root = y;
    } else if (x == x->parent->left) {
        x->parent->left = y;
    } else {
        x->parent->right = y;
    }
    y->left = x;
    x->parent = y;
}

static void rotate_right(rq_thread_t *x)
{
    rq_thread_t *y = x->left;
    x->left = y->right;
    if (y->right != NIL) {
        y->right->parent = x;
    }
    y->parent = x->parent;
    if (x->parent == NIL) {
        root = y;
    } else if (x == x->parent->right) {
        x->parent->right = y;
    } else {
        x->parent->left = y;
    }
    y->right = x;
    x->parent = y;
}

static void rb_insert(rq_thread_t *z)
{
    z->key = now + z->step;
    z->seq = seq++;
    rq_thread_t *y = NIL;
    for (rq_thread_t *x = root; x != NIL; x = before(z, x) ? x->left : x->right) {
        y = x;
    }
    z->parent = y;
    if (y == NIL) {
        root = z;
    } else if (before(z, y)) {
        y->left = z;
    } else {
        y->right = z;
    }
    z->left = z->right = NIL;
    z->red = 1u;
    while (z->parent->red) {
        rq_thread_t *g = z->parent->parent;
        if (z->parent == g->left) {
            rq_thread_t *u = g->right;
            if (u->red) {
                z->parent->red = 0u;
                u->red = 0u;
                g->red = 1u;
                z = g;
            } else {
                if (z == z->parent->right) {
                    z = z->parent;
                    rotate_left(z);
                }
                z->parent->red = 0u;
                z->parent->parent->red = 1u;
                rotate_right(z->parent->parent);
            }
        } else {
            rq_thread_t *u = g->left;
            if (u->red) {
                z->parent->red = 0u;
                u->red = 0u;
                g->red = 1u;
                z = g;
            } else {
                if (z == z->parent->left) {
                    z = z->parent;
                    rotate_right(z);
                }
                z->parent->red = 0u;
                z->parent->parent->red = 1u;
                rotate_left(z->parent->parent);
            }
        }
    }
    root->red = 0u;
}

static void delete_fixup(rq_thread_t *x)
{
    while (x != root && !x->red) {
        if (x == x->parent->left) {
            rq_thread_t *w = x->parent->right;
            if (w->red) {
                w->red = 0u;
                x->parent->red = 1u;
                rotate_left(x->parent);
                w = x->parent->right;
            }
            if (!w->left->red && !w->right->red) {
                w->red = 1u;
                x = x->parent;
            } else {
                if (!w->right->red) {
                    w->left->red = 0u;
                    w->red = 1u;
                    rotate_right(w);
                    w = x->parent->right;
                }
                w->red = x->parent->red;
                x->parent->red = 0u;
                w->right->red = 0u;
                rotate_left(x->parent);
                x = root;
            }
        } else {
            rq_thread_t *w = x->parent->left;
            if (w->red) {
                w->red = 0u;
                x->parent->red = 1u;
                rotate_right(x->parent);
                w = x->parent->left;
            }
            if (!w->right->red && !w->left->red) {
                w->red = 1u;
                x = x->parent;
            } else {
                if (!w->left->red) {
                    w->right->red = 0u;
                    w->red = 1u;
                    rotate_left(w);
                    w = x->parent->left;
                }
                w->red = x->parent->red;
                x->parent->red = 0u;
                w->left->red = 0u;
                rotate_right(x->parent);
                x = root;
            }
        }
    }
    x->red = 0u;
}

/* Removes the leftmost node z: it has no left child, so its right child
 * (possibly the sentinel) takes its place. */
static rq_thread_t *rb_next(void)
{
    rq_thread_t *z = root;
    while (z->left != NIL) {
        z = z->left;
    }
    rq_thread_t *x = z->right;
    x->parent = z->parent;
    if (z->parent == NIL) {
        root = x;
    } else {
        z->parent->left = x;
    }
    if (!z->red) {
        delete_fixup(x);
    }
    now = z->key;
    return z;
}

const rq_ops_t rq_red_black = {"red_black", rb_init, rb_insert, rb_next};
