#include "audit/source_comparison.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "audit/audit_rules.h"

namespace mapindex::audit {
namespace {

// 0 fine (ok, other), 1 degraded (warnings, oversize), 2 broken (rejected,
// unreadable).
int health_rank(Health health) {
  if (health == Health::rejected || health == Health::unreadable) return 2;
  if (health == Health::warnings || health == Health::oversize) return 1;
  return 0;
}

bool same_content(const SeenEntry& a, const SeenEntry& b) {
  if (a.version_id == b.version_id) return true;
  return !a.state.sha256.empty() && a.state.sha256 == b.state.sha256 &&
         a.state.kind == b.state.kind;
}

constexpr Severity kSeverities[] = {Severity::error, Severity::warning, Severity::info};

// Distinct codes of the problems, errors first and info last, each group in
// problem order.
std::vector<std::string> codes_of(const std::vector<ProblemRef>& problems) {
  std::vector<std::string> codes;
  for (const auto severity : kSeverities)
    for (const auto& p : problems)
      if (p.severity == severity && std::find(codes.begin(), codes.end(), p.code) == codes.end())
        codes.push_back(p.code);
  return codes;
}

// The codes among `codes` that the problems have as info (is_info) or as
// error or warning (!is_info), in their order.
std::vector<std::string> codes_of_kind(const std::vector<std::string>& codes,
                                       const std::vector<ProblemRef>& problems, bool is_info) {
  std::vector<std::string> out;
  for (const auto& code : codes) {
    const bool info_code = std::none_of(problems.begin(), problems.end(), [&](const ProblemRef& p) {
      return p.code == code && p.severity != Severity::info;
    });
    if (info_code == is_info) out.push_back(code);
  }
  return out;
}

std::vector<std::string> minus(const std::vector<std::string>& a,
                               const std::vector<std::string>& b) {
  std::vector<std::string> out;
  for (const auto& code : a)
    if (std::find(b.begin(), b.end(), code) == b.end()) out.push_back(code);
  return out;
}

// The message of the first problem (errors first) whose code is in `codes`.
std::string first_message(const std::vector<ProblemRef>& problems,
                          const std::vector<std::string>& codes) {
  for (const auto severity : kSeverities)
    for (const auto& p : problems)
      if (p.severity == severity && std::find(codes.begin(), codes.end(), p.code) != codes.end())
        return p.message;
  return {};
}

struct CodeTally {
  Severity severity = Severity::info;  // the gravest the code had (error < warning < info)
  std::int64_t entries = 0;
};

std::map<std::string, CodeTally> tally_codes(const std::vector<SeenEntry>& entries,
                                             const MapFactsById& facts) {
  std::map<std::string, CodeTally> tally;
  for (const auto& entry : entries) {
    std::set<std::string> seen;
    for (const auto& p : problems_of(entry, facts)) {
      auto& t = tally[p.code];
      t.severity = std::min(t.severity, p.severity);
      if (seen.insert(p.code).second) ++t.entries;
    }
  }
  return tally;
}

std::vector<CodeCount> problem_counts(const std::vector<SeenEntry>* before,
                                      const std::vector<SeenEntry>& now,
                                      const MapFactsById& facts) {
  const auto tally_now = tally_codes(now, facts);
  const auto tally_before =
      before ? tally_codes(*before, facts) : std::map<std::string, CodeTally>{};
  std::map<std::string, CodeCount> merged;
  for (const auto& [code, t] : tally_now) {
    auto& c = merged[code];
    c.code = code;
    c.severity = t.severity;
    c.entries = t.entries;
  }
  for (const auto& [code, t] : tally_before) {
    auto& c = merged[code];
    if (c.code.empty()) {
      c.code = code;
      c.severity = t.severity;
    } else {
      c.severity = std::min(c.severity, t.severity);
    }
    c.before = t.entries;
  }
  std::vector<CodeCount> counts;
  for (auto& [code, c] : merged) {
    c.is_new = c.entries > 0 && c.before == 0;
    counts.push_back(std::move(c));
  }
  // Info codes last; then new codes first, gone codes last, errors first.
  std::sort(counts.begin(), counts.end(), [](const CodeCount& a, const CodeCount& b) {
    return std::make_tuple(a.severity == Severity::info, !a.is_new, a.entries == 0,
                           a.severity != Severity::error, -a.entries, a.code) <
           std::make_tuple(b.severity == Severity::info, !b.is_new, b.entries == 0,
                           b.severity != Severity::error, -b.entries, b.code);
  });
  return counts;
}

bool by_path(const EntryState& a, const EntryState& b) { return a.path < b.path; }

// The facts of both sides of a change of map content at one path, or null.
std::pair<const MapFacts*, const MapFacts*> map_pair(const SeenEntry& was, const SeenEntry& now,
                                                     const MapFactsById& facts) {
  if (!was.state.map_id || !now.state.map_id) return {nullptr, nullptr};
  const auto a = facts.find(*was.state.map_id), b = facts.find(*now.state.map_id);
  if (a == facts.end() || b == facts.end()) return {nullptr, nullptr};
  return {&a->second, &b->second};
}

}  // namespace

bool may_be_replaced(const MapFacts& before, const MapFacts& after) {
  const bool game_layers = before.game_width > 0 && before.game_height > 0 &&
                           after.game_width > 0 && after.game_height > 0;
  const bool same_author = !before.author.empty() && before.author == after.author;
  return game_layers && !same_author &&
         (before.game_width != after.game_width || before.game_height != after.game_height);
}

bool is_replaced(const MapFacts& before, const MapFacts& after) {
  if (!may_be_replaced(before, after) || !before.layer_data || !after.layer_data) return false;
  // Both sorted: a merge finds any shared data.
  const auto& a = *before.layer_data;
  const auto& b = *after.layer_data;
  for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] == b[j]) return false;
    if (a[i] < b[j])
      ++i;
    else
      ++j;
  }
  return true;
}

