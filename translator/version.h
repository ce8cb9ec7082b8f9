/* version.h - the SystemTap language version this translator implements.
 *
 * Scripts test it with %( systemtap_v >= "4.0" %? … %); --compatible may
 * lower it.  PACKAGE_STRING and PKGDATADIR come from configure.
 */
#ifndef VERSION_H
#define VERSION_H

#include "config.h"

#define STAP_VERSION "4.8"

/* -V: the kernels the test suite runs on (the testbed's matrix) */
#define STAP_TESTED_KERNELS "5.10 ... 7.2"

#endif
