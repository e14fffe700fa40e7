// Includes itself.
#include "Convolution3x3.cl"
