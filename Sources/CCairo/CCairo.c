// cairo's API imports into Swift as is; this file gives the module its C translation unit.
#include "CCairo.h"
