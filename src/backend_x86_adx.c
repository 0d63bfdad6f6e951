/* SPDX-License-Identifier: Apache-2.0 */
/* x86-64 "adx" level: MULX/ADCX/ADOX field arithmetic (field_x86.h), the
 * shared point formulas and scalar multiplications, scalar table scans. */
#if defined(__x86_64__)
#include "backend_x86.h"
#define FS2_FIELD FS2_FIELD_X86
#include "field/field.h"
#include "point/group_impl.h"
#include "ecmult/ecmult_impl.h"
#include "backend_impl.h"

FS2_X86_DEFINE(adx)
#endif
