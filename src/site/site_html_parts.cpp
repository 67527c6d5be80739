#include "site/site_html_parts.h"

#include <cctype>

#include "common/html.h"

namespace mapindex::site::detail {

std::string h(std::string_view text) { return html_escape(text); }
std::string code(std::string_view text) { return "<code>" + h(text) + "</code>"; }

std::string feature_label(std::string_view feature) {
  std::string out(feature);
  for (auto& c : out)
    c = c == '_' ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string status_class(std::string_view status) {
  return status == "ok" ? "ok" : status == "rejected" ? "bad" : "warn";
}

std::string game_size(std::int64_t width, std::int64_t height) {
  return width > 0 ? std::to_string(width) + " x " + std::to_string(height) : "none";
}

std::string titled(std::string_view c, std::optional<Severity> severity) {
  const auto title = code_title(c, severity);
  return code(c) + (title.empty() ? "" : " " + h(title));
}

std::optional<Severity> severity_of(std::string_view s) {
  if (s == "error") return Severity::error;
  if (s == "warning") return Severity::warning;
  if (s == "info") return Severity::info;
  return std::nullopt;
}

std::string shown_name(const std::string& name, const std::string& sha256) {
  return name.empty() ? sha256.substr(0, 12) : name;
}

namespace {

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

}  // namespace

std::string head(const std::string& page_title) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<meta name=\"generator\" content=\"mapindex site\">\n<title>" +
         h(page_title) + "</title>\n<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
}

}  // namespace mapindex::site::detail
