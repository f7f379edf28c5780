//===--- HtmlReport.cpp - The HTML page of verify -------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// One self-contained page (no network, no external file, no script): the
// headline figures (steps/s, wall time) and the finding -> metric table
// first, then an inline SVG timeline of GPU utilization (CPU utilization
// when no GPU was sampled) of one run of each variant, the run with the
// median wall time, and the whole text report. Each variant's timeline has
// its own time axis, from 0 to the end of that run, so that a run several
// times shorter than the other is as readable as it; the utilization axis
// is shared, so their levels compare.
//
//===----------------------------------------------------------------------===//

#include "DeviceMetrics.h"
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

struct Variant {
  const char *Name;
  const char *Color;
};
constexpr Variant Variants[] = {{"original", "#d62728"}, {"fixed", "#1f77b4"}};

std::vector<std::pair<double, double>> samples(const RunRecord &R,
                                               bool UseGpu) {
  std::vector<std::pair<double, double>> Points;
  if (UseGpu)
    for (const GpuSample &G : R.Gpu)
      Points.emplace_back(G.Seconds, G.UtilPercent);
  else
    for (const CpuSample &C : R.Cpu)
      Points.emplace_back(C.Seconds, C.Percent);
  return Points;
}

/// The timeline of one run: time from 0 to the run's end, utilization from
/// 0 to \p MaxY.
std::string timeline(const Variant &V, const RunRecord *R, bool UseGpu,
                     double MaxY) {
  constexpr double W = 800, H = 240, Left = 50, Bottom = 30, Top = 10,
                   Right = 30;
  std::vector<std::pair<double, double>> Points;
  double MaxT = 0;
  if (R) {
    Points = samples(*R, UseGpu);
    MaxT = R->Process.WallSeconds;
    for (const auto &Point : Points)
      MaxT = std::max(MaxT, Point.first);
  }
  if (MaxT <= 0)
    MaxT = 1;
  auto X = [&](double T) { return Left + T / MaxT * (W - Left - Right); };
  auto Y = [&](double U) { return Top + (1 - U / MaxY) * (H - Top - Bottom); };

  std::string Svg = fmt::format(
      "<svg class=\"timeline\" data-variant=\"{0}\" data-seconds=\"{1:.3f}\" "
      "xmlns=\"http://www.w3.org/2000/svg\" width=\"{2}\" height=\"{3}\" "
      "viewBox=\"0 0 {2} {3}\" role=\"img\" aria-label=\"{4} utilization "
      "of the {0} run over its {1:.1f} s\">\n",
      V.Name, R ? MaxT : 0.0, W, H, UseGpu ? "GPU" : "CPU");
  Svg += fmt::format("<rect class=\"plot\" x=\"{}\" y=\"{}\" width=\"{}\" "
                     "height=\"{}\" fill=\"none\" stroke=\"#999\"/>\n",
                     Left, Top, W - Left - Right, H - Top - Bottom);
  for (int I = 0; I <= 4; ++I) {
    const double U = MaxY * I / 4;
    Svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" "
                       "text-anchor=\"end\">{:.0f}%</text>\n",
                       Left - 4, Y(U) + 4, U);
  }
  if (!R) {
    Svg += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"13\" "
                       "text-anchor=\"middle\">no successful run</text>\n",
                       (Left + W - Right) / 2, (Top + H - Bottom) / 2);
    return Svg + "</svg>\n";
  }
  // Tenths of a second, or hundredths for a run shorter than 2 s.
  const int Digits = MaxT < 2 ? 2 : 1;
  for (int I = 0; I <= 5; ++I) {
    const double T = MaxT * I / 5;
    Svg += fmt::format("<text class=\"tick\" x=\"{:.1f}\" y=\"{:.1f}\" "
                       "font-size=\"11\" text-anchor=\"middle\">{:.{}f} "
                       "s</text>\n",
                       X(T), H - 10, T, Digits);
  }
  std::string Coordinates;
  for (auto [T, U] : Points)
    Coordinates += fmt::format("{:.1f},{:.1f} ", X(T), Y(U));
  Svg += fmt::format("<polyline class=\"series\" data-variant=\"{}\" "
                     "fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" "
                     "points=\"{}\"/>\n",
                     V.Name, V.Color, Coordinates);
  return Svg + "</svg>\n";
}

