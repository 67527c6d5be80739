// The HTML audit report (`mapindex audit --format html`): base64 of the
// inlined thumbnails, the page's structure for a hand-built report (escaping
// of hostile names, the sections, images that decode to the thumbnail's size,
// no script), the report of a changed archive through the real binary (--out
// for every format, `index --audit --audit-format html`), and the page in a
// real browser: headless Chromium loads it, and its DOM and screenshot show
// the sections and the pictures.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "audit/render.h"
#include "common/base64.h"
#include "render/png.h"
#include "tests/support/archive_builder.h"
#include "tests/support/browser.h"
#include "tests/support/corpus.h"
#include "tests/support/map_builder.h"
#include "tests/support/png_probe.h"
#include "tests/support/process.h"
#include "tests/support/sqlite_probe.h"

namespace fs = std::filesystem;
using namespace mapindex;
using namespace mapindex::audit;
using namespace mapindex::testing;

namespace {

using Strings = std::vector<std::string>;

std::string html_of(const AuditReport& report, std::size_t limit = 50) {
  std::ostringstream out;
  render_html(report, out, {limit});
  return out.str();
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// The <img ...> tags of a page, in order.
Strings img_tags(const std::string& html) {
  Strings tags;
  for (auto at = html.find("<img "); at != std::string::npos; at = html.find("<img ", at + 1)) {
    const auto end = html.find('>', at);
    REQUIRE(end != std::string::npos);
    tags.push_back(html.substr(at, end + 1 - at));
  }
  return tags;
}

// The value of attribute `name` of a tag ("" when absent): name="value".
std::string attribute(const std::string& tag, const std::string& name) {
  const auto at = tag.find(" " + name + "=\"");
  if (at == std::string::npos) return "";
  const auto start = at + name.size() + 3;
  return tag.substr(start, tag.find('"', start) - start);
}

// The PNG of an <img> with a data: URI, decoded; fails the test otherwise.
DecodedPng inline_png(const std::string& tag) {
  const std::string prefix = "data:image/png;base64,";
  const std::string src = attribute(tag, "src");
  REQUIRE_MESSAGE(src.rfind(prefix, 0) == 0, tag.substr(0, 80));
  const auto bytes = base64_decode(src.substr(prefix.size()));
  REQUIRE(bytes.has_value());
  const auto png = decode_png(*bytes);
  REQUIRE(png.has_value());
  return *png;
}

// The text between the <section class="cls"> of a page (the first after
// `from`) and the next section of the same depth: enough for the flat
// sections of a source.
std::string section_of(const std::string& html, const std::string& cls, std::size_t from = 0) {
  const auto at = html.find("<section class=\"" + cls + "\">", from);
  if (at == std::string::npos) return "";
  return html.substr(at, html.find("</section>", at) - at);
}

// A palette PNG of w x h pixels, two classes in stripes.
std::string test_png(std::int32_t w, std::int32_t h) {
  render::ClassImage image;
  image.width = w;
  image.height = h;
  image.pixels.resize(static_cast<std::size_t>(w) * h);
  for (std::size_t i = 0; i < image.pixels.size(); ++i) image.pixels[i] = (i / 3) % 2 ? 1 : 0;
  auto png = render::encode_png(image);
  REQUIRE(png);
  return std::string(png->begin(), png->end());
}

const std::string kHostile = "maps/<script>alert(1)</script> & \"Kobra\" 'x'.map";

AuditReport hand_report() {
  AuditReport r;
  r.run = {2, index::RunStatus::complete, "2026-11-23T02:00:00.000Z", "", "mapindex index a.zip"};
  r.baselines = {{1, index::RunStatus::complete, "2026-11-22T02:00:00.000Z", "", ""}};
  SourceAudit s;
  s.source_id = 1;
  s.path = "a.zip";
  s.baseline_run = 1;
  s.now = {.entries = 3, .maps = 3, .ok = 2, .rejected = 1};
  s.before = Totals{.entries = 3, .maps = 3, .ok = 3};
  const std::string old_sha(64, 'a'), new_sha(64, 'b'), added_sha(64, 'c'), gone_sha(64, 'd');
  s.added = {{kHostile, index::EntryKind::map, Health::ok, 900, added_sha, 3}};
  s.removed = {{"maps/gone.map", index::EntryKind::map, Health::ok, 800, gone_sha, 4}};
  s.changed = {{{"maps/change.map", index::EntryKind::map, Health::ok, 1000, old_sha, 1},
                {"maps/change.map", index::EntryKind::map, Health::rejected, 1200, new_sha, 2}}};
  s.newly_broken = {{"maps/change.map",
                     Health::ok,
                     Health::rejected,
                     {"M10"},
                     "no <game> layer & more",
                     new_sha}};
  s.findings = {
      {std::string(rules::kRejected), Severity::error, "maps/change.map", 2, "",
       "DDNet would refuse it", true, new_sha},
      {std::string(rules::kUnusedImage), Severity::info, kHostile, 3, "grass",
       "image 'grass' <unused>", true, added_sha},
      {std::string(rules::kUnusedImage), Severity::info, "maps/keep.map", 5, "stone",
       "image 'stone' unused", false, std::string(64, 'e')},
  };
  r.now = s.now;
  r.before = s.before;
  r.sources = {s};
  r.pictures[old_sha] = {test_png(7, 3), 7, 3, {.size = 1000, .game_width = 7, .layers = 2}};
  r.pictures[new_sha] = {test_png(9, 5), 9, 5, {.size = 1200, .game_width = 9, .layers = 2}};
  r.pictures[added_sha] = {test_png(4, 6), 4, 6, {}};
  r.pictures[gone_sha] = {"", 0, 0, {}};  // a map without a thumbnail
  return r;
}

// A map of w x h tiles: a floor, freeze, a spawn; START/FINISH with `race`.
std::vector<std::uint8_t> sized_map(int w, int h, int seed, bool race = false) {
  MapBuilder b;
  b.info({.author = "html " + std::to_string(seed)});
  b.add_game_group();
  TileGrid game(LayerKind::game, w, h);
  game.fill(0, h - 2, w, 2, 1).fill(3, h - 3, 4, 1, 9).set(1, h - 3, 192);
  if (race) game.set(2, h - 3, 33).set(w - 2, h - 3, 34);
  b.add_tile_layer(game, {.name = "Game"});
  return b.build();
}

// A map with an envelope nothing uses (info envelope.unused).
std::vector<std::uint8_t> map_with_unused_envelope(int seed) {
  MapBuilder b;
  b.info({.author = "html " + std::to_string(seed)});
  EnvelopeSpec unused;
  unused.points = {{0, 1, {}, {}}};
  b.add_envelope(unused);
  b.add_game_group();
  TileGrid game(LayerKind::game, 20, 10);
  game.fill(0, 8, 20, 2, 1);
  b.add_tile_layer(game, {.name = "Game"});
  return b.build();
}

// The changed archive of the e2e and browser tests: run 1, then run 2 with
// maps/change.map changed (30x12 -> 40x16 tiles), an added map with a hostile
// name (18x9), a removed map (22x11), a map broken (cut short), a race map
// without time checkpoints (a release check) and one with an unused envelope
// (info). Returns the index.
constexpr int kOldW = 30, kOldH = 12, kNewW = 40, kNewH = 16, kAddW = 18, kAddH = 9, kGoneW = 22,
              kGoneH = 11;
const std::string kHostileEntry = "maps/<img src=x onerror=alert(1)> & \"q\" 'x'.map";

fs::path changed_archive_index(const TempDir& dir, Strings second_run_extra = {},
                               ProcessResult* second_run = nullptr) {
  const fs::path db = dir / "index.sqlite", archive = dir / "maps.zip";
  const auto breaks = sized_map(26, 10, 6);
  write_archive(archive, ArchiveFormat::zip,
                {{"maps/keep.map", sized_map(20, 10, 1)},
                 {"maps/change.map", sized_map(kOldW, kOldH, 2)},
                 {"maps/gone.map", sized_map(kGoneW, kGoneH, 3)},
                 {"maps/break-me.map", breaks},
                 {"maps/race.map", sized_map(24, 10, 4, true)}});
  const auto first = index_archive(db, archive);
  REQUIRE_MESSAGE(first.exit_code == 0, first.err);
  write_archive(archive, ArchiveFormat::zip,
                {{"maps/keep.map", sized_map(20, 10, 1)},
                 {"maps/change.map", sized_map(kNewW, kNewH, 2)},
                 {kHostileEntry, sized_map(kAddW, kAddH, 5)},
                 {"maps/break-me.map", truncated_copy(breaks, breaks.size() - 100)},
                 {"maps/race.map", sized_map(24, 10, 4, true)},
                 {"maps/envelope.map", map_with_unused_envelope(7)}});
  const auto second = index_archive(db, archive, second_run_extra);
  if (second_run) *second_run = second;
  if (second_run_extra.empty()) REQUIRE_MESSAGE(second.exit_code <= 1, second.err);
  return db;
}

// The PNG sizes of the page's <img> tags, as "WxH", and each img's width and
// height attributes agree with its PNG.
Strings image_sizes(const std::string& html) {
  Strings sizes;
  for (const auto& tag : img_tags(html)) {
    const auto png = inline_png(tag);
    CHECK(attribute(tag, "width") == std::to_string(png.width));
    CHECK(attribute(tag, "height") == std::to_string(png.height));
    sizes.push_back(std::to_string(png.width) + "x" + std::to_string(png.height));
  }
  return sizes;
}

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

}  // namespace

TEST_SUITE("audit") {
  TEST_CASE("audit html: base64 of RFC 4648's test vectors, both ways") {
    const std::map<std::string, std::string> vectors = {{"", ""},
                                                        {"f", "Zg=="},
                                                        {"fo", "Zm8="},
                                                        {"foo", "Zm9v"},
                                                        {"foob", "Zm9vYg=="},
                                                        {"fooba", "Zm9vYmE="},
                                                        {"foobar", "Zm9vYmFy"}};
    for (const auto& [plain, encoded] : vectors) {
      CHECK(base64_encode(plain) == encoded);
      CHECK(base64_decode(encoded) == plain);
    }
    const std::string bytes("\x00\xff\xfe\x80\x7f", 5);
    CHECK(base64_encode(bytes) == "AP/+gH8=");
    CHECK(base64_decode(base64_encode(bytes)) == bytes);
    CHECK_FALSE(base64_decode("Zm9").has_value());     // not a multiple of 4
    CHECK_FALSE(base64_decode("Zm9v\n").has_value());  // whitespace
    CHECK_FALSE(base64_decode("Z=9v").has_value());    // padding inside
  }

  TEST_CASE("audit html: escaping, sections, inline thumbnails, no script") {
    const auto report = hand_report();
    const std::string html = html_of(report);
    INFO(html.substr(0, 400));
    CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(contains(html, "<meta name=\"viewport\" content=\"width=device-width"));
    CHECK(contains(html, "<meta charset=\"utf-8\">"));
    // No script, no external resource: one self-contained page.
    CHECK_FALSE(contains(lower(html), "<script"));
    CHECK_FALSE(contains(lower(html), "javascript:"));
    CHECK_FALSE(contains(html, "src=\"http"));
    CHECK_FALSE(contains(html, "href=\"http"));
    CHECK_FALSE(contains(html, "<link"));
    // The hostile name and message, escaped wherever they appear.
    CHECK(contains(
        html,
        "maps/&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Kobra&quot; &#39;x&#39;.map"));
    CHECK(contains(html, "no &lt;game&gt; layer &amp; more"));
    CHECK(contains(html, "image &#39;grass&#39; &lt;unused&gt;"));
    CHECK_FALSE(contains(html, "<game>"));
    CHECK_FALSE(contains(html, "\"Kobra\""));

    // The sections, in order, with their counts; info last.
    const Strings order = {"newly-broken", "added", "changed", "removed", "release-checks", "info"};
    std::size_t last = 0;
    for (const auto& cls : order) {
      const auto at = html.find("<section class=\"" + cls + "\">");
      REQUIRE_MESSAGE(at != std::string::npos, cls);
      CHECK_MESSAGE(at > last, cls);
      last = at;
    }
    CHECK(contains(section_of(html, "added"), "Added (<span class=\"count\">1</span>)"));
    CHECK(contains(section_of(html, "removed"), "Removed (<span class=\"count\">1</span>)"));
    CHECK(contains(section_of(html, "newly-broken"), "<code>M10</code>"));
    CHECK(contains(section_of(html, "release-checks"), "(<span class=\"count\">1</span>, 1 new)"));
    CHECK(contains(section_of(html, "info"), "(<span class=\"count\">2</span> findings, 1 new"));
    CHECK_FALSE(contains(section_of(html, "release-checks"), "image.unused"));

    // Every image is an inline PNG of its thumbnail's size: the changed map
    // old and new side by side, the added map, the newly broken map (new).
    CHECK(image_sizes(html) == Strings{"9x5", "4x6", "7x3", "9x5"});
    const auto changed = section_of(html, "changed");
    const auto before = changed.find("<figure class=\"before\"><img ");
    const auto after = changed.find("<figure class=\"after\"><img ");
    CHECK(before != std::string::npos);
    CHECK(after > before);
    CHECK(image_sizes(changed) == Strings{"7x3", "9x5"});
    // The counts that changed, and only those.
    CHECK(contains(changed,
                   "<td>game width</td><td class=\"n\">7</td><td class=\"n\">9</td>"
                   "<td class=\"n\">+2</td>"));
    CHECK(contains(changed, "<td>size</td>"));
    CHECK_FALSE(contains(changed, "<td>layers</td>"));
    // The removed map has no thumbnail: said, not a broken image.
    CHECK(contains(section_of(html, "removed"), "no thumbnail"));

    // --limit cuts the card lists too.
    auto many = report;
    many.sources[0].added.assign(5, many.sources[0].added.front());
    const auto cut = html_of(many, 2);
    CHECK(contains(section_of(cut, "added"), "... and 3 more"));
    CHECK(img_tags(section_of(cut, "added")).size() == 2);
    // Empty sections say so.
    AuditReport empty;
    empty.sources.push_back({});
    const auto quiet = html_of(empty);
    for (const auto& cls : Strings{"added", "changed", "removed", "newly-broken"})
      CHECK(contains(section_of(quiet, cls), "None."));
  }

  TEST_CASE("audit html e2e: the report of a changed archive, --out for every format") {
    TempDir dir;
    const auto db = changed_archive_index(dir);
    const auto r = run_mapindex({"audit", "--db", db.string(), "--format", "html", "--out",
                                 dir.file("report.html"), "--fail-on", "never"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.out.empty());  // the report went to the file
    const std::string html = read_text_file(dir / "report.html");
    CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(contains(html, "</html>"));
    CHECK_FALSE(contains(lower(html), "<script"));
    CHECK(contains(html,
                   "maps/&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot; &#39;x&#39;.map"));
    CHECK_FALSE(contains(html, "<img src=x"));

    // Changed: the old and the new thumbnail (one pixel per tile), the
    // counts that changed (the game layer's size).
    const auto changed = section_of(html, "changed");
    CHECK(contains(changed, "<code>maps/change.map</code>"));
    // (break-me.map changed too: cut short, it has no new thumbnail.)
    CHECK(image_sizes(changed) ==
          Strings{size_text(26, 10), size_text(kOldW, kOldH), size_text(kNewW, kNewH)});
    CHECK(contains(changed, "after: rejected"));
    CHECK(contains(changed, "<td>game width</td><td class=\"n\">30</td><td class=\"n\">40</td>"));
    CHECK(contains(changed, "<td>game height</td><td class=\"n\">12</td><td class=\"n\">16</td>"));
    // The stored thumbnails are these sizes too.
    CHECK(sql_value(db,
                    "SELECT group_concat(width || 'x' || height, ' ') FROM (SELECT t.width, "
                    "t.height FROM thumbnails t JOIN maps m ON m.map_id = t.map_id "
                    "WHERE m.game_width IN (30, 40) ORDER BY t.width)") == "30x12 40x16");
    CHECK(image_sizes(section_of(html, "added")) ==
          Strings{size_text(kAddW, kAddH), size_text(20, 10)});  // the hostile one, envelope.map
    CHECK(image_sizes(section_of(html, "removed")) == Strings{size_text(kGoneW, kGoneH)});
    const auto broken = section_of(html, "newly-broken");
    CHECK(contains(broken, "<code>maps/break-me.map</code>"));
    CHECK(contains(broken, "ok → rejected"));
    // The race map without time checkpoints: info (DDNet does not require
    // them), listed with the info findings, not the release checks.
    CHECK(contains(section_of(html, "info"), "race.no_time_checkpoints"));
    CHECK_FALSE(contains(section_of(html, "release-checks"), "race.no_time_checkpoints"));
    CHECK(contains(section_of(html, "info"), "envelope.unused"));

    // --out works for every format: the same bytes as standard output.
    for (const char* format : {"text", "json", "markdown"}) {
      const auto to_stdout = run_mapindex({"audit", "--db", db.string(), "--format", format});
      const auto to_file = run_mapindex({"audit", "--db", db.string(), "--format", format, "--out",
                                         dir.file(std::string("report.") + format)});
      CHECK(to_file.exit_code == to_stdout.exit_code);
      CHECK(to_file.out.empty());
      CHECK(read_text_file(dir / (std::string("report.") + format)) == to_stdout.out);
    }
    // A file that cannot be written is named, exit 2, and nothing is left.
    const std::string bad = dir.file("no/such/folder/report.html");
    const auto failed =
        run_mapindex({"audit", "--db", db.string(), "--format", "html", "--out", bad});
    CHECK(failed.exit_code == 2);
    CHECK(contains(failed.err, "'" + bad + "'"));
    CHECK(contains(failed.err, "No such file or directory"));
    // --out replaces a file whole, leaving no temporary file beside it.
    const auto again = run_mapindex({"audit", "--db", db.string(), "--format", "html", "--out",
                                     dir.file("report.html"), "--fail-on", "never"});
    CHECK(again.exit_code == 0);
    CHECK(read_text_file(dir / "report.html") == html);
    for (const auto& e : fs::directory_iterator(dir.path()))
      CHECK_FALSE(contains(e.path().filename().string(), ".tmp-"));
    CHECK(run_mapindex({"audit", "--db", db.string(), "--format", "pdf"}).exit_code == 2);
  }

  TEST_CASE("audit html e2e: index --audit --audit-format html prints only the page") {
    TempDir dir;
    ProcessResult second;
    changed_archive_index(dir, {"--audit", "--audit-format", "html", "--fail-on", "error"},
                          &second);
    CHECK(second.exit_code == 1);  // break-me.map is newly broken
    CHECK(second.out.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(contains(second.out, "<section class=\"changed\">"));
    CHECK(img_tags(section_of(second.out, "changed")).size() == 3);
  }

  TEST_CASE("audit html tool: headless Chromium renders the page of a changed archive") {
    const std::string browser = chromium();
    if (browser.empty()) {
      if (browser_required())
        FAIL(
            "MAPINDEX_REQUIRE_BROWSER is set but chromium is not installed "
            "(scripts/install-deps.sh installs it)");
      report_skipped("the browser test: chromium not found (scripts/install-deps.sh installs it)");
      return;
    }
    TempDir dir;
    const auto db = changed_archive_index(dir);
    const fs::path page = dir / "report.html";
    const auto r = run_mapindex({"audit", "--db", db.string(), "--format", "html", "--out",
                                 page.string(), "--fail-on", "never"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const std::string html = read_text_file(page);
    const auto expected_images = img_tags(html).size();
    REQUIRE(expected_images == 6);  // changed 3 (break-me.map: before only), added 2, removed 1

    // The DOM: a copy of the page with a small probe appended (the report
    // itself has no script) that records, after the load, each image's
    // natural size, any script error, and at a width (the page's root set
    // to it: headless Chromium's window is at least 500 px wide) the
    // identifiers (code in a table cell or a rule's summary, every rule
    // opened) that the layout broke over lines, the tables whose box
    // scrolls sideways, and what outside such a box is wider than the page,
    // in attributes --dump-dom shows.
    const auto probe_at = [&](int width) {
      const fs::path probe = dir / ("probe-" + std::to_string(width) + ".html");
      std::string probed = html;
      const auto body_end = probed.rfind("</body>");
      REQUIRE(body_end != std::string::npos);
      probed.insert(
          body_end,
          "<script>window.addEventListener('error',function(e){document.body.setAttribute("
          "'data-error',String(e.message));});window.addEventListener('load',function(){"
          "var W=" +
              std::to_string(width) +
              ";document.documentElement.style.width=W+'px';"
              "var b=document.body;var s=[];document.querySelectorAll('img').forEach(function(i){"
              "s.push(i.complete+':'+i.naturalWidth+'x'+i.naturalHeight);});"
              "b.setAttribute('data-images',s.join(' '));"
              "document.querySelectorAll('details').forEach(function(d){d.open=true;});"
              "var k=[],n=0;document.querySelectorAll('td code,summary code').forEach(function(c){"
              "++n;if(c.getClientRects().length!=1)k.push(c.textContent);});"
              "b.setAttribute('data-identifiers',String(n));"
              "b.setAttribute('data-broken',k.join(' | '));"
              "var o=[],w=[];document.querySelectorAll('.scroll').forEach(function(x){"
              "if(x.scrollWidth>x.clientWidth+1)o.push(x.parentNode.className||'?');});"
              "document.querySelectorAll('body *').forEach(function(e){"
              "if(e.closest('.scroll')&&!e.matches('.scroll'))return;"
              "if(e.getBoundingClientRect().right>W+1)w.push(e.tagName+'.'+e.className);});"
              "b.setAttribute('data-scrolling',o.join(' '));b.setAttribute('data-wider',"
              "w.join(' '));b.setAttribute('data-loaded','yes');});</script>");
      std::ofstream(probe, std::ios::binary) << probed;
      return probe;
    };
    // The value of attribute `name` of the probed page's body.
    const auto body_attribute = [](const std::string& dom, const std::string& name) {
      const auto at = dom.find(" " + name + "=\"");
      REQUIRE_MESSAGE(at != std::string::npos, name);
      const auto start = at + name.size() + 3;
      return dom.substr(start, dom.find('"', start) - start);
    };
    std::string dom_at_1280;
    for (const int width : {1280, 412}) {
      const auto dom =
          run_chromium(browser, dir / "profile", probe_at(width),
                       {"--window-size=" + std::to_string(width) + ",1400", "--dump-dom"});
      INFO("width " << width << ", chromium stderr: " << dom.err.substr(0, 2000));
      REQUIRE_MESSAGE(dom.exit_code == 0, "chromium exited " << dom.exit_code);
      CHECK(contains(dom.out, "data-loaded=\"yes\""));
      CHECK_FALSE(contains(dom.out, "data-error="));
      // Identifiers are never broken mid-word; nothing is wider than the
      // page; at 1280 px no table needs to scroll (at a phone's width a wide
      // table scrolls sideways in its own box).
      CHECK(std::stoi(body_attribute(dom.out, "data-identifiers")) > 4);
      CHECK(body_attribute(dom.out, "data-broken") == "");
      CHECK(body_attribute(dom.out, "data-wider") == "");
      if (width == 1280) {
        CHECK(body_attribute(dom.out, "data-scrolling") == "");
        dom_at_1280 = dom.out;
      }
    }
    const std::string& dom = dom_at_1280;
    for (const auto& cls :
         Strings{"newly-broken", "added", "changed", "removed", "release-checks", "info"})
      CHECK_MESSAGE(contains(dom, "<section class=\"" + cls + "\">"), cls);
    // Every image loaded, at its thumbnail's size (one pixel per tile).
    std::istringstream images(body_attribute(dom, "data-images"));
    Strings loaded;
    for (std::string one; images >> one;) loaded.push_back(one);
    CHECK(loaded.size() == expected_images);
    for (const auto& one : loaded) {
      CHECK_MESSAGE(one.rfind("true:", 0) == 0, one);
      CHECK_MESSAGE(one.find(":0x") == std::string::npos, one);
    }
    CHECK(std::count(loaded.begin(), loaded.end(), "true:" + size_text(kNewW, kNewH)) == 1);
    CHECK(std::count(loaded.begin(), loaded.end(), "true:" + size_text(kOldW, kOldH)) == 1);

    // Screenshots of the report itself, at 1280 px and at a phone's width:
    // PNGs of that size with more than a blank page's colours.
    for (const int width : {1280, 412}) {
      const fs::path shot = dir / ("shot-" + std::to_string(width) + ".png");
      const auto s = run_chromium(
          browser, dir / "profile", page,
          {"--window-size=" + std::to_string(width) + ",1400", "--screenshot=" + shot.string()});
      INFO("width " << width << ", chromium stderr: " << s.err.substr(0, 2000));
      REQUIRE_MESSAGE(s.exit_code == 0, "chromium exited " << s.exit_code);
      REQUIRE(fs::exists(shot));
      const auto png = decode_png(read_text_file(shot));
      REQUIRE(png.has_value());
      CHECK(png->width == width);
      CHECK(png->height == 1400);
      CHECK(png->colours() > 8);  // text, the verdict's colour, the thumbnails' palette
    }
  }
}
