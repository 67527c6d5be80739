#include "index/entry_record.h"

#include "common/enum_text.h"

namespace mapindex::index {

std::string_view to_string(EntryKind kind) {
  switch (kind) {
    case EntryKind::map: return "map";
    case EntryKind::other: return "other";
    case EntryKind::oversize: return "oversize";
    case EntryKind::unreadable: return "unreadable";
  }
  return "other";
}

std::optional<EntryKind> parse_entry_kind(std::string_view text) {
  return parse_enum(text,
                    {EntryKind::map, EntryKind::other, EntryKind::oversize, EntryKind::unreadable});
}

std::string_view to_string(SourceKind kind) {
  switch (kind) {
    case SourceKind::archive: return "archive";
    case SourceKind::folder: return "folder";
    case SourceKind::file: return "file";
    case SourceKind::standard_input: return "stdin";
  }
  return "file";
}

std::optional<SourceKind> parse_source_kind(std::string_view text) {
  return parse_enum(text, {SourceKind::archive, SourceKind::folder, SourceKind::file,
                           SourceKind::standard_input});
}

std::string_view to_string(SourceReading reading) {
  switch (reading) {
    case SourceReading::complete: return "complete";
    case SourceReading::partial: return "partial";
    case SourceReading::unreadable: return "unreadable";
  }
  return "unreadable";
}

std::optional<SourceReading> parse_source_reading(std::string_view text) {
  return parse_enum(text,
                    {SourceReading::complete, SourceReading::partial, SourceReading::unreadable});
}

std::string_view to_string(RunStatus status) {
  switch (status) {
    case RunStatus::running: return "running";
    case RunStatus::complete: return "complete";
    case RunStatus::interrupted: return "interrupted";
    case RunStatus::failed: return "failed";
  }
  return "failed";
}

std::optional<RunStatus> parse_run_status(std::string_view text) {
  return parse_enum(
      text, {RunStatus::running, RunStatus::complete, RunStatus::interrupted, RunStatus::failed});
}

std::string entry_name(std::string_view entry_path) {
  const auto slash = entry_path.find_last_of("/\\");
  std::string_view base =
      slash == std::string_view::npos ? entry_path : entry_path.substr(slash + 1);
  if (base.empty()) return std::string(entry_path);
  const auto dot = base.rfind('.');
  if (dot != std::string_view::npos && dot > 0) base = base.substr(0, dot);
  return std::string(base);
}

}  // namespace mapindex::index
