// Real maps: every `.map` under ../shared/corpus/maps opens or fails with a
// named rule, cross-checked against MANIFEST.tsv (written by an independent
// parser): version, item and data counts, its FAIL verdicts, and its
// "header_size_field_mismatch" flag against our v4 crude header detection.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "decode/datafile/datafile.h"
#include "decode/datafile/uuid.h"
#include "tests/support/codes.h"
#include "tests/support/corpus.h"

using namespace mapindex::datafile;
namespace corpus = mapindex::testing;

namespace {

std::string column(const std::map<std::string, std::string>& row, const std::string& name) {
  const auto it = row.find(name);
  return it == row.end() ? std::string() : it->second;
}

std::string join(const std::set<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

}  // namespace

TEST_SUITE("datafile") {
  TEST_CASE("datafile corpus: every map opens or fails with a named rule, as MANIFEST.tsv says") {
    const auto files = corpus::corpus_files("maps", ".map");
    if (files.empty()) {
      corpus::report_corpus_missing("maps", "datafile corpus test");
      return;
    }
    const auto manifest = corpus::corpus_manifest("maps");
    CHECK_MESSAGE(!manifest.empty(), "MANIFEST.tsv missing or empty");

    std::size_t opened = 0, crude = 0, with_uuid_types = 0, unknown_uuid_types = 0;
    std::map<std::string, std::size_t> failed_by_rule;
    std::size_t crude_flagged = 0, crude_agree = 0;
    std::ostringstream lines;
    for (const auto& path : files) {
      const std::string name = path.filename().string();
      CAPTURE(name);
      const auto bytes = corpus::read_file(path);
      const auto row_it = manifest.find(name);
      CHECK_MESSAGE(row_it != manifest.end(), "not in MANIFEST.tsv");
      const std::map<std::string, std::string> row =
          row_it == manifest.end() ? std::map<std::string, std::string>{} : row_it->second;
      const std::string status = column(row, "parse_status");
      const bool manifest_fail = status.rfind("FAIL", 0) == 0;
      const bool manifest_mismatch = status.find("header_size_field_mismatch") != std::string::npos;
      if (manifest_mismatch) ++crude_flagged;

      auto df = Datafile::open(bytes);
      if (!df) {
        ++failed_by_rule[std::string(to_string(df.error().code))];
        lines << name << "\tFAILED " << df.error().to_string() << "\t(manifest: " << status
              << ")\n";
        CHECK_MESSAGE(manifest_fail, "we refuse a map the manifest parsed ("
                                         << status << "): " << df.error().to_string());
        CHECK_FALSE(to_string(df.error().code).empty());
        continue;
      }
      ++opened;
      if (df->crude_header()) ++crude;
      std::size_t uuid_items = df->items_of_type(kUuidIndexType).num;
      if (uuid_items > 0) ++with_uuid_types;
      lines << name << "\tv" << df->version() << (df->crude_header() ? " crude" : "      ")
            << "\titems " << df->num_items() << "\tdata " << df->num_data() << "\tuuid types "
            << uuid_items;
      for (const auto& w : df->warnings())
        if (w.code != Code::H6_crude)
          lines << "\twarning " << to_string(w.code) << ": " << w.message;
      lines << '\n';

      CHECK_MESSAGE(!manifest_fail, "we open a map the manifest refused: " << status);
      if (!manifest_fail && row_it != manifest.end()) {
        CHECK(std::to_string(df->version()) == column(row, "datafile_version"));
        CHECK(std::to_string(df->num_items()) == column(row, "num_items"));
        CHECK(std::to_string(df->num_data()) == column(row, "num_data"));
      }
      // The manifest's "header_size_field_mismatch" maps are exactly the crude ones.
      CHECK(df->crude_header() == manifest_mismatch);
      if (df->crude_header() == manifest_mismatch && manifest_mismatch) ++crude_agree;
      // Every warning is one the decoder documents.
      for (const auto& w : df->warnings())
        CHECK((w.code == Code::H6_crude || w.code == Code::V6_zero_size));
      // UUID index items name UUID type ids, and the UUID types we resolve are
      // the ones the manifest lists (its uuid_types names "automapper-config"
      // stand for DDNet's "mapitemtype-automapper-config@ddnet.tw").
      const auto r = df->items_of_type(kUuidIndexType);
      std::set<std::string> resolved;
      for (std::uint32_t i = r.start; i < r.start + r.num; ++i) {
        const Item it = df->item(i);
        CHECK(it.id >= kFirstUuidTypeId);
        const auto uuid = df->uuid_of(it.id);
        REQUIRE(uuid.has_value());
        std::string known(known_uuid_name(*uuid));
        if (known.empty()) {
          ++unknown_uuid_types;
          lines << "  unknown UUID type " << uuid->to_string() << '\n';
          continue;
        }
        // "mapitemtype-automapper-config@ddnet.tw" -> "automapper-config"
        known = known.substr(12, known.find('@') - 12);
        resolved.insert(known);
      }
      if (row_it != manifest.end()) {
        std::set<std::string> listed;
        std::stringstream ss(column(row, "uuid_types"));
        for (std::string token; std::getline(ss, token, ',');)
          if (!token.empty()) listed.insert(token);
        CHECK(join(resolved) == join(listed));
      }
    }

    std::ostringstream summary;
    summary << files.size() << " maps: " << opened << " opened (" << crude
            << " with a v4 crude header, " << with_uuid_types << " with UUID item types, "
            << unknown_uuid_types << " unknown UUID types)";
    for (const auto& [rule, n] : failed_by_rule) summary << ", " << n << " failed " << rule;
    summary << "; manifest header_size_field_mismatch: " << crude_flagged
            << ", of them crude here: " << crude_agree;
    std::cout
        << "datafile corpus, per map (file, version, crude, items, data items | failing rule):\n"
        << lines.str() << "datafile corpus summary: " << summary.str() << '\n';
    CHECK(opened + [&] {
      std::size_t n = 0;
      for (const auto& [rule, k] : failed_by_rule) n += k;
      return n;
    }() == files.size());
    CHECK(opened > 0);
  }

  TEST_CASE(
      "datafile corpus: every data item of every map that opens inflates to its declared size") {
    const auto files = corpus::corpus_files("maps", ".map");
    if (files.empty()) {
      corpus::report_corpus_missing("maps", "datafile corpus inflate test");
      return;
    }
    std::size_t maps = 0, items = 0, zero_size = 0;
    std::uint64_t compressed = 0, inflated = 0;
    std::vector<std::uint8_t> scratch;
    for (const auto& path : files) {
      const auto bytes = corpus::read_file(path);
      auto df = Datafile::open(bytes);
      if (!df) continue;
      ++maps;
      CAPTURE(path.filename().string());
      for (std::size_t i = 0; i < df->num_data(); ++i) {
        CAPTURE(i);
        auto d = df->data(i, scratch);
        if (df->data_size(i) == 0) {  // warned as V6 at open; loading it is D2
          ++zero_size;
          REQUIRE_FALSE(d);
          CHECK(d.error().code == Code::D2);
          continue;
        }
        REQUIRE_MESSAGE(d, (d ? "" : d.error().to_string()));
        CHECK(static_cast<std::int64_t>(d->size()) == df->data_size(i));
        ++items;
        compressed += df->data_stored_size(i);
        inflated += d->size();
      }
    }
    std::cout << "datafile corpus inflate: " << items << " data items of " << maps << " maps, "
              << compressed << " bytes -> " << inflated << " bytes";
    if (zero_size) std::cout << ", " << zero_size << " of declared size 0 (D2)";
    std::cout << '\n';
    CHECK(items > 0);
  }

}  // TEST_SUITE
