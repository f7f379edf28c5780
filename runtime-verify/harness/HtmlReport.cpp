//===--- HtmlReport.cpp - The HTML page of verify -------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// One self-contained page (no network, no external file): the text report,
// and an inline SVG timeline of GPU utilization (CPU utilization when no GPU
// was sampled) of one run of each variant, the run with the median wall time.
// A few lines of script record, after layout, the length of each drawn
// series in the page (#render-check), so a headless browser can prove that
// the plot rendered; the SVG itself needs no script.
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fmt/ranges.h>

namespace libtorch_tidy::verify {
namespace {

std::string escape(const std::string &S) {
  std::string Out;
  for (char C : S) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

const RunRecord *medianRun(const Session &S, const std::string &Variant) {
  std::vector<const RunRecord *> Ok;
  for (const RunRecord &R : S.RunsDone)
    if (R.Variant == Variant && R.Failure.empty())
      Ok.push_back(&R);
  if (Ok.empty())
    return nullptr;
  std::sort(Ok.begin(), Ok.end(), [](const RunRecord *A, const RunRecord *B) {
    return A->Process.WallSeconds < B->Process.WallSeconds;
  });
  return Ok[(Ok.size() - 1) / 2];
}

struct Series {
  std::string Variant;
  std::string Color;
  std::vector<std::pair<double, double>> Points;
};

} // namespace

std::string htmlReport(const Session &S) {
  bool UseGpu = false;
  for (const RunRecord &R : S.RunsDone)
    UseGpu = UseGpu || !R.Gpu.empty();
  std::vector<Series> All;
  for (auto [Variant, Color] :
       {std::pair<const char *, const char *>{"original", "#d62728"},
        {"fixed", "#1f77b4"}}) {
    Series Ser{Variant, Color, {}};
    if (const RunRecord *R = medianRun(S, Variant)) {
      if (UseGpu)
        for (const GpuSample &G : R->Gpu)
          Ser.Points.emplace_back(G.Seconds, G.UtilPercent);
      else
        for (const CpuSample &C : R->Cpu)
          Ser.Points.emplace_back(C.Seconds, C.Percent);
    }
    All.push_back(std::move(Ser));
  }
  double MaxT = 1, MaxY = 100;
  for (const Series &Ser : All)
    for (auto [T, Y] : Ser.Points) {
      MaxT = std::max(MaxT, T);
      MaxY = std::max(MaxY, Y);
    }
  // CPU utilization can exceed 100 (several cores): round the axis up.
  MaxY = std::ceil(MaxY / 50.0) * 50.0;
  constexpr double W = 800, H = 300, Left = 50, Bottom = 30, Top = 10,
                   Right = 30;
  auto X = [&](double T) { return Left + T / MaxT * (W - Left - Right); };
  auto Y = [&](double V) { return Top + (1 - V / MaxY) * (H - Top - Bottom); };

  std::string Svg = fmt::format(
      "<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" "
      "aria-label=\"{2} utilization over time\">\n",
      W, H, UseGpu ? "GPU" : "CPU");
  Svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                     "fill=\"none\" stroke=\"#999\"/>\n",
                     Left, Top, W - Left - Right, H - Top - Bottom);
  for (int I = 0; I <= 4; ++I) {
    const double V = MaxY * I / 4;
    Svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" "
                       "text-anchor=\"end\">{:.0f}%</text>\n",
                       Left - 4, Y(V) + 4, V);
  }
  for (int I = 0; I <= 5; ++I) {
    const double T = MaxT * I / 5;
    Svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" "
                       "text-anchor=\"middle\">{:.1f} s</text>\n",
                       X(T), H - 10, T);
  }
  for (const Series &Ser : All) {
    std::string Points;
    for (auto [T, V] : Ser.Points)
      Points += fmt::format("{:.1f},{:.1f} ", X(T), Y(V));
    Svg += fmt::format("<polyline class=\"series\" data-variant=\"{}\" "
                       "fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" "
                       "points=\"{}\"/>\n",
                       Ser.Variant, Ser.Color, Points);
  }
  Svg += "</svg>\n";

  std::string Legend;
  for (const Series &Ser : All)
    Legend += fmt::format("<span style=\"color:{}\">&#9632; {} ({} samples)"
                          "</span> ",
                          Ser.Color, Ser.Variant, Ser.Points.size());

  return fmt::format(
      R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>libtorch-tidy verify report</title>
<style>body{{font-family:sans-serif;margin:2em}}pre{{background:#f6f6f6;padding:1em}}#render-check{{font-size:smaller;color:#666}}</style>
</head><body>
<h1>libtorch-tidy verify</h1>
<p>Command: <code>{}</code></p>
<h2>{} utilization, median run of each variant</h2>
<p>{}</p>
{}
<pre id="render-check"></pre>
<h2>Report</h2>
<pre>{}</pre>
<script>
window.addEventListener('load', function () {{
  var out = [];
  document.querySelectorAll('#timeline polyline.series').forEach(function (p) {{
    out.push(p.getAttribute('data-variant') + ' points=' + p.points.numberOfItems +
             ' length=' + Math.round(p.getTotalLength()));
  }});
  document.getElementById('render-check').textContent = out.join('\n');
}});
</script>
</body></html>
)",
      escape(fmt::format("{}", fmt::join(S.RunCommand, " "))),
      UseGpu ? "GPU" : "CPU (no GPU sampled)", Legend, Svg,
      escape(textReport(S)));
}

} // namespace libtorch_tidy::verify
