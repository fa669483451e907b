/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The version (limen/version.h): the numbers and lm_version() are CMake's
 * project(VERSION), which the build passes here as LMT_PROJECT_VERSION, and
 * agree with each other.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "limen/version.h"

LMT_CASE(version_is_the_projects)
{
    LMT_CHECK(strcmp(lm_version(), LMT_PROJECT_VERSION) == 0);
    LMT_CHECK(strcmp(LM_VERSION_STRING, LMT_PROJECT_VERSION) == 0);
}

LMT_CASE(version_numbers_spell_the_string)
{
    char s[40];
    (void)snprintf(s, sizeof s, "%d.%d.%d", LM_VERSION_MAJOR, LM_VERSION_MINOR,
                   LM_VERSION_PATCH);
    LMT_CHECK(strcmp(s, lm_version()) == 0);
}

LMT_MAIN(LMT_RUN(version_is_the_projects), LMT_RUN(version_numbers_spell_the_string))
