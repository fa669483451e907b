/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The guest-side watchdog every target image gets (support.c): a run that
 * does not end within 20 s of virtual time is failed with a message. ctest
 * passes this image only if that message appears: the case below would run
 * for 30 s of virtual time (R8.2: a 30,000-tick sleep), so it is the
 * watchdog, not the case, that must end it.
 */
#include "board.h"
#include "harness.h"

static void sleeper(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(30u * LM_CFG_TICK_HZ), LM_OK);
    lmt_log("woke"); /* never: the watchdog ends the run at 20 s */
}

LMT_CASE(watchdog_ends_a_run_that_never_finishes)
{
    lmt_begin();
    lmt_spawn("S", 3, sleeper, NULL);
    lmt_run();
    lmt_fail(__FILE__, __LINE__, "the run ended without the watchdog: %s", lmt_trace());
}

LMT_MAIN(LMT_RUN(watchdog_ends_a_run_that_never_finishes))
