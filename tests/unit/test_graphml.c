/* placeholder: being written */
#include "tests.h"
void suite_graphml(void) {}
