/* SPDX-License-Identifier: Apache-2.0 */
/* The library's version (limen/version.h, generated from CMake's
 * project(VERSION)): compiled into the library, so an application can tell
 * which kernel it linked. */
#include "limen/version.h"

const char *lm_version(void)
{
    return LM_VERSION_STRING;
}
