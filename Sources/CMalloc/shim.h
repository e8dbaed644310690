// glibc allocator tuning (mallopt), used by the CLI on Linux only.
#if defined(__linux__)
#include <malloc.h>
#endif
