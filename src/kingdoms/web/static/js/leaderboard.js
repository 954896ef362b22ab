// The leaderboard: ratings of one game, for 2-player or 3–6-player games.
import { botLabel } from "./bots.js";
import { $, clear, h } from "./dom.js";
import { languageSelect, loadLanguage, pickLanguage, t, translatePage } from "./i18n.js";

let catalog = [];


async function show() {
  const game = $("#lb-game").value;
  const players = $("#lb-players").value;
  const data = await (await fetch(`/api/ratings?game=${encodeURIComponent(game)}&players=${players}`)).json();
  const body = clear($("#lb-rows"));
  (data.ratings || []).forEach((r, i) => {
    body.append(h("tr", { class: r.kind === "bot" ? "bot-row" : "" },
      h("td", {}, String(i + 1)),
      h("td", {}, r.kind === "bot" ? [t("Bot"), ": ", botLabel(r.bot)] : r.name),
      h("td", { class: "num" }, r.rating.toFixed(1)),
      h("td", { class: "num" }, r.mu.toFixed(1)),
      h("td", { class: "num" }, r.sigma.toFixed(1)),
      h("td", { class: "num" }, String(r.games))));
  });
  if (!(data.ratings || []).length) body.append(h("tr", {}, h("td", { colspan: 6, class: "muted" }, t("No rated games yet."))));
  document.body.dataset.ready = "1";
}

async function main() {
  await loadLanguage(pickLanguage());
  $("#lang-slot").append(languageSelect(() => { translatePage(); show(); }));
  translatePage();
  catalog = (await (await fetch("/api/catalog")).json()).games;
  for (const g of catalog) $("#lb-game").add(new Option(g.title, g.name));
  const want = new URLSearchParams(location.search).get("game");
  if (want) $("#lb-game").value = want;
  $("#lb-game").addEventListener("change", show);
  $("#lb-players").addEventListener("change", show);
  await show();
}

main();
