#include "robust_geometry/intersection_volume.hpp"
