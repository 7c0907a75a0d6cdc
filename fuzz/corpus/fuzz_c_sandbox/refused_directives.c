#if __has_include("/etc/passwd")
#endif
#include_next <stdint.h>
#line 1 "/etc/x"
int main(void) { return 0; }