/// Steps/s and wall time of each variant, with the ratio.
std::string summaryTable(const Session &S) {
  const VariantSummary O = summarize(S, "original");
  const VariantSummary F = summarize(S, "fixed");
  std::string Rows;
  auto Row = [&](const std::string &Name, const std::string &A,
                 const std::string &B, const std::string &R) {
    Rows += fmt::format("<tr><th>{}</th><td>{}</td><td>{}</td><td>{}</td>"
                        "</tr>\n",
                        escape(Name), escape(A), escape(B), escape(R));
  };
  Row("runs completed", fmt::format("{}/{}", O.RunsOk, S.Runs),
      fmt::format("{}/{}", F.RunsOk, S.Runs), "");
  if (S.ProbeEnabled)
    Row("steps/s (median)", fmt::format("{:.2f}", O.StepsPerSecondMedian),
        fmt::format("{:.2f}", F.StepsPerSecondMedian),
        ratio(F.StepsPerSecondMedian, O.StepsPerSecondMedian));
  Row("wall time s (median)", fmt::format("{:.2f}", O.WallMedian),
      fmt::format("{:.2f}", F.WallMedian), ratio(F.WallMedian, O.WallMedian));
  if (O.GpuMean || F.GpuMean)
    Row("GPU utilization % (mean)",
        O.GpuMean ? fmt::format("{:.0f}", *O.GpuMean) : "no GPU",
        F.GpuMean ? fmt::format("{:.0f}", *F.GpuMean) : "no GPU", "");
  else
    Row("CPU utilization % (mean, 1 core=100)",
        fmt::format("{:.0f}", O.CpuMean), fmt::format("{:.0f}", F.CpuMean),
        ratio(F.CpuMean, O.CpuMean));
  if (S.ProbeEnabled) {
    auto Share = [](const std::optional<double> &X) {
      return X ? fmt::format("{:.1f}", *X) : std::string("not measured");
    };
    Row("host time outside LibTorch ops (data loading and the program's own "
        "host code), % of the step",
        Share(O.HostOutsideOpsSharePercent),
        Share(F.HostOutsideOpsSharePercent), "");
    Row(fmt::format("< {:.0f} % (the DataLoader-share threshold)",
                    DataLoadingShareThresholdPercent),
        dataLoadingVerdict(O.HostOutsideOpsSharePercent),
        dataLoadingVerdict(F.HostOutsideOpsSharePercent), "");
  }
  return "<table id=\"summary\">\n<tr><th></th><th>original</th><th>fixed</th>"
         "<th>ratio</th></tr>\n" +
         Rows + "</table>\n";
}

/// Each finding and the figure its fix-it moved.
std::string findingsTable(const Session &S) {
  if (S.Findings.empty())
    return "<p id=\"findings\">No findings.</p>\n";
  std::string Rows;
  for (const FindingEffect &E : findingEffects(S)) {
    Rows += fmt::format("<tr><td>{}</td><td><code>{}</code></td>",
                        escape(E.Where), escape(E.Check));
    if (E.Original)
      Rows += fmt::format("<td>{}</td><td>{:.3g}</td><td>{:.3g}</td>"
                          "<td class=\"verdict\">{}</td></tr>\n",
                          escape(E.MetricName), *E.Original, *E.Fixed,
                          escape(E.Verdict));
    else
      Rows += fmt::format("<td colspan=\"4\">{}</td></tr>\n", escape(E.Status));
  }
  // A change counts as real when the variants' ranges over their runs do
  // not overlap: the spread of the runs is the noise it must exceed.
  return "<table id=\"findings\">\n<tr><th>finding</th><th>check</th>"
         "<th>metric</th><th>original</th><th>fixed</th>"
         "<th>real change? (min-max of the runs)</th></tr>\n" +
         Rows + "</table>\n";
}

} // namespace

std::string htmlReport(const Session &S) {
  bool UseGpu = false;
  for (const RunRecord &R : S.RunsDone)
    UseGpu = UseGpu || !R.Gpu.empty();
  // One utilization scale for both plots, so that their levels compare. CPU
  // utilization can exceed 100 (several cores): round the axis up.
  double MaxY = 100;
  for (const Variant &V : Variants)
    if (const RunRecord *R = medianRun(S, V.Name))
      for (const auto &Point : samples(*R, UseGpu))
        MaxY = std::max(MaxY, Point.second);
  MaxY = std::ceil(MaxY / 50.0) * 50.0;

  std::string Plots;
  for (const Variant &V : Variants) {
    const RunRecord *R = medianRun(S, V.Name);
    std::string Caption =
        R ? fmt::format("{}: run {} of {}, {:.2f} s", V.Name, R->Index, S.Runs,
                        R->Process.WallSeconds)
          : fmt::format("{}: no successful run", V.Name);
    if (R && S.ProbeEnabled)
      Caption += fmt::format(", {:.2f} steps/s", R->stepsPerSecond());
    if (R)
      Caption += fmt::format(", {} samples", samples(*R, UseGpu).size());
    Plots += fmt::format("<figure data-variant=\"{}\"><figcaption><span "
                         "style=\"color:{}\">&#9632;</span> {}</figcaption>\n"
                         "{}</figure>\n",
                         V.Name, V.Color, escape(Caption),
                         timeline(V, R, UseGpu, MaxY));
  }

  return fmt::format(
      R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>libtorch-tidy verify report</title>
<style>body{{font-family:sans-serif;margin:2em}}pre{{background:#f6f6f6;padding:1em}}table{{border-collapse:collapse;margin-bottom:1em}}th,td{{border:1px solid #ccc;padding:0.2em 0.6em;text-align:left}}td{{font-variant-numeric:tabular-nums}}figure{{margin:0 0 1em 0}}figcaption{{font-weight:bold}}</style>
</head><body>
<h1>libtorch-tidy verify</h1>
<p>Command: <code>{}</code></p>
{}
<h2>Findings and what their fix-its moved</h2>
{}
<h2>{} utilization, median run of each variant</h2>
<p>Each plot has its own time axis, from the start to the end of its run.</p>
{}
<h2>Report</h2>
<pre>{}</pre>
</body></html>
)",
      escape(fmt::format("{}", fmt::join(S.RunCommand, " "))), summaryTable(S),
      findingsTable(S), UseGpu ? "GPU" : "CPU (no GPU sampled)", Plots,
      escape(textReport(S)));
}

} // namespace libtorch_tidy::verify
