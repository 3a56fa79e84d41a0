#include "trace/trace-hw_memqos.h"
