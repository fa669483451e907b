/* SPDX-License-Identifier: Apache-2.0 */
/* Limen's version: the one place it is written. The top-level
 * CMakeLists.txt reads project(VERSION) from these three lines, so a build
 * that compiles the sources without CMake gets the same numbers. Semantic
 * versioning: while the major version is 0, a new minor version may change
 * the API (CHANGELOG.md). */
#ifndef LIMEN_VERSION_H
#define LIMEN_VERSION_H

#define LM_VERSION_MAJOR 0
#define LM_VERSION_MINOR 1
#define LM_VERSION_PATCH 0
/* "MAJOR.MINOR.PATCH", what lm_version() returns. */
#define LM_VERSION_STRING "0.1.0"

/* The version of the kernel library linked, as "MAJOR.MINOR.PATCH": it may
 * differ from LM_VERSION_STRING if the application was compiled against
 * other headers. Callable from any context; O(1). */
const char *lm_version(void);

#endif
