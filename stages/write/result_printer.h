// Printing query results as an aligned table, CSV or JSON.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace mapindex::index {

enum class QueryFormat { table, csv, json };

// One result cell, as SQLite typed it.
struct Cell {
  enum class Type { null, integer, real, text, blob } type = Type::null;
  std::string text;  // integer/real: SQLite's text form; blob: lowercase hex
  bool finite = true;  // real only: false for +-Inf (JSON prints null)
};

// Receives one result set: columns once, then rows, then finish().
class ResultPrinter {
 public:
  virtual ~ResultPrinter() = default;
  virtual void columns(const std::vector<std::string>& names) = 0;
  virtual void row(const std::vector<Cell>& cells) = 0;
  virtual void finish() = 0;
};

// table: a header, a dashed rule, left-aligned text and right-aligned numbers
// (widths from the first 10000 rows), NULL printed as NULL, control characters
// escaped (\n, \t), then "(N rows)".
// csv: RFC 4180 quoting, a header line, NULL as an empty field, "\n" line ends.
// json: an array of objects, one per line; integers and reals as numbers,
// NULL as null, text as UTF-8 strings (invalid bytes become U+FFFD), blobs as
// hex strings.
std::unique_ptr<ResultPrinter> make_printer(QueryFormat format, std::ostream& out);

// Parses "table", "csv" or "json".
std::optional<QueryFormat> parse_query_format(const std::string& name);

}  // namespace mapindex::index
