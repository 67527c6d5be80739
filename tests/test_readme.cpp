// The documentation must be true where a test can tell: every ```sql block
// of docs/queries.md, run with `mapindex query` on an index of the demo
// archive, prints exactly the ```text block that follows it, and every
// ```console example of the pages prints what the page shows.
#include <doctest/doctest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "extract/teeworlds_features.h"
#include "tests/support/archive_builder.h"
#include "tests/support/corpus.h"
#include "tests/support/process.h"
#include "tests/test_index_helpers.h"

using namespace mapindex::testing;

namespace {

std::string read_doc(const char* path) {
  return read_text_file(std::filesystem::path(MAPINDEX_SOURCE_DIR) / path);
}

// One command of a ```console block: the line after "$ ", and the lines up
// to the next "$ " line, which are what it prints (standard output and error
// together). A command ending in a here-document (<<'EOF') takes the lines
// up to EOF with it.
struct ConsoleStep {
  std::string command, expected;
};

std::vector<ConsoleStep> console_steps(const std::string& page) {
  std::vector<ConsoleStep> steps;
  const std::regex block("```console\\n([\\s\\S]*?)```");
  for (std::sregex_iterator it(page.begin(), page.end(), block), last; it != last; ++it) {
    std::istringstream lines((*it)[1].str());
    std::string line;
    while (std::getline(lines, line)) {
      if (line.starts_with("$ ")) {
        steps.push_back({line.substr(2), ""});
        if (line.ends_with("<<'EOF'"))
          while (std::getline(lines, line)) {
            steps.back().command += "\n" + line;
            if (line == "EOF") break;
          }
      } else {
        REQUIRE_MESSAGE(!steps.empty(), "a console block must start with a command: " << line);
        steps.back().expected += line + "\n";
      }
    }
  }
  return steps;
}

// What differs from one run to the next (timestamps, the seconds and rates
// of the run summary's time line) and what an editor may strip (spaces at
// the end of a line).
std::string stable(const std::string& text) {
  static const std::regex timestamp("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z");
  static const std::regex time_line("\\n  time +[^\\n]*");
  static const std::regex line_end(" +\\n");
  std::string out = std::regex_replace(text, timestamp, "<timestamp>");
  out = std::regex_replace(out, time_line, "\n  time <seconds>");
  return std::regex_replace(out, line_end, "\n");
}

// Runs the ```console examples of a page in order, as a user would type
// them, in a new folder that holds the demo archive as maps.zip. The PATH is
// the build folder (mapindex, mapindex-make-demo) and the system's, not the
// caller's, so `python3` is the Debian one a new user has.
void check_console_examples(const char* page) {
  const auto steps = console_steps(read_doc(page));
  REQUIRE(!steps.empty());
  TempDir tmp;
  REQUIRE(run_process(make_demo_binary(), {tmp.file("maps.zip")}).exit_code == 0);
  const std::string bin = std::filesystem::path(mapindex_binary()).parent_path().string();
  const auto in_shell = [&](const std::string& command) {
    return run_process(
        "/bin/bash",
        {"-c", "cd \"$1\" && PATH=\"$2\":/usr/local/bin:/usr/bin:/bin && eval \"$3\" 2>&1", "bash",
         tmp.path().string(), bin, command});
  };
  for (const auto& step : steps) {
    INFO(page << ": $ " << step.command);
    if (contains(step.command, "import pandas") &&
        in_shell("python3 -c 'import pandas'").exit_code != 0) {
      report_skipped(std::string(page) + ": pandas is not installed (python3-pandas)");
      continue;
    }
    const auto r = in_shell(step.command);
    CHECK(r.exit_code <= 1);
    CHECK(stable(r.out) == stable(step.expected));
  }
}

}  // namespace

