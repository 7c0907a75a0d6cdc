# /*c*/ include "/etc/hostname"
int main(void) { return 0; }
