/* SPDX-License-Identifier: Apache-2.0 */
/*
 * This application's Limen configuration: only what differs from the
 * defaults in limen/config.h. Limen is built with it (LIMEN_CONFIG_HEADER),
 * and the application sees the same header through the limen::limen target,
 * so both agree on the layout of every control block.
 */
#ifndef APP_LIMEN_CONFIG_H
#define APP_LIMEN_CONFIG_H

/* 16 priorities, 0..15, instead of 32: smaller ready and wait queues. */
#define LM_CFG_PRIORITIES 16

/* A smaller timeout wheel: this application has few timeouts. */
#define LM_CFG_TIMER_WHEEL_SLOTS 16

#endif