TEST_SUITE("readme") {
  TEST_CASE("readme e2e: README.md: the quickstart prints what the page shows") {
    check_console_examples("README.md");
  }

  // Every command the program lists is in the README's command summary.
  TEST_CASE("readme e2e: README.md: the commands section names every command of mapindex --help") {
    const std::string readme = read_doc("README.md");
    const auto start = readme.find("\n## Commands\n");
    REQUIRE(start != std::string::npos);
    const std::string section = readme.substr(start, readme.find("\n## ", start + 5) - start);
    const auto help = run_process(mapindex_binary(), {"--help"});
    REQUIRE(help.exit_code == 0);
    std::istringstream lines(help.out.substr(help.out.find("\nCommands:\n") + 1));
    std::string line;
    std::getline(lines, line);  // "Commands:"
    int commands = 0;
    while (std::getline(lines, line) && !line.empty()) {
      if (!line.starts_with("  ") || line[2] == ' ') continue;  // a description goes on
      const std::string command = line.substr(2, line.find(' ', 2) - 2);
      INFO("command " << command);
      CHECK(section.find("\nmapindex " + command + " ") != std::string::npos);
      ++commands;
    }
    CHECK(commands >= 6);
  }

  // The README is the front door: a user gets to a first answer on its first
  // screens, and the depth is one link away in docs/.
  TEST_CASE(
      "readme: README.md: at most 300 lines, the quickstart's example ends within the first 80") {
    const std::string readme = read_doc("README.md");
    CHECK(std::count(readme.begin(), readme.end(), '\n') <= 300);
    const auto start = readme.find("```console\n");
    REQUIRE(start != std::string::npos);
    const auto end = readme.find("\n```", start + 10);
    REQUIRE(end != std::string::npos);
    // The line of the closing fence: the newlines before the one that ends
    // the example's last line, plus two.
    CHECK(std::count(readme.begin(), readme.begin() + static_cast<std::ptrdiff_t>(end), '\n') + 2 <=
          80);
    for (const char* command :
         {"$ mapindex index ", "$ mapindex query ", "FROM ddnet_mapinfo",
          "$ mapindex audit --format html --out report.html", "$ mapindex render "}) {
      INFO(command);
      CHECK(readme.substr(start, end - start).find(command) != std::string::npos);
    }
  }

  TEST_CASE("readme e2e: docs/guide.md: the console examples print what the page shows") {
    check_console_examples("docs/guide.md");
  }

  TEST_CASE(
      "readme e2e: docs/audit.md: the reports of the demo's next night are what the page shows") {
    check_console_examples("docs/audit.md");
  }

  TEST_CASE(
      "readme e2e: docs/audit-json.md: the parts of the JSON report are what the page shows") {
    check_console_examples("docs/audit-json.md");
  }

  // docs/audit-json.md documents the report field by field: every key of a
  // real report (the demo's next night, with every kind of change) is named
  // on the page.
  TEST_CASE("readme e2e: docs/audit-json.md names every field of a JSON report") {
    const std::string doc = read_doc("docs/audit-json.md");
    TempDir tmp;
    const auto archive = tmp.file("maps.zip"), db = tmp.file("index.sqlite");
    REQUIRE(run_process(make_demo_binary(), {archive}).exit_code == 0);
    REQUIRE(run_process(mapindex_binary(), {"index", "--db", db, "-q", archive}).exit_code <= 1);
    REQUIRE(run_process(make_demo_binary(), {"--next-night", archive}).exit_code == 0);
    REQUIRE(run_process(mapindex_binary(), {"index", "--db", db, "-q", archive}).exit_code <= 1);
    const auto report =
        run_process(mapindex_binary(), {"audit", "--db", db, "--format", "json"}).out;
    const std::regex key("\"([a-z_0-9]+)\":");
    std::set<std::string> keys;
    for (std::sregex_iterator it(report.begin(), report.end(), key), last; it != last; ++it)
      keys.insert((*it)[1]);
    CHECK(keys.size() > 60);
    for (const auto& k : keys)
      CHECK_MESSAGE(doc.find("`" + k + "`") != std::string::npos, "field " << k);
  }

  TEST_CASE("readme e2e: docs/queries.md: every question prints what the page shows") {
    const std::string section = read_doc("docs/queries.md");

    TempDir tmp;
    const auto archive = (tmp / "demo-maps.zip").string();
    const auto db = (tmp / "demo.sqlite").string();
    REQUIRE(run_process(make_demo_binary(), {archive}).exit_code == 0);
    const auto indexed = run_process(mapindex_binary(), {"index", "--db", db, "--quiet", archive});
    REQUIRE(indexed.exit_code == 1);  // the demo holds rejected maps on purpose

    const std::regex block("```sql\\n([\\s\\S]*?)\\n```\\n```text\\n([\\s\\S]*?)\\n```");
    int questions = 0;
    for (std::sregex_iterator it(section.begin(), section.end(), block), last; it != last; ++it) {
      const std::string sql = (*it)[1], expected = (*it)[2];
      INFO("query: " << sql);
      const auto r = run_process(mapindex_binary(), {"query", "--db", db, sql});
      CHECK(r.exit_code == 0);
      std::string out = r.out;
      while (!out.empty() && out.back() == '\n') out.pop_back();
      CHECK(out == expected);
      ++questions;
    }
    CHECK(questions >= 10);
  }

  // docs/schema.md's table of which tiles on which layers set each
  // ddnet_mapinfo flag is the code's own table (src/extract/teeworlds_features.cpp).
  TEST_CASE("readme: docs/schema.md documents every ddnet_mapinfo flag as the code sets it") {
    const std::string schema = read_doc("docs/schema.md");
    const auto start = schema.find("\n### `ddnet_mapinfo`");
    REQUIRE(start != std::string::npos);
    const std::string section = schema.substr(start, schema.find("\n### ", start + 5) - start);
    for (std::size_t f = 0; f < mapindex::teeworlds::kDdnetFeatureNames.size(); ++f) {
      const std::string row = mapindex::teeworlds::ddnet_feature_rule_row(f);
      INFO("expected docs/schema.md row: " << row);
      CHECK(section.find("\n" + row + "\n") != std::string::npos);
    }
  }

  // The schema is a public interface: docs/schema.md has a heading for every
  // table and view of a new index, and names each of its columns in that part.
  TEST_CASE("readme: docs/schema.md names every table, view and column") {
    const std::string reference = read_doc("docs/schema.md");
    TempDir tmp;
    auto db = mapindex::index::testing::open_index((tmp / "new.sqlite").string());
    const auto names = mapindex::index::testing::query_rows(
        db.handle(),
        "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND "
        "name NOT LIKE 'sqlite_%' ORDER BY name");
    REQUIRE(names.size() >= 30);
    for (const auto& name : names) {
      const auto heading = reference.find("\n### `" + name + "`");
      CHECK_MESSAGE(heading != std::string::npos, "no heading for " << name);
      if (heading == std::string::npos) continue;
      const auto next = reference.find("\n#", heading + 5);
      const std::string part = reference.substr(heading, next - heading);
      for (const auto& column : mapindex::index::testing::column_names(db.handle(), name))
        CHECK_MESSAGE(part.find("`" + column + "`") != std::string::npos,
                      name << "." << column << " is not in its part of the schema reference");
    }
  }

  // docs/design.md draws the layer graph as it is: its table lists, for every
  // layer, the layers its CMakeLists.txt links, and no others.
  TEST_CASE("readme: docs/design.md's layer table is the layers' links in CMake") {
    namespace fs = std::filesystem;
    const std::string design = read_doc("docs/design.md");
    const fs::path root(MAPINDEX_SOURCE_DIR);
    std::vector<fs::path> folders;
    for (const auto& entry : fs::directory_iterator(root / "src"))
      if (fs::exists(entry.path() / "CMakeLists.txt")) folders.push_back(entry.path());
    REQUIRE(folders.size() >= 12);
    const std::regex linked("mapindex_([a-z]+)");
    for (const auto& folder : folders) {
      const std::string name = folder.filename().string();
      std::set<std::string> links;
      const std::string cmake = read_text_file(folder / "CMakeLists.txt");
      for (std::sregex_iterator it(cmake.begin(), cmake.end(), linked), last; it != last; ++it)
        if ((*it)[1] != name && (*it)[1] != "layer") links.insert((*it)[1]);
      std::string row = "\n| `" + name + "` | ";
      for (const auto& link : links) row += (row.ends_with(" | ") ? "`" : ", `") + link + "`";
      row += links.empty() ? "|" : " |";
      INFO("expected a row starting: " << row.substr(1));
      CHECK(design.find(row) != std::string::npos);
    }
  }

  // The documentation says what a target or a reason is, not which tracker
  // issue asked for it: readers have no tracker.
  TEST_CASE("readme: README.md, CONTRIBUTING.md, CHANGELOG.md and docs/ name no tracker issues") {
    namespace fs = std::filesystem;
    const fs::path root(MAPINDEX_SOURCE_DIR);
    std::vector<fs::path> pages{root / "README.md", root / "CONTRIBUTING.md",
                                root / "CHANGELOG.md"};
    for (const auto& entry : fs::recursive_directory_iterator(root / "docs"))
      if (entry.path().extension() == ".md") pages.push_back(entry.path());
    const std::regex issue("\\b[Ii]ssues? #?[0-9]+");
    for (const auto& page : pages) {
      const std::string text = read_text_file(page);
      std::smatch found;
      CHECK_MESSAGE(!std::regex_search(text, found, issue), page.lexically_relative(root).string()
                                                                << " names " << found.str());
    }
  }

  // Every relative link of the documentation leads somewhere: the file (or
  // folder) exists, and an #anchor names a heading of that page as GitHub
  // makes its anchors (lowercase, punctuation dropped, spaces to hyphens).
  TEST_CASE(
      "readme: README.md, CONTRIBUTING.md, CHANGELOG.md and docs/: every link leads somewhere") {
    namespace fs = std::filesystem;
    const fs::path root(MAPINDEX_SOURCE_DIR);
    std::vector<fs::path> pages{root / "README.md", root / "CONTRIBUTING.md",
                                root / "CHANGELOG.md"};
    for (const auto& entry : fs::recursive_directory_iterator(root / "docs"))
      if (entry.path().extension() == ".md") pages.push_back(entry.path());
    // Outside code blocks: the text of each link's target.
    const auto links_of = [](const std::string& page) {
      std::vector<std::string> links;
      const std::regex code("```[\\s\\S]*?```"), link("\\]\\(([^)\\s]+)\\)");
      const std::string text = std::regex_replace(page, code, "");
      for (std::sregex_iterator it(text.begin(), text.end(), link), last; it != last; ++it)
        links.push_back((*it)[1]);
      return links;
    };
    const auto anchors_of = [](const std::string& page) {
      std::set<std::string> anchors;
      std::istringstream lines(std::regex_replace(page, std::regex("```[\\s\\S]*?```"), ""));
      for (std::string line; std::getline(lines, line);) {
        if (!line.starts_with("#")) continue;
        std::string slug;
        for (const char c : line.substr(line.find(' ') + 1)) {
          if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')
            slug += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          else if (c == ' ')
            slug += '-';
        }
        anchors.insert(slug);
      }
      return anchors;
    };
    int checked = 0;
    for (const auto& page : pages) {
      const std::string text = read_text_file(page);
      for (const auto& link : links_of(text)) {
        if (link.starts_with("http://") || link.starts_with("https://")) continue;
        INFO(page.lexically_relative(root).string() << ": link " << link);
        const auto hash = link.find('#');
        const std::string path = link.substr(0, hash);
        fs::path target = path.empty() ? page : (page.parent_path() / path).lexically_normal();
        // The generated page of problem codes takes over the tables of
        // src/extract/README.md; until it exists, a link to it is read as
        // a link to them.
        if (target == root / "docs/problem-codes.md" && !fs::exists(target))
          target = root / "src/extract/README.md";
        CHECK_MESSAGE(fs::exists(target), "no such file: " << target.string());
        if (hash != std::string::npos && fs::is_regular_file(target))
          CHECK(anchors_of(read_text_file(target)).contains(link.substr(hash + 1)));
        ++checked;
      }
    }
    CHECK(checked > 40);
  }

  // A comment of the product states a contract, an invariant or a reason;
  // timings, page-fault counts and benchmark runs belong in
  // benchmarks/RESULTS.md and commit bodies. The pattern is the comments
  // rule's grep over every comment line of src/.
  TEST_CASE("readme: product comments quote no timings or benchmark runs") {
    namespace fs = std::filesystem;
    const fs::path root(MAPINDEX_SOURCE_DIR);
    const std::regex figure(
        "^\\s*//.*(\\d+\\.\\d+ ?(s|ms)\\b|-> \\d|page faults|alternating runs|"
        "RESULTS\\.md|corpus tar|all-distinct|samples\\b)");
    std::vector<fs::path> sources;
    for (const auto& entry : fs::recursive_directory_iterator(root / "src"))
      if (entry.path().extension() == ".cpp" || entry.path().extension() == ".h")
        sources.push_back(entry.path());
    REQUIRE(sources.size() > 100);
    std::string offending;
    for (const auto& source : sources) {
      const std::string name = source.lexically_relative(root).generic_string();
      std::istringstream lines(read_text_file(source));
      int number = 0;
      for (std::string line; std::getline(lines, line);) {
        ++number;
        if (!std::regex_search(line, figure)) continue;
        offending += name + ":" + std::to_string(number) + ": " + line + "\n";
      }
    }
    CHECK_MESSAGE(offending.empty(),
                  "comment lines with figures (move them to "
                  "benchmarks/RESULTS.md, keep the reason):\n"
                      << offending);
  }

  // Per-thread and process state of the stages has an owner that passes it
  // down (docs/design.md, Memory): the index run keeps the decode
  // workspaces, other callers make their own. A thread_local or a singleton
  // instance() in src/ outside app/ and pipeline/ would be state nobody owns.
  TEST_CASE("readme: no stage keeps thread_local state or a singleton instance()") {
    namespace fs = std::filesystem;
    const fs::path root(MAPINDEX_SOURCE_DIR);
    const std::regex hidden("\\bthread_local\\b|\\binstance\\s*\\(\\s*\\)");
    std::size_t files = 0;
    std::string offending;
    for (const auto& entry : fs::recursive_directory_iterator(root / "src")) {
      if (entry.path().extension() != ".cpp" && entry.path().extension() != ".h") continue;
      const std::string folder = entry.path().lexically_relative(root / "src").begin()->string();
      if (folder == "app" || folder == "pipeline") continue;
      ++files;
      std::istringstream lines(read_text_file(entry.path()));
      int number = 0;
      for (std::string line; std::getline(lines, line);) {
        ++number;
        const std::string code = line.substr(0, line.find("//"));
        if (std::regex_search(code, hidden))
          offending += entry.path().lexically_relative(root).generic_string() + ":" +
                       std::to_string(number) + ": " + line + "\n";
      }
    }
    REQUIRE(files > 100);
    CHECK_MESSAGE(offending.empty(),
                  "hidden per-thread or process state (give it an owner that passes it down):\n"
                      << offending);
  }
}  // TEST_SUITE