std::set<std::int64_t> replacement_candidates(const std::vector<SeenEntry>& before,
                                              const std::vector<SeenEntry>& now,
                                              const MapFactsById& facts) {
  std::unordered_map<std::int64_t, const SeenEntry*> before_by_file;
  for (const auto& e : before) before_by_file.emplace(e.file_id, &e);
  std::set<std::int64_t> ids;
  for (const auto& e : now) {
    const auto found = before_by_file.find(e.file_id);
    if (found == before_by_file.end() || found->second->version_id == e.version_id) continue;
    const auto [a, b] = map_pair(*found->second, e, facts);
    if (a && b && may_be_replaced(*a, *b)) {
      ids.insert(*found->second->state.map_id);
      ids.insert(*e.state.map_id);
    }
  }
  return ids;
}

Totals totals_of(const std::vector<SeenEntry>& entries) {
  Totals t;
  std::unordered_set<std::string> contents;
  for (const auto& entry : entries) {
    const auto& s = entry.state;
    ++t.entries;
    t.bytes += s.size;
    if (s.kind == index::EntryKind::map) {
      ++t.maps;
      contents.insert(s.sha256);
      if (s.status == Health::ok)
        ++t.ok;
      else if (s.status == Health::warnings)
        ++t.warnings;
      else if (s.status == Health::rejected)
        ++t.rejected;
    } else if (s.kind == index::EntryKind::oversize) {
      ++t.oversize;
    } else if (s.kind == index::EntryKind::unreadable) {
      ++t.unreadable;
    } else {
      ++t.other;
    }
  }
  t.distinct_maps = static_cast<std::int64_t>(contents.size());
  return t;
}

std::vector<ProblemRef> problems_of(const SeenEntry& entry, const MapFactsById& facts) {
  if (entry.state.map_id) {
    const auto found = facts.find(*entry.state.map_id);
    return found == facts.end() ? std::vector<ProblemRef>{} : found->second.problems;
  }
  if (!entry.entry_problems.empty()) return entry.entry_problems;
  if (entry.state.kind == index::EntryKind::unreadable)
    return {{Severity::error, "entry.unreadable", "the entry could not be read"}};
  if (entry.state.kind == index::EntryKind::oversize)
    return {{Severity::error, "entry.oversize",
             "the entry is larger than --max-map-size and was not read"}};
  return {};
}

