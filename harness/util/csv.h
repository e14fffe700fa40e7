// RFC 4180 CSV: the gradebook and the LMS exports are written with it; overrides and rosters are read with it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace clgrade {

/// A field as RFC 4180 writes it: quoted (quotes doubled) when it holds a comma, a quote, CR or LF,
/// or starts or ends with a space; as is otherwise.
std::string csvField(const std::string& value);

/// `text` safe to open in a spreadsheet: a cell that starts with = + - @, a tab or CR gets a leading
/// apostrophe, so Excel or LibreOffice does not run a student's folder name as a formula.
std::string spreadsheetSafe(const std::string& text);

/// The fields joined by commas, ended by CRLF.
std::string csvRow(const std::vector<std::string>& fields);

struct CsvRecord {
  size_t line = 0;  ///< where the record starts (1-based); a quoted field may span lines
  std::vector<std::string> fields;
};

/// Parses RFC 4180 text: CRLF or LF line ends, quoted fields with doubled quotes and line breaks, a
/// UTF-8 byte-order mark at the start ignored, empty lines skipped. False with "line N: ..." in *err
/// on an unterminated quoted field or a quote inside an unquoted field or after a closing quote;
/// *records then holds the records before it.
bool parseCsv(const std::string& text, std::vector<CsvRecord>* records, std::string* err);

}  // namespace clgrade
