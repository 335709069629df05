#include "CZBar.h"

const unsigned long CZBAR_FOURCC_Y800 = zbar_fourcc('Y', '8', '0', '0');
const unsigned long CZBAR_FOURCC_GREY = zbar_fourcc('G', 'R', 'E', 'Y');
