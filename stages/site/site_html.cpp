#include "stages/site/site_html.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "stages/audit/render_util.h"
#include "stages/common/html.h"
#include "stages/common/json_writer.h"
#include "stages/common/problem_codes.h"

namespace mapindex::site {
namespace {

using audit::detail::human_bytes;

std::string h(std::string_view text) { return html_escape(text); }
std::string code(std::string_view text) { return "<code>" + h(text) + "</code>"; }

// "TELE_GUN" -> "tele gun": a feature's short label.
std::string feature_label(std::string_view feature) {
  std::string out(feature);
  for (auto& c : out)
    c = c == '_' ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string status_class(std::string_view status) {
  return status == "ok" ? "ok" : status == "rejected" ? "bad" : "warn";
}

std::string game_size(std::int64_t w, std::int64_t h) {
  return w > 0 ? std::to_string(w) + " x " + std::to_string(h) : "none";
}

// A code with its title from the one code table (stages/common/problem_codes.h).
std::string titled(std::string_view c, std::optional<Severity> severity = std::nullopt) {
  const auto title = code_title(c, severity);
  return code(c) + (title.empty() ? "" : " " + h(title));
}

std::optional<Severity> severity_of(std::string_view s) {
  if (s == "error") return Severity::error;
  if (s == "warning") return Severity::warning;
  if (s == "info") return Severity::info;
  return std::nullopt;
}

constexpr std::string_view kStyle = R"(
:root{color-scheme:light}
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;
max-width:90rem;padding:.5rem .9rem 2rem;color:#1d1d1f;background:#fff}
h1{font-size:1.4rem;margin:.5rem 0;overflow-wrap:anywhere}
h2{font-size:1.15rem;margin:1.5rem 0 .4rem;padding-bottom:.2rem;border-bottom:2px solid #d0d4da}
a{color:#0b57d0}
code{font:.86em/1.3 ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere}
nav.top{font-size:.9rem;margin:.3rem 0}
.note{color:#555}
.none{color:#777;font-style:italic}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.3rem 0;font-size:.88rem}
th,td{border:1px solid #dde1e6;padding:.2rem .4rem;text-align:left;vertical-align:top}
th{background:#f3f5f7}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.d{white-space:nowrap}td.s code{white-space:nowrap}td.fs{min-width:12rem}td.w{min-width:10rem}
.st{font-weight:600}.st.ok{color:#2e7d32}.st.warn{color:#a05a00}.st.bad{color:#b71c1c}
.f{display:inline-block;font-size:.75rem;background:#e8eef7;color:#27415f;border-radius:.6rem;
padding:0 .4rem;margin:.05rem .1rem;white-space:nowrap}
img.thumb{display:block;max-width:96px;height:auto;image-rendering:pixelated;background:#e9ecef}
.noimg{color:#888;font-size:.8rem}
#filters{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:.5rem 0}
#filters input{flex:1 1 14rem;min-width:0;font:inherit;padding:.25rem .4rem}
#filters select{font:inherit;max-width:100%}
th button{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer;color:inherit;
text-align:left}
th[aria-sort=ascending] button::after{content:" \25B2"}
th[aria-sort=descending] button::after{content:" \25BC"}
.pages{margin:.4rem 0}.pages a,.pages strong{margin-right:.5rem}
.verdict{padding:.45rem .7rem;border-radius:.4rem;font-weight:600;margin:.4rem 0}
.verdict.ok{background:#e4f4e4;border-left:5px solid #2e8b3a}
.verdict.warn{background:#fff3dc;border-left:5px solid #c77c00}
.verdict.bad{background:#fde4e2;border-left:5px solid #c62828}
.pair{display:flex;flex-wrap:wrap;gap:.8rem}
figure{margin:0;flex:1 1 20rem;min-width:0}
figcaption{font-size:.85rem;color:#444}
img.map{display:block;max-width:100%;height:auto;image-rendering:pixelated;background:#e9ecef;
border:1px solid #c9ced4}
table.kv th{width:9rem}
.bar{display:inline-block;height:.6rem;background:#6b8fc7;vertical-align:middle}
.sev-error{color:#b71c1c}.sev-warning{color:#a05a00}.sev-info{color:#52616b}
details.code{margin:.35rem 0;border:1px solid #dde1e6;border-radius:.4rem;padding:.3rem .5rem}
details.code summary{cursor:pointer}
ul{padding-left:1.2rem;margin:.3rem 0}
@media (max-width:40rem){body{padding:.4rem .5rem 1.5rem}img.thumb{max-width:64px}}
)";

std::string head(const std::string& page_title, std::string_view extra_style = "") {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<meta name=\"generator\" content=\"mapindex site\">\n<title>" +
         h(page_title) + "</title>\n<style>" + std::string(kStyle) + std::string(extra_style) +
         "</style>\n</head>\n<body>\n";
}

// The list page's script: filter by words, feature and status, sort by any
// column, both kept in the URL's fragment (#q=...&feature=...&status=...&sort=-size)
// and applied on load; the page links keep it. Without script the table is whole.
constexpr std::string_view kScript = R"(<script>
(function(){
var t=document.getElementById('maps');if(!t)return;var b=t.tBodies[0];
var rows=Array.prototype.slice.call(b.rows);
var form=document.getElementById('filters');form.hidden=false;
var q=document.getElementById('q'),fe=document.getElementById('feature'),
st=document.getElementById('status'),shown=document.getElementById('shown');
var heads=Array.prototype.slice.call(t.tHead.rows[0].cells);
rows.forEach(function(r){r.t=r.textContent.toLowerCase();});
var sortKey='',sortDir=1;
function params(){var o={};location.hash.replace(/^#/,'').split('&').forEach(function(p){
if(!p)return;var i=p.indexOf('='),k=i<0?p:p.slice(0,i),v=i<0?'':p.slice(i+1);
try{o[decodeURIComponent(k)]=decodeURIComponent(v.replace(/\+/g,' '));}catch(e){}});return o;}
function choose(sel,v){sel.value=v||'';if(v&&sel.value!==v){var o=document.createElement('option');
o.value=v;o.textContent=v;sel.appendChild(o);sel.value=v;}}
function filter(){var words=q.value.toLowerCase().split(/\s+/).filter(Boolean),f=fe.value,s=st.value,n=0;
rows.forEach(function(r){var ok=words.every(function(w){return r.t.indexOf(w)>=0;})&&
(!f||(' '+r.getAttribute('data-features')+' ').indexOf(' '+f+' ')>=0)&&
(!s||r.getAttribute('data-status')===s);r.hidden=!ok;if(ok)n++;});
shown.textContent=n+' of '+rows.length+' shown';}
function value(r,c){var d=r.cells[c],v=d.getAttribute('data-v');return v===null?d.textContent.trim().toLowerCase():v;}
function sort(){heads.forEach(function(th){th.removeAttribute('aria-sort');});
var c=-1;heads.forEach(function(th,i){if(th.getAttribute('data-key')===sortKey)c=i;});
if(c<0){sortKey='';return;}var num=heads[c].getAttribute('data-type')==='num';
heads[c].setAttribute('aria-sort',sortDir>0?'ascending':'descending');
rows.forEach(function(r,i){r.i=i;});
rows.sort(function(a,b){var x=value(a,c),y=value(b,c);if(num){x=parseFloat(x)||0;y=parseFloat(y)||0;}
return x<y?-sortDir:x>y?sortDir:a.i-b.i;});rows.forEach(function(r){b.appendChild(r);});}
function fragment(){var p=[];if(q.value)p.push('q='+encodeURIComponent(q.value));
if(fe.value)p.push('feature='+encodeURIComponent(fe.value));
if(st.value)p.push('status='+encodeURIComponent(st.value));
if(sortKey)p.push('sort='+(sortDir<0?'-':'')+sortKey);return p.length?'#'+p.join('&'):'';}
function save(){var f=fragment();try{history.replaceState(null,'',f||location.pathname);}catch(e){}
document.querySelectorAll('a.page').forEach(function(a){a.href=a.getAttribute('href').split('#')[0]+f;});}
function load(){var p=params();q.value=p.q||'';choose(fe,p.feature);choose(st,p.status);
var s=p.sort||'';sortDir=s.charAt(0)==='-'?-1:1;sortKey=s.replace(/^-/,'');sort();filter();save();}
q.addEventListener('input',function(){filter();save();});
fe.addEventListener('change',function(){filter();save();});
st.addEventListener('change',function(){filter();save();});
heads.forEach(function(th){var k=th.getAttribute('data-key');if(!k)return;
var btn=document.createElement('button');btn.type='button';
while(th.firstChild)btn.appendChild(th.firstChild);th.appendChild(btn);
btn.addEventListener('click',function(){if(sortKey===k)sortDir=-sortDir;else{sortKey=k;sortDir=1;}
sort();save();});});
window.addEventListener('hashchange',load);load();
})();
</script>
)";

struct Column {
  std::string_view key, title;
  bool number;
};
constexpr Column kColumns[] = {{"", "map", false},
                               {"name", "name", false},
                               {"where", "source / entry", false},
                               {"status", "status", false},
                               {"game", "game layer", true},
                               {"layers", "layers", true},
                               {"images", "images", true},
                               {"features", "features", false},
                               {"size", "size", true},
                               {"first", "first seen", false},
                               {"last", "last seen", false}};

int status_rank(std::string_view status) {
  return status == "ok" ? 0 : status == "warnings" ? 1 : status == "rejected" ? 2 : 3;
}

std::string entry_row(const EntryRow& e) {
  std::string r = "<tr data-status=\"" + h(e.status) + "\" data-features=\"";
  for (std::size_t i = 0; i < e.features.size(); ++i) r += (i ? " " : "") + h(e.features[i]);
  r += "\">";
  const std::string page = map_page_path(e.sha256);
  if (e.thumb_width > 0)
    r += "<td><a href=\"" + page + "\"><img class=\"thumb\" src=\"" + thumbnail_path(e.sha256) +
         "\" width=\"" + std::to_string(e.thumb_width) + "\" height=\"" +
         std::to_string(e.thumb_height) + "\" alt=\"\"></a></td>";
  else
    r += "<td><span class=\"noimg\">no picture</span></td>";
  r += "<td><a href=\"" + page + "\">" + h(e.name) + "</a></td>";
  r += "<td class=\"w\">" + h(e.source) + "<br>" + code(e.entry_path) + "</td>";
  r += "<td class=\"s\" data-v=\"" + std::to_string(status_rank(e.status)) +
       "\"><span class=\"st " + status_class(e.status) + "\">" + h(e.status) + "</span>";
  if (!e.codes.empty()) {
    const auto sev =
        e.status == "rejected" ? std::optional(Severity::error) : std::optional(Severity::warning);
    r += "<br>" + titled(e.codes.front(), sev);
    if (e.codes.size() > 1)
      r += " <span class=\"note\">+" + std::to_string(e.codes.size() - 1) + "</span>";
  }
  r += "</td>";
  r += "<td class=\"n\" data-v=\"" + std::to_string(e.game_width * e.game_height) + "\">" +
       game_size(e.game_width, e.game_height) + "</td>";
  r += "<td class=\"n\">" + std::to_string(e.layers) + "</td>";
  r += "<td class=\"n\">" + std::to_string(e.images) + "</td>";
  r += "<td class=\"fs\" data-v=\"" + std::to_string(e.features.size()) + "\">";
  for (const auto& f : e.features)
    r += "<span class=\"f\" title=\"" + h(f) + "\">" + h(feature_label(f)) + "</span>";
  r += "</td>";
  r += "<td class=\"n\" data-v=\"" + std::to_string(e.size) + "\">" + h(human_bytes(e.size)) +
       "</td>";
  r += "<td class=\"d\">" + h(e.first_seen) + "</td><td class=\"d\">" + h(e.last_seen) +
       "</td></tr>\n";
  return r;
}

std::string page_name(std::size_t n) {
  return n == 0 ? "index.html" : "index-" + std::to_string(n + 1) + ".html";
}

std::string pager(std::size_t current, std::size_t count) {
  if (count < 2) return "";
  std::string out = "<nav class=\"pages\">Pages: ";
  for (std::size_t i = 0; i < count; ++i)
    out += i == current ? "<strong>" + std::to_string(i + 1) + "</strong>"
                        : "<a class=\"page\" href=\"" + page_name(i) + "\">" +
                              std::to_string(i + 1) + "</a>";
  return out + " <span class=\"note\">(filter and sort apply within a page)</span></nav>\n";
}

}  // namespace

std::vector<File> list_pages(const SiteData& data, const std::string& title,
                             std::size_t max_page_bytes) {
  std::set<std::string> contents;
  std::map<std::string, int> feature_counts;
  std::map<std::string, int> status_counts;
  for (const auto& e : data.entries) {
    contents.insert(e.sha256);
    for (const auto& f : e.features) ++feature_counts[f];
    ++status_counts[e.status];
  }
  std::string header =
      "<nav class=\"top\"><a href=\"problems.html\">Problems by code</a> · <a "
      "href=\"maps.json\">maps.json</a></nav>\n<h1>" +
      h(title) + "</h1>\n<p class=\"note\">" + std::to_string(data.entries.size()) +
      " map entries, " + std::to_string(contents.size()) + " distinct maps";
  for (const char* s : {"ok", "warnings", "rejected"})
    if (status_counts.count(s)) header += ", " + std::to_string(status_counts[s]) + " " + s;
  header +=
      data.latest_run.empty() ? "" : "; the archive as the index saw it in " + h(data.latest_run);
  header += ".</p>\n";
  std::string form =
      "<form id=\"filters\" hidden onsubmit=\"return false\">"
      "<input id=\"q\" type=\"search\" placeholder=\"Filter: name, path, code, feature...\" "
      "aria-label=\"filter by text\"><select id=\"feature\" aria-label=\"feature\">"
      "<option value=\"\">any feature</option>";
  for (const auto& [f, n] : feature_counts)
    form += "<option value=\"" + h(f) + "\">" + h(feature_label(f)) + " (" + std::to_string(n) +
            ")</option>";
  form +=
      "</select><select id=\"status\" aria-label=\"status\"><option value=\"\">any status</option>";
  for (const char* s : {"ok", "warnings", "rejected"})
    form += std::string("<option value=\"") + s + "\">" + s + "</option>";
  form += "</select><span id=\"shown\" class=\"note\"></span></form>\n";
  std::string thead = "<div class=\"scroll\"><table id=\"maps\"><thead><tr>";
  for (const auto& c : kColumns) {
    thead += std::string("<th") + (c.number ? " class=\"n\" data-type=\"num\"" : "");
    if (!c.key.empty()) thead += " data-key=\"" + std::string(c.key) + "\"";
    thead += ">" + std::string(c.title) + "</th>";
  }
  thead += "</tr></thead>\n<tbody>\n";
  const std::string tail = "</tbody></table></div>\n";

  // Rows into pages by size.
  const std::size_t frame = head(title).size() + header.size() + form.size() + thead.size() +
                            tail.size() + kScript.size() + 2048;
  std::vector<std::string> bodies(1);
  for (const auto& e : data.entries) {
    std::string row = entry_row(e);
    if (!bodies.back().empty() && frame + bodies.back().size() + row.size() > max_page_bytes)
      bodies.emplace_back();
    bodies.back() += row;
  }
  std::vector<File> pages;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    std::string html = head(i == 0 ? title : title + " (page " + std::to_string(i + 1) + ")");
    html += header + form + pager(i, bodies.size()) + thead + bodies[i] + tail +
            pager(i, bodies.size());
    if (data.entries.empty())
      html += "<p class=\"none\">The index has no current map entries.</p>\n";
    html += std::string(kScript) + "</body>\n</html>\n";
    pages.push_back({page_name(i), std::move(html)});
  }
  return pages;
}

namespace {

std::string table_html(const Table& t, std::string_view empty = "None.") {
  if (t.rows.empty()) return "<p class=\"none\">" + std::string(empty) + "</p>\n";
  std::string out = "<div class=\"scroll\"><table><thead><tr>";
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    const bool number = !t.rows.empty() && t.rows.front()[c].number;
    out += std::string(number ? "<th class=\"n\">" : "<th>") + h(t.columns[c]) + "</th>";
  }
  out += "</tr></thead><tbody>\n";
  for (const auto& row : t.rows) {
    out += "<tr>";
    for (const auto& cell : row)
      out += std::string(cell.number ? "<td class=\"n\">" : "<td>") + h(cell.text) + "</td>";
    out += "</tr>\n";
  }
  return out + "</tbody></table></div>\n";
}

// The tiles table with a bar per row (relative to the largest count of its layer kind).
std::string tiles_html(const Table& t) {
  if (t.rows.empty()) return "<p class=\"none\">No tiles (or no physics layer).</p>\n";
  std::map<std::string, double> largest;
  for (const auto& r : t.rows)
    largest[r[0].text] = std::max(largest[r[0].text], std::stod(r[3].text));
  std::string out =
      "<div class=\"scroll\"><table class=\"tiles\"><thead><tr><th>layer</th><th "
      "class=\"n\">tile</th><th>name</th><th class=\"n\">count</th><th></th></tr></thead><tbody>\n";
  for (const auto& r : t.rows) {
    const int width = static_cast<int>(100.0 * std::stod(r[3].text) / largest[r[0].text] + 0.5);
    out += "<tr><td>" + h(r[0].text) + "</td><td class=\"n\">" + h(r[1].text) + "</td><td>" +
           (r[2].text.empty() ? "<span class=\"none\">unknown</span>" : code(r[2].text)) +
           "</td><td class=\"n\">" + h(r[3].text) +
           "</td><td><span class=\"bar\" style=\"width:" + std::to_string(std::max(1, width)) +
           "px\"></span></td></tr>\n";
  }
  return out + "</tbody></table></div>\n";
}

std::string change(std::string_view label, std::int64_t from, std::int64_t to, bool bytes = false) {
  if (from == to) return "";
  const auto show = [&](std::int64_t v) { return bytes ? human_bytes(v) : std::to_string(v); };
  return std::string(label) + " " + show(from) + " → " + show(to);
}

// What differs from this content to `other`: "game 90 x 95 → 100 x 95, layers 12 → 14".
std::string changes(const Counts& self, const Counts& other) {
  std::vector<std::string> parts;
  if (self.game_width != other.game_width || self.game_height != other.game_height)
    parts.push_back("game " + game_size(self.game_width, self.game_height) + " → " +
                    game_size(other.game_width, other.game_height));
  for (auto part :
       {change("layers", self.layers, other.layers), change("images", self.images, other.images),
        change("envelopes", self.envelopes, other.envelopes),
        change("sounds", self.sounds, other.sounds), change("quads", self.quads, other.quads),
        change("errors", self.errors, other.errors),
        change("warnings", self.warnings, other.warnings),
        change("size", self.size, other.size, true)})
    if (!part.empty()) parts.push_back(std::move(part));
  if (parts.empty()) return "the same counts";
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out;
}

std::string loads(const std::optional<bool>& v) {
  return !v ? "not a Teeworlds map" : *v ? "loads" : "refuses it";
}

}  // namespace

std::string map_page(const MapPage& p, const MinimapInfo& minimap, const std::string& title) {
  const std::string name = p.name.empty() ? p.sha256.substr(0, 12) : p.name;
  std::string o = head(name + " · " + title);
  o += "<nav class=\"top\"><a href=\"../index.html\">" + h(title) +
       "</a> · <a href=\"../problems.html\">Problems by code</a></nav>\n";
  o += "<h1>" + h(name) + "</h1>\n<p class=\"note\">SHA-256 " + code(p.sha256) + "</p>\n";
  const std::size_t problems = static_cast<std::size_t>(p.counts.errors + p.counts.warnings);
  o += "<p class=\"verdict " + status_class(p.status) + "\">DDNet: " + h(p.status);
  if (problems > 0)
    o += " (" + std::to_string(p.counts.errors) + " errors, " + std::to_string(p.counts.warnings) +
         " warnings)";
  o += "</p>\n";

  o += "<section class=\"minimap\"><h2>Minimap</h2>\n";
  if (minimap.drawn) {
    // Shown at least twice its size when small (pixelated), never wider than the page.
    const int longest = std::max(minimap.width, minimap.height);
    const int k = std::max(1, std::min(4, 720 / std::max(1, longest)));
    const auto img = [&](bool physics, std::string_view caption) {
      return "<figure><img class=\"map\" src=\"../" + minimap_path(p.sha256, physics) +
             "\" width=\"" + std::to_string(minimap.width * k) + "\" height=\"" +
             std::to_string(minimap.height * k) + "\" alt=\"" + h(name) + ", " +
             std::string(caption) + "\"><figcaption>" + std::string(caption) +
             "</figcaption></figure>";
    };
    o += "<div class=\"pair\">" + img(false, "all layers");
    if (minimap.has_physics) o += img(true, "physics layers only");
    o += "</div>\n<p class=\"note\">" +
         (minimap.factor > 1 ? "One pixel per " + std::to_string(minimap.factor) + " x " +
                                   std::to_string(minimap.factor) + " tiles"
                             : std::string("One pixel per tile")) +
         ", drawn from the map file.</p>\n";
  } else if (p.thumb_width > 0) {
    const int k =
        std::max(1, std::min(4, 720 / static_cast<int>(std::max(p.thumb_width, p.thumb_height))));
    o += "<figure><img class=\"map\" src=\"../" + thumbnail_path(p.sha256) + "\" width=\"" +
         std::to_string(p.thumb_width * k) + "\" height=\"" + std::to_string(p.thumb_height * k) +
         "\" alt=\"" + h(name) +
         "\"><figcaption>physics layers, the stored thumbnail"
         "</figcaption></figure>\n<p class=\"note\">The thumbnail stored in the index: the map "
         "file itself could not be read (" +
         h(minimap.why_not) + ").</p>\n";
  } else {
    o += "<p class=\"none\">No picture: the map has nothing to draw";
    if (!minimap.why_not.empty()) o += " (" + h(minimap.why_not) + ")";
    o += ".</p>\n";
  }
  o += "</section>\n";

  o += "<section class=\"info\"><h2>Info</h2>\n<table class=\"kv\"><tbody>\n";
  const auto kv = [&](std::string_view k, const std::string& v) {
    o += "<tr><th>" + std::string(k) + "</th><td>" + v + "</td></tr>\n";
  };
  kv("format", h(p.format) + (p.format_version.empty() ? "" : " " + h(p.format_version)));
  kv("size", h(human_bytes(p.counts.size)) + " (" + std::to_string(p.counts.size) + " bytes)");
  kv("game layer", game_size(p.counts.game_width, p.counts.game_height));
  kv("layers", std::to_string(p.counts.layers));
  kv("images", std::to_string(p.counts.images));
  kv("envelopes", std::to_string(p.counts.envelopes));
  kv("sounds", std::to_string(p.counts.sounds));
  kv("quads", std::to_string(p.counts.quads));
  for (const auto& [k, v] : p.info) kv(k, h(v));
  std::string features;
  for (const auto& f : p.features)
    features += "<span class=\"f\" title=\"" + h(f) + "\">" + h(feature_label(f)) + "</span>";
  kv("DDNet features", features.empty() ? "<span class=\"none\">none</span>" : features);
  o += "</tbody></table>\n<h3>Settings</h3>\n";
  if (p.settings.empty()) {
    o += "<p class=\"none\">None.</p>\n";
  } else {
    o += "<ul class=\"settings\">";
    for (const auto& s : p.settings) o += "<li>" + code(s) + "</li>";
    o += "</ul>\n";
  }
  o += "</section>\n";

  o += "<section class=\"verdicts\"><h2>Games</h2>\n<table><tbody>\n";
  o += "<tr><th>DDNet</th><td><span class=\"st " + status_class(p.status) + "\">" + h(p.status) +
       "</span></td></tr>\n";
  o += "<tr><th>Teeworlds 0.6</th><td>" + loads(p.loads_06) + "</td></tr>\n";
  o += "<tr><th>Teeworlds 0.7</th><td>" + loads(p.loads_07) + "</td></tr>\n";
  o += "<tr><th>--game teeworlds</th><td>" + h(p.teeworlds_status) + "</td></tr>\n";
  o += "</tbody></table></section>\n";

  o +=
      "<section class=\"problems\"><h2>Problems (" + std::to_string(p.problems.size()) + ")</h2>\n";
  if (p.problems.empty()) {
    o += "<p class=\"none\">None.</p>\n";
  } else {
    o += "<div class=\"scroll\"><table><thead><tr><th>severity</th><th>code</th><th>where</th>"
         "<th>what</th><th>meaning</th></tr></thead><tbody>\n";
    for (const auto& r : p.problems) {
      const auto* info = find_code(r.code, severity_of(r.severity));
      o += "<tr><td class=\"sev-" + h(r.severity) + "\">" + h(r.severity) + "</td><td>" +
           titled(r.code, severity_of(r.severity)) + "</td><td>" + h(r.location) + "</td><td>" +
           h(r.message) + "</td><td>" + (info ? h(info->meaning) : "") + "</td></tr>\n";
    }
    o += "</tbody></table></div>\n";
  }
  o += "</section>\n";

  o += "<section class=\"layers\"><h2>Layers (" + std::to_string(p.layers.rows.size()) +
       ")</h2>\n" + table_html(p.layers) + "</section>\n";
  o += "<section class=\"tiles\"><h2>Tiles of the physics layers</h2>\n" + tiles_html(p.tiles) +
       "</section>\n";
  o += "<section class=\"entities\"><h2>Entities</h2>\n" + table_html(p.entities) + "</section>\n";
  o += "<section class=\"images\"><h2>Images (" + std::to_string(p.images.rows.size()) +
       ")</h2>\n" + table_html(p.images) + "</section>\n";
  o += "<section class=\"envelopes\"><h2>Envelopes (" + std::to_string(p.envelopes.rows.size()) +
       ")</h2>\n" + table_html(p.envelopes) + "</section>\n";
  o += "<section class=\"sounds\"><h2>Sounds (" + std::to_string(p.sounds.rows.size()) +
       ")</h2>\n" + table_html(p.sounds) + "</section>\n";

  o += "<section class=\"entries\"><h2>Where it is or was</h2>\n<div class=\"scroll\"><table>"
       "<thead><tr><th>source</th><th>entry</th><th>first seen</th><th>now</th></tr></thead>"
       "<tbody>\n";
  for (const auto& s : p.sightings)
    o += "<tr><td>" + h(s.source) + "</td><td>" + code(s.entry_path) + "</td><td>" +
         h(s.first_seen) + "</td><td>" +
         (s.current ? std::string("there") : "gone (last seen " + h(s.last_seen) + ")") +
         "</td></tr>\n";
  o += "</tbody></table></div></section>\n";

  o += "<section class=\"versions\"><h2>Other versions under the same name (" +
       std::to_string(p.versions.size()) + ")</h2>\n";
  if (p.versions.empty()) {
    o += "<p class=\"none\">None seen.</p>\n";
  } else {
    o += "<div class=\"scroll\"><table><thead><tr><th>version</th><th>name</th><th>status</th>"
         "<th>first seen</th><th>from this one to it</th></tr></thead><tbody>\n";
    for (const auto& v : p.versions)
      o += "<tr><td><a href=\"" + h(v.sha256) + ".html\">" + code(v.sha256.substr(0, 12)) +
           "</a></td><td>" + h(v.name) + "</td><td><span class=\"st " + status_class(v.status) +
           "\">" + h(v.status) + "</span></td><td>" + h(v.first_seen) + "</td><td>" +
           h(changes(p.counts, v.counts)) + "</td></tr>\n";
    o += "</tbody></table></div>\n";
  }
  o += "</section>\n</body>\n</html>\n";
  return o;
}

std::string problems_page(const SiteData& data, const std::string& title) {
  struct Group {
    std::string severity, code;
    std::vector<const Problem*> problems;
    std::set<std::int64_t> maps;
  };
  std::map<std::pair<std::string, std::string>, Group> groups;
  for (const auto& p : data.problems) {
    auto& g = groups[{p.severity, p.code}];
    g.severity = p.severity;
    g.code = p.code;
    g.problems.push_back(&p);
    g.maps.insert(p.map_id);
  }
  std::vector<const Group*> order;
  for (const auto& [key, g] : groups) order.push_back(&g);
  std::sort(order.begin(), order.end(), [](const Group* a, const Group* b) {
    const auto rank = [](const std::string& s) {
      return s == "error" ? 0 : s == "warning" ? 1 : 2;
    };
    return std::make_tuple(rank(a->severity), -static_cast<std::int64_t>(a->maps.size()), a->code) <
           std::make_tuple(rank(b->severity), -static_cast<std::int64_t>(b->maps.size()), b->code);
  });
  std::string o = head("Problems · " + title);
  o += "<nav class=\"top\"><a href=\"index.html\">" + h(title) +
       "</a></nav>\n<h1>Problems by code</h1>\n";
  o += "<p class=\"note\">" + std::to_string(data.problems.size()) +
       " problems of the current maps under " + std::to_string(groups.size()) +
       " codes: errors (DDNet refuses the map), warnings, then info (harmless hygiene).</p>\n";
  if (order.empty()) o += "<p class=\"none\">No problems.</p>\n";
  constexpr std::size_t kMaxListed = 500;
  for (const Group* g : order) {
    const auto severity = severity_of(g->severity);
    const auto* info = find_code(g->code, severity);
    o += "<details class=\"code\" id=\"" + h(g->code) + "-" + h(g->severity) + "\"" +
         (g->severity == "info" ? "" : " open") + "><summary><span class=\"sev-" + h(g->severity) +
         "\">" + h(g->severity) + "</span> " + titled(g->code, severity) + " · " +
         std::to_string(g->maps.size()) + (g->maps.size() == 1 ? " map" : " maps") +
         (g->problems.size() > g->maps.size()
              ? " (" + std::to_string(g->problems.size()) + " problems)"
              : "") +
         "</summary>\n";
    if (info) o += "<p>" + h(info->meaning) + "</p>\n<p class=\"note\">" + h(info->hint) + "</p>\n";
    o += "<ul>";
    std::set<std::int64_t> listed;
    for (const Problem* p : g->problems) {
      if (listed.count(p->map_id)) continue;
      if (listed.size() == kMaxListed) {
        o += "<li class=\"note\">... and " + std::to_string(g->maps.size() - kMaxListed) +
             " more maps</li>";
        break;
      }
      listed.insert(p->map_id);
      o += "<li><a href=\"" + map_page_path(p->sha256) + "\">" +
           h(p->name.empty() ? p->sha256.substr(0, 12) : p->name) + "</a>: " + h(p->message) +
           "</li>";
    }
    o += "</ul></details>\n";
  }
  o += "</body>\n</html>\n";
  return o;
}

std::string maps_json(const SiteData& data, const std::string& title) {
  std::ostringstream out;
  JsonWriter j(out, JsonLayout{2, 2});
  j.begin_object().field("title", title).field("archive", data.latest_run);
  j.key("maps").begin_array();
  for (const auto& e : data.entries) {
    j.begin_object()
        .field("name", e.name)
        .field("source", e.source)
        .field("entry_path", e.entry_path)
        .field("sha256", e.sha256)
        .field("format", e.format)
        .field("status", e.status);
    j.key("codes").begin_array();
    for (const auto& c : e.codes) j.value(c);
    j.end_array();
    j.field("game_width", e.game_width)
        .field("game_height", e.game_height)
        .field("layers", e.layers)
        .field("images", e.images);
    j.key("features").begin_array();
    for (const auto& f : e.features) j.value(f);
    j.end_array();
    j.field("size", e.size).field("first_seen", e.first_seen).field("last_seen", e.last_seen);
    j.field("page", map_page_path(e.sha256));
    if (e.thumb_width > 0)
      j.field("thumbnail", thumbnail_path(e.sha256));
    else
      j.key("thumbnail").null();
    j.end_object();
  }
  j.end_array().end_object();
  out << "\n";
  return out.str();
}

}  // namespace mapindex::site