namespace {

// The baseline entry each entry now comes from: same path, or moved from.
using Origins = std::unordered_map<const SeenEntry*, const SeenEntry*>;

bool path_less(const SeenEntry* a, const SeenEntry* b) { return a->state.path < b->state.path; }

// Moves: a removed and an added entry with the same content, paired in
// path order (both sorted by path). The others go to out.added and
// out.removed.
void pair_moves(const std::vector<const SeenEntry*>& added,
                const std::vector<const SeenEntry*>& removed, Origins& origin, SourceAudit& out) {
  std::map<std::string, std::vector<const SeenEntry*>> removed_by_content;
  for (const auto* r : removed)
    if (!r->state.sha256.empty()) removed_by_content[r->state.sha256].push_back(r);
  std::map<std::string, std::size_t> next_removed;
  std::unordered_set<const SeenEntry*> moved_from;
  for (const auto* a : added) {
    const auto candidates = removed_by_content.find(a->state.sha256);
    if (a->state.sha256.empty() || candidates == removed_by_content.end()) {
      out.added.push_back(a->state);
      continue;
    }
    auto& next = next_removed[a->state.sha256];
    if (next >= candidates->second.size()) {
      out.added.push_back(a->state);
      continue;
    }
    const SeenEntry* from = candidates->second[next++];
    moved_from.insert(from);
    origin.emplace(a, from);
    out.moved.push_back({from->state, a->state});
  }
  for (const auto* r : removed)
    if (!moved_from.count(r)) out.removed.push_back(r->state);
}

// Pairs the entries now with the baseline's by file (path), then by content
// (moves): out.unchanged, changed, replaced, added, removed and moved, and
// the origin of every entry now whose content is not new at its path.
Origins pair_entries(const std::vector<SeenEntry>* before, const std::vector<SeenEntry>& now,
                     const MapFactsById& facts, SourceAudit& out) {
  std::unordered_map<std::int64_t, const SeenEntry*> before_by_file;
  if (before)
    for (const auto& e : *before) before_by_file.emplace(e.file_id, &e);
  Origins origin;
  std::unordered_set<std::int64_t> files_now;
  std::vector<const SeenEntry*> added;
  for (const auto& e : now) {
    files_now.insert(e.file_id);
    const auto found = before_by_file.find(e.file_id);
    if (found == before_by_file.end()) {
      added.push_back(&e);
      continue;
    }
    if (found->second->version_id == e.version_id) {
      ++out.unchanged;
      origin.emplace(&e, found->second);
      continue;
    }
    out.changed.push_back({found->second->state, e.state});
    // Another map under the same path: its content counts as new (no origin).
    const auto [a, b] = map_pair(*found->second, e, facts);
    if (a && b && is_replaced(*a, *b))
      out.replaced.push_back({found->second->state, e.state, a->game_width, a->game_height,
                              b->game_width, b->game_height});
    else
      origin.emplace(&e, found->second);
  }
  std::vector<const SeenEntry*> removed;
  if (before)
    for (const auto& e : *before)
      if (!files_now.count(e.file_id)) removed.push_back(&e);
  std::sort(added.begin(), added.end(), path_less);
  std::sort(removed.begin(), removed.end(), path_less);
  pair_moves(added, removed, origin, out);
  std::sort(out.changed.begin(), out.changed.end(),
            [](const EntryChange& a, const EntryChange& b) { return a.after.path < b.after.path; });
  std::sort(out.replaced.begin(), out.replaced.end(),
            [](const Replacement& a, const Replacement& b) { return a.after.path < b.after.path; });
  std::sort(out.added.begin(), out.added.end(), by_path);
  std::sort(out.removed.begin(), out.removed.end(), by_path);
  return origin;
}

// Health of every entry whose content is new at its path (`ordered`: the
// entries now by path): newly broken, gained problems or info, fixed.
void compare_health(const std::vector<const SeenEntry*>& ordered, const Origins& origin,
                    const MapFactsById& facts, SourceAudit& out) {
  for (const auto* e : ordered) {
    const auto found = origin.find(e);
    const SeenEntry* was = found == origin.end() ? nullptr : found->second;
    if (was && same_content(*was, *e)) continue;
    const auto problems_now = problems_of(*e, facts);
    const auto problems_before = was ? problems_of(*was, facts) : std::vector<ProblemRef>{};
    const auto codes_now = codes_of(problems_now);
    const auto codes_before = codes_of(problems_before);
    const int rank_now = health_rank(e->state.status);
    const int rank_before = was ? health_rank(was->state.status) : -1;
    const std::optional<Health> before_status =
        was ? std::optional<Health>(was->state.status) : std::nullopt;

    const auto gained_all = minus(codes_now, codes_before);
    const auto gained = codes_of_kind(gained_all, problems_now, false);
    const auto gained_info = codes_of_kind(gained_all, problems_now, true);
    if (!gained_info.empty())
      out.gained_info.push_back({e->state.path, before_status, e->state.status, gained_info,
                                 first_message(problems_now, gained_info), e->state.sha256});
    if (rank_now == 2 && rank_before < 2)
      out.newly_broken.push_back({e->state.path, before_status, e->state.status, gained,
                                  first_message(problems_now, gained), e->state.sha256});
    else if (!gained.empty())
      out.gained_problems.push_back({e->state.path, before_status, e->state.status, gained,
                                     first_message(problems_now, gained), e->state.sha256});
    if (was && rank_now < rank_before) {
      const auto lost = minus(codes_before, codes_now);
      out.fixed.push_back({e->state.path, before_status, e->state.status, lost,
                           first_message(problems_before, lost), e->state.sha256});
    }
  }
}

// Duplicate contents among the map entries now (`ordered` by path).
void find_duplicates(const std::vector<SeenEntry>* before,
                     const std::vector<const SeenEntry*>& ordered, SourceAudit& out) {
  std::map<std::string, DuplicateGroup> groups;
  for (const auto* e : ordered) {
    if (e->state.kind != index::EntryKind::map || e->state.sha256.empty()) continue;
    auto& g = groups[e->state.sha256];
    g.sha256 = e->state.sha256;
    g.map_id = e->state.map_id;
    g.paths.push_back(e->state.path);
  }
  std::map<std::string, std::set<std::string>> paths_before;
  if (before)
    for (const auto& e : *before)
      if (!e.state.sha256.empty()) paths_before[e.state.sha256].insert(e.state.path);
  for (auto& [sha, g] : groups) {
    if (g.paths.size() < 2) continue;
    const auto& known = paths_before[sha];
    g.is_new = !before || std::any_of(g.paths.begin(), g.paths.end(),
                                      [&](const std::string& p) { return !known.count(p); });
    out.duplicates.push_back(std::move(g));
  }
  std::sort(out.duplicates.begin(), out.duplicates.end(),
            [](const DuplicateGroup& a, const DuplicateGroup& b) { return a.paths < b.paths; });
}

// Rule findings; new unless the entry's origin had the same one.
void compare_findings(const std::vector<SeenEntry>* before, const std::vector<SeenEntry>& now,
                      const MapFactsById& facts, const Origins& origin, SourceAudit& out) {
  out.findings = evaluate_rules(now, facts);
  std::set<std::tuple<std::string, std::string, std::string>> findings_before;
  if (before)
    for (const auto& f : evaluate_rules(*before, facts))
      findings_before.emplace(f.path, f.rule, f.subject);
  std::unordered_map<std::string, const SeenEntry*> now_by_path;
  for (const auto& e : now) now_by_path.emplace(e.state.path, &e);
  for (auto& f : out.findings) {
    const auto entry = now_by_path.find(f.path);
    const SeenEntry* was = nullptr;
    if (entry != now_by_path.end()) {
      f.sha256 = entry->second->state.sha256;
      const auto found = origin.find(entry->second);
      if (found != origin.end()) was = found->second;
    }
    f.is_new = !was || !findings_before.count({was->state.path, f.rule, f.subject});
  }
}

}  // namespace

void compare_source(const std::vector<SeenEntry>* before, const std::vector<SeenEntry>& now,
                    const MapFactsById& facts, SourceAudit& out) {
  out.now = totals_of(now);
  out.before.reset();
  if (before) out.before = totals_of(*before);
  const Origins origin = pair_entries(before, now, facts, out);
  std::vector<const SeenEntry*> ordered;
  for (const auto& e : now) ordered.push_back(&e);
  std::sort(ordered.begin(), ordered.end(), path_less);
  compare_health(ordered, origin, facts, out);
  find_duplicates(before, ordered, out);
  out.problem_counts = problem_counts(before, now, facts);
  compare_findings(before, now, facts, origin, out);
}

}  // namespace mapindex::audit
