/* SPDX-License-Identifier: Apache-2.0 */
/* The few device facts CMSIS-Core's core header needs, for the MPS2
 * boards' cores (the NVIC functions the suite calls come from it). */
#ifndef LMV_DEVICE_H
#define LMV_DEVICE_H

typedef enum {
    NonMaskableInt_IRQn = -14,
    HardFault_IRQn = -13,
    MemoryManagement_IRQn = -12,
    BusFault_IRQn = -11,
    UsageFault_IRQn = -10,
    SVCall_IRQn = -5,
    DebugMonitor_IRQn = -4,
    PendSV_IRQn = -2,
    SysTick_IRQn = -1,
    Lmv_Irq30_IRQn = 30,
    Lmv_Irq31_IRQn = 31
} IRQn_Type;

#define __MPU_PRESENT 1U
#define __NVIC_PRIO_BITS 3U /* the board's; QEMU implements 8 */
#define __Vendor_SysTickConfig 0U

#if defined(LMV_CORE_CM7)
#define __CM7_REV 0x0000U
#define __FPU_PRESENT 1U
#define __ICACHE_PRESENT 0U
#define __DCACHE_PRESENT 0U
#define __DTCM_PRESENT 0U
#include "core_cm7.h"
#elif defined(LMV_CORE_CM3)
#define __CM3_REV 0x0201U
#include "core_cm3.h"
#else
#define __CM4_REV 0x0001U
#define __FPU_PRESENT 1U
#include "core_cm4.h"
#endif

#endif
