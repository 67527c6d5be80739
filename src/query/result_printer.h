// Printing query results as an aligned table, CSV, TSV, JSON or NDJSON.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace mapindex::query {

enum class QueryFormat { table, csv, tsv, json, ndjson };

// One result cell, as SQLite typed it.
struct Cell {
  enum class Type { null, integer, real, text, blob } type = Type::null;
  std::string text;    // integer/real: SQLite's text form; blob: lowercase hex
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
// escaped (\n, \t), then "(N rows)". When `max_cell_width` is not 0, a cell
// (or column name) wider than that many code points is cut to
// max_cell_width - 1 code points and "…".
// csv: RFC 4180 quoting, a header line, NULL as an empty field, "\n" line ends.
// tsv: a header line, fields separated by tabs, NULL as an empty field; a
// backslash, tab, newline or carriage return inside a value is written \\,
// \t, \n, \r, so every row is one line.
// json: an array of objects, one per line; ndjson: one object per line and
// nothing else. Integers and reals as numbers (+-Inf as null), NULL as null,
// text as strings.
// Every format writes valid UTF-8: invalid bytes in text become U+FFFD
// (to_valid_utf8); blobs are lowercase hex ("00ff") in every format. Only
// the table is ever cut.
std::unique_ptr<ResultPrinter> make_printer(QueryFormat format, std::ostream& out,
                                            std::size_t max_cell_width = 0);

// Each row's cells as they are (valid UTF-8, NULL as nothing), separated by
// two spaces, one row per line; no header, no row count: how the table
// format prints .tables and .schema, like the sqlite3 shell.
std::unique_ptr<ResultPrinter> make_lines_printer(std::ostream& out);

}  // namespace mapindex::query
