#define P "/etc/passwd"
#include P
#include <stdint.h>
int main(void) { return 0; }
