??=include "/etc/no_such_file_xyz"
#/* two
 lines */include "../../etc/passwd"
int main(void) { return 0; }
