#include "reportstyle.h"

namespace tf::report::html {

namespace {

// The report's stylesheet. Written for browsers first; everything it relies on for meaning (tables, colours, bold,
// monospace) is also understood by Qt's rich-text engine, so the PDF keeps the structure when the rest is ignored.
const char *kStyle = R"CSS(
:root { color-scheme: light; }
* { box-sizing: border-box; }
html { background: #eef1f5; }
body { margin: 0; color: #1f2933; background: #eef1f5;
  font-family: "Inter", "Segoe UI", "Helvetica Neue", Arial, "DejaVu Sans", sans-serif; font-size: 14px; line-height: 1.5; }
.page { max-width: 1160px; margin: 24px auto; padding: 36px 44px 48px; background: #ffffff;
  border: 1px solid #dde3ea; box-shadow: 0 1px 3px rgba(16, 42, 67, 0.08); }
a { color: #1d4e89; text-decoration: none; }
a:hover { text-decoration: underline; }
.eyebrow { font-size: 11px; letter-spacing: 0.16em; text-transform: uppercase; color: #52606d; font-weight: 700; }
h1 { font-size: 27px; line-height: 1.25; margin: 8px 0 6px; color: #102a43; font-weight: 700; overflow-wrap: anywhere; }
h2 { font-size: 19px; color: #102a43; border-bottom: 1px solid #d9e2ec; padding-bottom: 6px; margin: 40px 0 14px;
  font-weight: 700; }
h2 .secno { color: #829ab1; font-weight: 600; margin-right: 6px; }
h3 { font-size: 16px; margin: 0; color: #102a43; font-weight: 700; }
h4 { font-size: 12px; text-transform: uppercase; letter-spacing: 0.08em; color: #486581; margin: 18px 0 6px;
  font-weight: 700; }
p { margin: 6px 0 10px; }
.sub { color: #52606d; margin: 0; overflow-wrap: anywhere; }
.muted { color: #7b8794; }
.small { font-size: 12px; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 14px; }
th, td { text-align: left; vertical-align: top; padding: 5px 8px; border-bottom: 1px solid #e4e7eb; }
thead th { font-size: 11px; text-transform: uppercase; letter-spacing: 0.06em; color: #486581; background: #f3f6f9;
  border-bottom: 1px solid #cbd2d9; font-weight: 700; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.wrap { overflow-wrap: anywhere; }
code, .mono, pre { font-family: "JetBrains Mono", "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; }
code { overflow-wrap: anywhere; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
table.kv th { width: 26%; font-weight: 600; color: #486581; background: transparent; font-size: 13px;
  text-transform: none; letter-spacing: 0; border-bottom: 1px solid #e4e7eb; }
table.kv td { overflow-wrap: anywhere; }
table.figures { border-collapse: separate; border-spacing: 10px 0; margin: 12px -10px 8px; width: calc(100% + 20px); }
table.figures td { width: 25%; border: 1px solid #d9e2ec; background: #f8fafc; padding: 12px 14px; }
.fig-label { font-size: 11px; text-transform: uppercase; letter-spacing: 0.08em; color: #627d98; font-weight: 700; }
.fig-value { font-size: 23px; font-weight: 700; color: #102a43; line-height: 1.3; }
.fig-note { font-size: 12px; color: #627d98; }
.chip { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 11px; font-weight: 700;
  border: 1px solid #d5d9df; white-space: nowrap; line-height: 18px; }
.b-verified { color: #1d6b3a; background: #e3f4e8; border-color: #b7e0c3; }
.b-reconstructed { color: #1f4e8c; background: #e6eefa; border-color: #c2d5f0; }
.b-damaged { color: #a61b1b; background: #fde8e8; border-color: #f5b5b5; }
.b-not-on-record { color: #4b5563; background: #eef0f3; border-color: #d5d9df; }
.b-redacted { color: #5b3d8a; background: #f1ebfa; border-color: #d6c6ee; }
.v-hit { color: #1d6b3a; background: #e3f4e8; border-color: #b7e0c3; }
.v-write-only { color: #1f4e8c; background: #e6eefa; border-color: #c2d5f0; }
.v-miss { color: #8a4b00; background: #fff3dc; border-color: #f3d19c; }
.v-unmeasured { color: #4b5563; background: #eef0f3; border-color: #d5d9df; }
.k-excuse { color: #1f4e8c; background: #e6eefa; border-color: #c2d5f0; }
.k-missing { color: #8a4b00; background: #fff3dc; border-color: #f3d19c; }
.k-caveat { color: #5b3e96; background: #f0ebfa; border-color: #d4c6f0; }
.k-note { color: #4b5563; background: #eef0f3; border-color: #d5d9df; }
.s-fact { color: #1d6b3a; background: #e3f4e8; border-color: #b7e0c3; }
.s-open { color: #1f4e8c; background: #e6eefa; border-color: #c2d5f0; }
.s-noise { color: #4b5563; background: #eef0f3; border-color: #d5d9df; }
.s-ruled-out { color: #8a4b00; background: #fff3dc; border-color: #f3d19c; }
.yes { color: #1d6b3a; font-weight: 600; }
.no { color: #a61b1b; font-weight: 600; }
.unknown { color: #7b8794; }
table.timeline td, table.timeline th { padding: 5px 6px; font-size: 13px; }
table.timeline tr.damaged td { background: #fff5f5; }
table.timeline tr.turn td { background: #f0f4f8; color: #243b53; border-top: 2px solid #bcccdc; }
table.rows tr.damaged td, table.rows tr.damaged th { background: #fff5f5; }
table.transcript th { width: 8em; text-align: left; vertical-align: top; }
section.call { margin: 28px 0 0; }
table.cover { margin: 0 0 8px; }
table.cover td { border-bottom: 3px solid #1e3a5f; padding: 0 0 18px; }
table.toc { margin: 16px 0 0; background: #f8fafc; border: 1px solid #e4e7eb; font-size: 13px; }
table.toc td { border: none; padding: 3px 16px; }
table.toc tr:first-child td { padding-top: 12px; }
table.toc tr:last-child td { padding-bottom: 12px; }
table.verdict { margin: 14px 0; }
table.verdict td { border: 1px solid #d9e2ec; border-left: 5px solid #1e3a5f; background: #f8fafc; padding: 12px 16px; }
table.verdict.good td { border-left-color: #2f855a; }
table.verdict.bad td { border-left-color: #c53030; background: #fff8f8; }
table.verdict.warn td { border-left-color: #c27c0e; background: #fffbf2; }
details > summary { cursor: pointer; color: #486581; font-size: 12px; }
table.verdict p { margin: 3px 0; }
table.callhead { margin: 0; }
table.callhead td { background: #f3f6f9; border: 1px solid #d9e2ec; border-left: 5px solid #1e3a5f; padding: 10px 14px; }
table.callhead.damaged td { border-left-color: #c53030; background: #fff8f8; }
table.callhead .sub { font-size: 12px; }
table.note { margin: 8px 0; }
table.note td { border: 1px solid #f0d9a8; border-left: 5px solid #d69e2e; background: #fffaf0; padding: 8px 12px; }
table.note.orphan td { border-color: #f5c2c2; border-left-color: #c53030; background: #fff5f5; }
.note .meta { font-size: 12px; color: #7b6a43; margin-bottom: 3px; }
.note pre { font-family: inherit; font-size: 13px; }
table.answer { margin: 10px 0 14px; }
table.answer td { border: none; border-left: 5px solid #1e3a5f; background: #f3f6f9; padding: 12px 16px; font-size: 15px;
  white-space: pre-wrap; overflow-wrap: anywhere; }
table.vhead { margin: 14px 0 0; }
table.vhead td { background: #f3f6f9; border: 1px solid #d9e2ec; padding: 8px 12px; }
table.vhead .v { font-family: "JetBrains Mono", "DejaVu Sans Mono", Menlo, Consolas, monospace; font-weight: 700;
  background: #fff4cc; padding: 0 4px; }
table.kv.value { border: 1px solid #d9e2ec; border-top: none; margin-top: 0; }
table.kv.value th { width: 20%; padding-left: 12px; }
.callbody { padding: 2px 4px 0 4px; }
table.piece { border: 1px solid #d9e2ec; background: #fbfcfd; margin: 4px 0 8px; }
table.piece td { border: none; padding: 1px 8px; font-family: "JetBrains Mono", "DejaVu Sans Mono", Menlo, Consolas, monospace;
  font-size: 12px; white-space: pre-wrap; overflow-wrap: anywhere; line-height: 1.45; }
table.piece td.g { width: 92px; color: #829ab1; text-align: right; white-space: nowrap; border-right: 1px solid #e4e7eb;
  font-size: 11px; background: #f3f6f9; }
table.piece td.t { color: #334e68; }
code.pl { font-size: 12px; overflow-wrap: anywhere; }
table.piece tr.h td.t { font-weight: 700; color: #102a43; padding-top: 6px; }
table.piece tr.hdr td.t { color: #829ab1; font-style: italic; }
table.piece tr.more td.t { color: #8a4b00; font-style: italic; }
table.piece tr.ask td.t { color: #486581; }
.mdl { background: #fff4cc; color: #3d2e00; }
.lib { color: #334e68; }
.ovf { color: #a61b1b; font-weight: 700; }
.clip { color: #a61b1b; font-weight: 700; }
.legend span { margin-right: 14px; }
ul.statements { margin: 8px 0 16px; padding-left: 20px; }
ul.statements li { margin: 3px 0; }
pre.json, pre.result { background: #f8fafc; border: 1px solid #e4e7eb; padding: 7px 10px; }
.footer { margin-top: 44px; padding-top: 12px; border-top: 1px solid #d9e2ec; font-size: 12px; color: #7b8794; }
@page { size: A4; margin: 14mm 12mm; }
@media print {
  html, body { background: #ffffff; }
  .page { max-width: none; margin: 0; padding: 0; border: none; box-shadow: none; }
  a { color: inherit; }
  h2, h4 { break-after: avoid; }
  tr, table.callhead, table.note, table.verdict, table.vhead { break-inside: avoid; }
}
)CSS";

// The same document for Qt's rich-text engine (the PDF): point sizes, the one font family every Debian desktop has,
// no page background, and only properties QTextDocument implements (it ignores the rest, but px sizes and inherited
// body fonts lay out differently there, so the print stylesheet states every size it needs).
const char *kPrintStyle = R"CSS(
body { font-family: "DejaVu Sans"; font-size: 8pt; color: #1f2933; }
a { color: #1d4e89; text-decoration: none; }
p { margin-top: 3px; margin-bottom: 5px; }
.eyebrow { font-size: 6.5pt; color: #52606d; font-weight: bold; text-transform: uppercase; }
h1 { font-size: 17pt; color: #102a43; margin-top: 4px; margin-bottom: 3px; }
h2 { font-size: 12.5pt; color: #102a43; margin-top: 19px; margin-bottom: 7px; }
h2 .secno { color: #829ab1; }
h3 { font-size: 10.5pt; color: #102a43; margin-top: 0; margin-bottom: 1px; }
h4 { font-size: 6.5pt; color: #486581; text-transform: uppercase; font-weight: bold; margin-top: 12px; margin-bottom: 3px; }
.sub { color: #52606d; margin-top: 0; margin-bottom: 0; }
.muted { color: #7b8794; }
.small { font-size: 7pt; }
table { border-collapse: collapse; margin-top: 3px; margin-bottom: 8px; }
th { text-align: left; vertical-align: top; color: #486581; background-color: #f3f6f9; font-size: 6.5pt; font-weight: bold;
  text-transform: uppercase; border-bottom: 1px solid #cbd2d9; }
td { text-align: left; vertical-align: top; border-bottom: 1px solid #e4e7eb; font-size: 8pt; }
td.num, th.num { text-align: right; }
code, .mono, pre { font-family: "DejaVu Sans Mono"; font-size: 7pt; }
pre { white-space: pre-wrap; margin-top: 0; margin-bottom: 0; }
table.kv th { background-color: #ffffff; color: #486581; font-size: 7.5pt; text-transform: none; border-bottom: 1px solid #e4e7eb; }
table.figures td { background-color: #f8fafc; border: 1px solid #d9e2ec; }
.fig-label { font-size: 6pt; color: #627d98; font-weight: bold; text-transform: uppercase; }
.fig-value { font-size: 12pt; color: #102a43; font-weight: bold; }
.fig-note { font-size: 6.5pt; color: #627d98; }
.chip { font-size: 6.5pt; font-weight: bold; }
.b-verified, .v-hit, .s-fact { color: #1d6b3a; background-color: #e3f4e8; }
.b-reconstructed, .v-write-only, .k-excuse, .s-open { color: #1f4e8c; background-color: #e6eefa; }
.b-damaged { color: #a61b1b; background-color: #fde8e8; }
.b-not-on-record, .v-unmeasured, .k-note, .s-noise { color: #4b5563; background-color: #eef0f3; }
.b-redacted { color: #5b3d8a; background-color: #f1ebfa; }
.v-miss, .k-missing, .s-ruled-out { color: #8a4b00; background-color: #fff3dc; }
.k-caveat { color: #5b3e96; background-color: #f0ebfa; }
.yes { color: #1d6b3a; font-weight: bold; }
.no { color: #a61b1b; font-weight: bold; }
.unknown { color: #7b8794; }
table.timeline td { font-size: 7pt; }
table.timeline tr.damaged td { background-color: #fff5f5; }
table.timeline tr.turn td { background-color: #f0f4f8; color: #243b53; }
table.rows tr.damaged td { background-color: #fff5f5; }
table.transcript th { width: 8em; }
table.cover td { border-bottom: 2pt solid #1e3a5f; }
table.toc td { background-color: #f8fafc; border-bottom: 0px; font-size: 7.5pt; }
table.verdict td { background-color: #f8fafc; border: 1px solid #d9e2ec; border-left: 3pt solid #1e3a5f; }
table.verdict.good td { border-left: 3pt solid #2f855a; }
table.verdict.bad td { border-left: 3pt solid #c53030; background-color: #fff8f8; }
table.verdict.warn td { border-left: 3pt solid #c27c0e; background-color: #fffbf2; }
table.callhead td { background-color: #f3f6f9; border: 1px solid #d9e2ec; border-left: 3pt solid #1e3a5f; }
table.callhead.damaged td { border-left: 3pt solid #c53030; background-color: #fff8f8; }
table.note td { background-color: #fffaf0; border: 1px solid #f0d9a8; border-left: 3pt solid #d69e2e; }
table.note.orphan td { background-color: #fff5f5; border-left: 3pt solid #c53030; }
.note .meta { font-size: 7pt; color: #7b6a43; }
.note pre { font-family: "DejaVu Sans"; font-size: 8pt; }
table.answer td { background-color: #f3f6f9; border-left: 3pt solid #1e3a5f; border-bottom: 0px; font-size: 9.5pt;
  white-space: pre-wrap; }
table.vhead td { background-color: #f3f6f9; border: 1px solid #d9e2ec; }
table.vhead .v { font-family: "DejaVu Sans Mono"; font-weight: bold; background-color: #fff4cc; }
table.piece td { border-bottom: 0px; font-family: "DejaVu Sans Mono"; font-size: 6.5pt; white-space: pre-wrap; }
table.piece td.g { color: #829ab1; background-color: #f3f6f9; text-align: right; font-size: 6pt; }
table.piece td.t { color: #334e68; }
code.pl { font-family: "DejaVu Sans Mono"; font-size: 6.5pt; }
table.piece tr.h td.t { font-weight: bold; color: #102a43; }
table.piece tr.hdr td.t { color: #829ab1; font-style: italic; }
table.piece tr.more td.t { color: #8a4b00; font-style: italic; }
.mdl { background-color: #fff4cc; color: #3d2e00; font-family: "DejaVu Sans Mono"; font-size: 6.5pt; }
.lib { color: #334e68; font-family: "DejaVu Sans Mono"; font-size: 6.5pt; }
.ovf { color: #a61b1b; font-weight: bold; font-family: "DejaVu Sans Mono"; font-size: 6.5pt; }
.clip { color: #a61b1b; font-weight: bold; }
table.piece tr.sep td { font-size: 2pt; }
pre.json, pre.result { background-color: #f8fafc; }
.footer { font-size: 7pt; color: #7b8794; margin-top: 24px; }
)CSS";

} // namespace

const char *reportStylesheet(HtmlReportOptions::Flavor flavor)
{
    return flavor == HtmlReportOptions::Flavor::QtPrint ? kPrintStyle : kStyle;
}

} // namespace tf::report::html
