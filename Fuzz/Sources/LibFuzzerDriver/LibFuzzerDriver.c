// Declarations only (include/LibFuzzerDriver.h); the driver itself is libFuzzer's.
#include "LibFuzzerDriver.h"
