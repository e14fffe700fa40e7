#include "util/csv.h"

namespace clgrade {

std::string csvField(const std::string& value) {
  const bool quote = value.find_first_of(",\"\r\n") != std::string::npos ||
                     (!value.empty() && (value.front() == ' ' || value.back() == ' '));
  if (!quote) return value;
  std::string out = "\"";
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csvRow(const std::vector<std::string>& fields) {
  std::string row;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) row += ',';
    row += csvField(fields[i]);
  }
  return row + "\r\n";
}

bool parseCsv(const std::string& text, std::vector<CsvRecord>* records, std::string* err) {
  size_t i = text.compare(0, 3, "\xef\xbb\xbf") == 0 ? 3 : 0;
  size_t line = 1;
  const size_t n = text.size();
  while (i < n) {
    CsvRecord record;
    record.line = line;
    std::string field;
    bool quotedAny = false;
    for (;;) {  // one field per round
      field.clear();
      bool quoted = false;
      if (i < n && text[i] == '"') {
        quoted = quotedAny = true;
        const size_t startLine = line;
        ++i;
        for (;;) {
          if (i >= n) {
            *err = "line " + std::to_string(startLine) + ": a quoted field is not closed";
            return false;
          }
          const char c = text[i++];
          if (c == '"') {
            if (i < n && text[i] == '"') {
              field += '"';
              ++i;
              continue;
            }
            break;
          }
          if (c == '\n') ++line;
          field += c;
        }
      } else {
        while (i < n && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
          if (text[i] == '"') {
            *err = "line " + std::to_string(line) + ": a quote inside a field that does not start with one";
            return false;
          }
          field += text[i++];
        }
      }
      record.fields.push_back(field);
      if (i < n && text[i] == ',') {
        ++i;
        continue;
      }
      if (i >= n) break;
      if (text[i] == '\r' && i + 1 < n && text[i + 1] == '\n')
        i += 2;
      else if (text[i] == '\n' || text[i] == '\r')
        ++i;
      else {
        *err = "line " + std::to_string(line) + (quoted ? ": text after a closing quote" : ": unexpected character");
        return false;
      }
      ++line;
      break;
    }
    const bool blank = record.fields.size() == 1 && record.fields[0].empty() && !quotedAny;
    if (!blank) records->push_back(record);
  }
  return true;
}

std::string spreadsheetSafe(const std::string& text) {
  if (!text.empty() &&
      (text[0] == '=' || text[0] == '+' || text[0] == '-' || text[0] == '@' || text[0] == '\t' || text[0] == '\r'))
    return "'" + text;
  return text;
}

}  // namespace clgrade
