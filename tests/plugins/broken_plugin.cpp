// A shared object without the plugin entry point: loading it must fail with exit code 2
// and a message naming the file (tests/plugins/CMakeLists.txt).
extern "C" int tlmcraft_not_the_entry_point() { return 0; }
