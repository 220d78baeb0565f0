#include "app/core/report_html.h"

#include <algorithm>
#include <cstdio>

namespace swref::core {
namespace {

constexpr const char* kStyle = R"(
:root{--ink:#222;--muted:#6e747c;--line:#e3e6ea;--band:#f5f7f9}
body{margin:0;background:#eef1f4;color:var(--ink);font:15px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif}
main{max-width:1000px;margin:24px auto;padding:32px 36px 40px;background:#fff;border-radius:10px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h1{font-size:28px;margin:0 0 2px;font-weight:650}
h2{font-size:17px;margin:34px 0 10px;padding-bottom:6px;border-bottom:1px solid var(--line);font-weight:650}
.kicker{color:var(--muted);text-transform:uppercase;letter-spacing:.08em;font-size:12px;margin:0}
.meta{color:var(--muted);margin:0 0 14px}
.integrity{padding:10px 14px;border-radius:6px;font-size:14px;margin:0}
.integrity.ok{background:#e7f5ee;color:#0b6b43}.integrity.none{background:#fdf3e1;color:#8a5700}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{padding:6px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{font-weight:600;color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.n{text-align:right;font-variant-numeric:tabular-nums}
tr.round td{border-top:2px solid var(--line)}
td.me{font-weight:650;background:var(--band)}
.chip{display:inline-block;padding:1px 9px;border-radius:10px;font-size:12px;white-space:nowrap}
.chip.back{background:#eef1f4;color:#444}.chip.house{background:#fdf3e1;color:#8a5700}.chip.open{background:#fde8e8;color:#a11}
.chip.win{background:#e7f5ee;color:#0b6b43}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:7px}
img.chart{width:100%;height:auto;border:1px solid var(--line);border-radius:6px}
.files{color:var(--muted);font-size:13px;margin:6px 0 0}
.why{color:#555}
footer{margin-top:36px;color:var(--muted);font-size:13px}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
a{color:#0060a0}
)";

constexpr const char* kColours[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00"};

std::string Swatch(size_t seat) { return "<span class=\"swatch\" style=\"background:" + std::string(kColours[seat % 5]) + "\"></span>"; }

size_t Seat(const GameSummary& game, const std::string& player) {
  return static_cast<size_t>(std::find(game.players.begin(), game.players.end(), player) - game.players.begin());
}

std::string Link(const std::string& file, const std::string& text) {
  return file.empty() ? "" : "<a href=\"" + HtmlEscape(file) + "\">" + HtmlEscape(text) + "</a>";
}

std::string Page(const std::string& title, const std::string& body) {
  return "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>" + HtmlEscape(title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n<main>\n" + body + "</main>\n</body>\n</html>\n";
}

std::string IntegrityNote(const GameSummary& g) {
  if (g.integrity == Integrity::kVerified)
    return "<p class=\"integrity ok\"><b>Verified.</b> The hash chain of " + std::to_string(g.entries) +
           " journal entries is intact from the header to the head <code>" + g.head_hash.substr(0, 16) +
           "</code>, and the replay agrees with every recorded verdict and tally.</p>\n";
  return "<p class=\"integrity none\"><b>No hash chain.</b> This record has no journal: it replays, but nothing proves it was not edited.</p>\n";
}

std::string Ranking(const GameSummary& g) {
  std::string html = "<h2>Final ranking</h2>\n";
  if (g.variant == "solo")
    html += "<p>Solo score <b>" + std::to_string(g.solo_score) + "</b>" + (g.solo_rating.empty() ? "" : " &middot; " + HtmlEscape(g.solo_rating)) + "</p>\n";
  html += "<table>\n<tr><th class=\"n\">Rank</th><th>Player</th><th class=\"n\">Coins</th><th class=\"n\">Tokens on the board</th><th></th></tr>\n";
  for (const RankRow& r : g.ranking)
    html += "<tr><td class=\"n\">" + Ordinal(r.rank) + "</td><td>" + Swatch(Seat(g, r.player)) + HtmlEscape(r.player) + "</td><td class=\"n\"><b>" +
            std::to_string(r.coins) + "</b></td><td class=\"n\">" + std::to_string(r.tokens) + "</td><td>" + (r.winner ? "<span class=\"chip win\">winner</span>" : "") +
            "</td></tr>\n";
  return html + "</table>\n";
}

std::string Flags(const GameSummary& g, const GameFiles& files) {
  std::string html = "<h2>Flags</h2>\n";
  if (g.flags.empty()) return html + "<p>No action was rejected by the rules.</p>\n";
  html += "<table>\n<tr><th class=\"n\">Round</th><th>Player</th><th>Action</th><th>Rule</th><th>Why</th><th>Resolution</th></tr>\n";
  for (const FlagRow& f : g.flags) {
    const std::string chip = f.resolution == "house ruling" ? "house" : f.resolution == "unresolved" ? "open" : "back";
    html += "<tr><td class=\"n\">" + std::to_string(f.round) + "</td><td>" + Swatch(Seat(g, f.player)) + HtmlEscape(f.player) + "</td><td>" + HtmlEscape(f.action) +
            "</td><td><code>" + HtmlEscape(f.code) + "</code></td><td class=\"why\">" + HtmlEscape(f.why) + "</td><td><span class=\"chip " + chip + "\">" +
            HtmlEscape(f.resolution) + "</span>" + (f.note.empty() ? "" : "<br><small>" + HtmlEscape(f.note) + "</small>") + "</td></tr>\n";
  }
  return html + "</table>\n<p class=\"files\">" + Link(files.flags_csv, "flags as CSV") + "</p>\n";
}

std::string Turns(const GameSummary& g, const GameFiles& files) {
  std::string html = "<h2>Turn by turn</h2>\n";
  if (g.turns.empty()) return html + "<p>No turn has ended yet.</p>\n";
  html += "<table>\n<tr><th class=\"n\">Round</th><th>Player</th><th>Combo</th><th class=\"n\">Regions</th><th class=\"n\">Race</th>"
          "<th class=\"n\">Power</th><th class=\"n\">Turn</th>";
  for (size_t p = 0; p < g.players.size(); ++p) html += "<th class=\"n\">" + Swatch(p) + HtmlEscape(g.players[p]) + "</th>";
  html += "</tr>\n";
  int last_round = -1;
  for (const TurnRow& t : g.turns) {
    html += std::string(t.round != last_round && last_round >= 0 ? "<tr class=\"round\">" : "<tr>") + "<td class=\"n\">" +
            (t.round != last_round ? std::to_string(t.round) : "") + "</td><td>" + HtmlEscape(t.player) + "</td><td>" + HtmlEscape(t.combo) +
            "</td><td class=\"n\">" + std::to_string(t.coins.regions) + "</td><td class=\"n\">" + std::to_string(t.coins.race) + "</td><td class=\"n\">" +
            std::to_string(t.coins.power) + "</td><td class=\"n\"><b>+" + std::to_string(t.coins.total()) + "</b></td>";
    for (size_t p = 0; p < t.holdings.size(); ++p)
      html += std::string(g.players[p] == t.player ? "<td class=\"n me\">" : "<td class=\"n\">") + std::to_string(t.holdings[p]) + "</td>";
    html += "</tr>\n";
    last_round = t.round;
  }
  return html + "</table>\n<p class=\"files\">" + Link(files.turns_csv, "turns as CSV") + "</p>\n";
}

}  // namespace

std::string HtmlEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string GameHtml(const GameSummary& g, const GameFiles& files) {
  std::string body = "<p class=\"kicker\">swref game report</p>\n<h1>" + HtmlEscape(g.name) + "</h1>\n";
  body += "<p class=\"meta\">map " + HtmlEscape(g.map) + (g.variant == "solo" ? " &middot; SoloPlay" : "") + " &middot; " + std::to_string(g.players.size()) +
          (g.players.size() == 1 ? " player" : " players") + " &middot; " +
          (g.finished ? "finished after round " + std::to_string(g.round) : "in round " + std::to_string(g.round) + ", not finished") + " &middot; " +
          std::to_string(g.actions) + " actions</p>\n";
  body += IntegrityNote(g) + Ranking(g);
  body += "<h2>Coins by turn</h2>\n<img class=\"chart\" src=\"" + HtmlEscape(files.svg) + "\" alt=\"every player's coins after each turn\">\n";
  body += "<p class=\"files\">" + Link(files.png, "PNG") + " &middot; " + Link(files.svg, "SVG") + " &middot; " + Link(files.ranking_csv, "ranking as CSV") + "</p>\n";
  body += Flags(g, files) + Turns(g, files);
  body += "<footer>From <code>" + HtmlEscape(g.file) + "</code> by <code>swref report</code>." +
          (files.tournament.empty() ? "" : " Back to the " + Link(files.tournament, "tournament table") + ".") + "</footer>\n";
  return Page(g.name + " - swref report", body);
}

std::string TournamentHtml(const std::vector<GameSummary>& games, const std::vector<GameFiles>& files, const std::vector<Standing>& standings,
                           const std::string& csv) {
  std::string body = "<p class=\"kicker\">swref tournament report</p>\n<h1>Tournament</h1>\n<p class=\"meta\">" + std::to_string(games.size()) + " games &middot; " +
                     std::to_string(standings.size()) + " players &middot; ordered by wins, then coins, then mean rank</p>\n";
  body += "<table>\n<tr><th class=\"n\">#</th><th>Player</th><th class=\"n\">Games</th><th class=\"n\">Wins</th><th class=\"n\">Coins</th><th class=\"n\">Mean rank</th>";
  for (size_t g = 0; g < games.size(); ++g) body += "<th class=\"n\">" + Link(files[g].page, games[g].name) + "</th>";
  body += "</tr>\n";
  for (size_t i = 0; i < standings.size(); ++i) {
    const Standing& s = standings[i];
    char mean[16];
    std::snprintf(mean, sizeof mean, "%.2f", s.mean_rank);
    body += "<tr><td class=\"n\">" + std::to_string(i + 1) + "</td><td><b>" + HtmlEscape(s.player) + "</b></td><td class=\"n\">" + std::to_string(s.games) +
            "</td><td class=\"n\">" + std::to_string(s.wins) + "</td><td class=\"n\"><b>" + std::to_string(s.coins) + "</b></td><td class=\"n\">" + mean + "</td>";
    for (size_t g = 0; g < games.size(); ++g)
      body += "<td class=\"n\">" + (s.ranks[g] ? Ordinal(s.ranks[g]) + " <small>(" + std::to_string(s.game_coins[g]) + ")</small>" : std::string("&ndash;")) + "</td>";
    body += "</tr>\n";
  }
  body += "</table>\n<p class=\"files\">" + Link(csv, "the table as CSV") + " &middot; per game: rank (final coins)</p>\n<h2>Games</h2>\n<table>\n"
          "<tr><th>Game</th><th>Map</th><th>Result</th><th>Integrity</th></tr>\n";
  for (size_t g = 0; g < games.size(); ++g) {
    const GameSummary& game = games[g];
    std::string result = game.finished ? (game.winners.size() > 1 ? "shared win" : game.winners.empty() ? "no winner" : "won by " + game.winners[0])
                                       : "not finished (round " + std::to_string(game.round) + ")";
    body += "<tr><td>" + Link(files[g].page, game.name) + "</td><td>" + HtmlEscape(game.map) + "</td><td>" + HtmlEscape(result) + "</td><td>" +
            (game.integrity == Integrity::kVerified ? "<span class=\"chip win\">verified</span>" : "<span class=\"chip house\">no hash chain</span>") + "</td></tr>\n";
  }
  body += "</table>\n<footer>By <code>swref report</code>.</footer>\n";
  return Page("Tournament - swref report", body);
}

}  // namespace swref::core
