// `swref verify RECORD` and `swref report RECORD... --out DIR`: call app/core (verify.h, report.h) and print.
// The options themselves are parsed in commands.cpp.
#pragma once

#include <string>
#include <vector>

namespace swref::cli {

// Exit codes (docs/record.md, "swref verify"): 0 verified (the scores on stdout); 1 tampered or inconsistent
// (one line on stderr naming the first bad entry); 2 not a readable record; 3 a record without a journal:
// replayed and scored, but its integrity cannot be proven.
int RunVerify(const std::string& record);

// Exit codes: 0 written (the files listed on stdout); 1 a record fails verification or a file cannot be written;
// 2 a record is not readable. Nothing is written unless every record reads and verifies.
int RunReport(const std::vector<std::string>& records, const std::string& out);

}  // namespace swref::cli
