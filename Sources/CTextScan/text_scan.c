// CTextScan is header-only (static inline functions, see include/text_scan.h); SwiftPM needs
// one source file in a C target.
#include "text_scan.h"
