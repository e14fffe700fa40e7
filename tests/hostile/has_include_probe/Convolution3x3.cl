// Asks the compiler about the grader's files, through a macro so no #include is in sight, and through
// a pragma that fails the build when a file is missing: both refused before any compiler sees them.
#define PROBE __has_include
#if PROBE("/etc/shadow")
#define HAS_SHADOW 1
#endif
#pragma GCC dependency "/etc/shadow"
