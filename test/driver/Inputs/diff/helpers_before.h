#pragma once
#include "points.h"

inline void helper() {}
