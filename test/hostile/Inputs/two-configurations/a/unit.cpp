#include "../shared/loader.h"
