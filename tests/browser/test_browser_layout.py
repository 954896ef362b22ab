"""What a player needs stays on screen: at 1366×768, 1280×720 and 390×844, in every
phase and decision kind of both games (and in the three languages), the hand, the
cards in play, the prompt and its answers are in the viewport without scrolling,
and nothing covers them.  Checked by element geometry: in a game played on (the
phases), and at each kind of decision the engines ask (Dominion's (kind, zone)
pairs, Kingdomino's action kinds), each reached by a seeded game set up by its moves
(tests/browser/reach.py)."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from tests.browser.conftest import ARTIFACTS
from tests.browser.drive import wait_step_change
from tests.browser.reach import kingdomino_kinds, open_at, open_decision, wanted

pytestmark = pytest.mark.browser

SIZES = {
    "1366x768": {"viewport": {"width": 1366, "height": 768}},
    "1280x720": {"viewport": {"width": 1280, "height": 720}},
    "390x844": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}

# Every required element (selectors) and every visible answer must be inside the
# viewport and be what is drawn at its centre.  Answers in a bar that scrolls on its
# own (a long list on a phone, a row of cards in the dock) must be inside that bar's
# scroll area, itself in view.
GEOMETRY = """
([required, answers]) => {
  const out = [];
  const W = innerWidth, H = innerHeight;
  const onTop = (el, r) => {
    const x = Math.min(W - 1, Math.max(0, r.left + Math.min(r.width / 2, 24)));
    const y = Math.min(H - 1, Math.max(0, r.top + Math.min(r.height / 2, 12)));
    const top = document.elementFromPoint(x, y);
    return top && (el.contains(top) || top.contains(el));
  };
  const check = (el, what) => {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) return out.push(`${what}: not drawn`);
    if (r.top < -1 || r.left < -1 || r.bottom > H + 1 || r.right > W + 1) {
      const box = el.parentElement
        && el.parentElement.closest("#prompt, .kd-tools, .d-dock .dcards");
      const scrolls = box && (box.scrollHeight > box.clientHeight + 1
        || box.scrollWidth > box.clientWidth + 1);
      if (scrolls) {
        const b = box.getBoundingClientRect();
        // in the bar or the dock's row of cards, which scrolls by itself
        if (b.top >= -1 && b.bottom <= H + 1 && b.left >= -1 && b.right <= W + 1) return;
      }
      const at = [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
      return out.push(`${what}: ${at} outside ${W}×${H}`);
    }
    if (!onTop(el, r)) {
      const over = document.elementFromPoint(r.left + 4, r.top + 4);
      out.push(`${what}: covered by ${over ? over.outerHTML.slice(0, 80) : "nothing"}`);
    }
  };
  for (const sel of required) {
    const el = document.querySelector(sel);
    if (!el) out.push(`${sel}: missing`); else check(el, sel);
  }
  for (const sel of answers) {
    document.querySelectorAll(sel).forEach((el, i) => {
      if (el.closest("details:not([open])") || el.closest("[hidden]")) return;
      check(el, `${sel}[${i}] ${el.textContent.trim().slice(0, 30)}`);
    });
  }
  return out;
}
"""


FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def _in_view(page: Any, required: list[str], answers: list[str], where: str) -> None:
    # Dominion docks what a seat needs (it stays put however far the page scrolls);
    # the Kingdomino board opens with the choices in view
    docked = page.query_selector("[data-dock]") is not None
    for scroll in ("0", "document.documentElement.scrollHeight") if docked else ("0",):
        page.evaluate(f"window.scrollTo(0, {scroll})")
        if scroll == "0":
            page.wait_for_function("window.scrollY === 0")
        page.evaluate(FRAMES)
        bad = page.evaluate(GEOMETRY, [required, answers])
        if bad:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"layout-{where.split()[0]}.png"))
        assert not bad, f"{where} (scrolled to {scroll}): {bad}"
    page.evaluate("window.scrollTo(0, 0)")


LANGS = ("en", "pl", "cs")

KINGDOM = "Cellar, Chapel, Moat, Village, Workshop, Militia, Remodel, Library, Sentry, Smithy"

# One move, decided in the page (one round trip): a seat that buys one of each kingdom
# card, plays every action, answers a question with the first card or option offered
# (a Sentry keeps both cards, to be asked their order).
DOMINION_MOVE = """
() => {
  const q = (s) => document.querySelector(s);
  const key = (k) => document.body.dispatchEvent(
    new KeyboardEvent("keydown", { key: k, bubbles: true }));
  const seat = q("#title").textContent;
  const bought = (window.__bought = window.__bought || {})[seat] = (window.__bought[seat] || []);
  const dec = q("#d-decision[data-kind]");
  if (dec) {
    const cards = document.querySelectorAll("#d-dock .dcard.clickable, #d-supply .dcard.clickable");
    const choices = document.querySelectorAll("#choices .choice");
    const looking = dec.dataset.zone === "looking" && dec.dataset.kind === "choose_cards";
    if (looking) choices[choices.length - 1].click();
    else if (cards.length) cards[0].click();
    else choices[0].click();
    return;
  }
  const play = q("#d-hand .dcard.clickable:not(.type-treasure)");
  if (play) return play.click();
  if (q("#d-hand .dcard.clickable.type-treasure")) return key("a");
  const buy = ["sentry", "library", "militia", "remodel", "workshop", "moat", "chapel"];
  for (const card of [...buy, "gold", "silver"]) {
    const el = q(`#d-supply .dcard.clickable[data-card='${card}']`);
    if (el && (!bought.includes(card) || card === "gold" || card === "silver")) {
      bought.push(card);
      return el.click();
    }
  }
  key("e");
}
"""

# What the seat on screen decides now: "<kind>:<zone>"
DOMINION_KIND = """
() => {
  const dec = document.querySelector("#d-decision[data-kind]");
  if (dec) return `${dec.dataset.kind}:${dec.dataset.zone}`;
  const status = document.querySelector("#d-status");  // (null until the board is drawn)
  return status ? `${status.dataset.phase}:hand` : null;
}
"""

KINGDOMINO_KIND = """
() => {
  if (document.querySelector(".domino.clickable")) return "pick";
  if (document.querySelector(".kd-cell.target")) return "place";
  return "discard";
}
"""


def _check_everywhere(page: Any, required: list[str], answers: list[str], kind: str) -> None:
    """The decision on screen, in each language and at each size."""
    for lang in LANGS:
        if page.evaluate("document.documentElement.lang") != lang:
            before = page.text_content("#prompt-title")
            page.select_option("#lang", lang)
            # redrawn in the new language (the seat's state sent again in it)
            page.wait_for_function(
                f"document.documentElement.lang === '{lang}' && "
                f"document.querySelector('#prompt-title').textContent !== {before!r}"
                " && !!document.querySelector('#choices .choice')"
                # and the board drawn (it waits for the language's card data)
                " && !!document.querySelector('#d-status, .kd-kingdom')"
            )
        for size in SIZES.values():
            page.set_viewport_size(size["viewport"])
            page.evaluate(FRAMES)
            _in_view(page, required, answers, f"{kind} {lang} {size['viewport']}")
    page.set_viewport_size(SIZES["1366x768"]["viewport"])


def _hot_seat(page: Any, server: str, game: str, options: dict[str, Any], seed: int) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Kuba"}]
    res = page.request.post(
        server + "/api/games",
        data={"game": game, "seats": seats, "options": options, "seed": seed},
    )
    assert res.ok, res.text()
    game_info = res.json()
    tokens = ",".join(s["token"] for s in game_info["seats"])
    page.goto(f"{server}/game/{game_info['id']}#t={tokens}")


def _play_and_check(
    page: Any, move: str, kind_js: str, wanted: set[str], required: Any
) -> set[str]:
    seen: set[str] = set()
    for _ in range(300):
        page.wait_for_selector(
            "#choices .choice, #pass-screen:not([hidden]), .scores", state="attached"
        )
        if page.query_selector("#pass-screen:not([hidden])"):
            page.keyboard.press("Enter")
            page.wait_for_selector("#pass-screen", state="hidden")
            continue
        if page.query_selector(".scores"):
            break
        kind = page.wait_for_function(kind_js).json_value()  # once the board is drawn
        if kind not in seen:
            seen.add(kind)
            need, answers = required(kind)
            _check_everywhere(page, need, answers, kind)
        if wanted <= {k.split(":")[0] for k in seen}:
            break
        step = page.get_attribute("body", "data-step")
        page.evaluate(move)
        wait_step_change(page, step)
    return seen


def test_dominion_hand_play_prompt_and_answers_stay_on_screen(page: Any, seeded: str) -> None:
    _hot_seat(page, seeded, "dominion", {"kingdom": KINGDOM}, 7)

    def required(kind: str) -> tuple[list[str], list[str]]:
        need = ["#prompt-title", "#prompt-text #d-status", "#d-hand h2", "#d-hand .dcards"]
        need.append("#d-play h2")
        if not kind.startswith(("action", "buy")):
            need.append("#d-decision")
        zone = kind.split(":")[1]
        if zone in ("looking", "set_aside"):
            need.append(f"#d-{zone.replace('_', '')} .dcards")
        return need, ["#choices > .choice"]

    # the phases and the commonest decisions, met in play (every decision kind and
    # zone, in its own game: below)
    kinds = {"action", "buy", "choose_cards", "choose_pile", "yes_no"}
    seen = _play_and_check(page, DOMINION_MOVE, DOMINION_KIND, kinds, required)
    assert kinds <= {k.split(":")[0] for k in seen}, f"decision kinds met: {sorted(seen)}"


@pytest.mark.parametrize(("kind", "zone"), sorted(wanted()))
def test_dominion_every_decision_kind_stays_on_screen(
    page: Any, unthrottled: str, kind: str, zone: str
) -> None:
    # every (kind, zone) of the engine's decisions, listed from the engine: one it adds
    # fails here until a game reaching it is found
    open_decision(page, unthrottled, kind, zone)
    need = ["#prompt-title", "#prompt-text #d-status", "#d-decision", "#d-hand h2"]
    need += ["#d-hand .dcards", "#d-play h2"]
    own = page.get_attribute("#d-decision", "data-whose") == "self"
    offered = zone in ("hand", "play", "looking", "set_aside")
    if kind in ("choose_cards", "order") and offered and own:
        # the cards offered (the seat's own), framed, the first of them whole in view
        need += ["#d-dock .picking", "#d-dock .picking .dcard.clickable"]
    # the cards to pick from, wherever the dock draws them, and every answer button
    answers = ["#choices > .choice", "#d-dock .dcard.clickable", "#d-looking .dcards"]
    answers.append("#d-aside .dcards")
    _check_everywhere(page, need, answers, f"{kind}:{zone}")


@pytest.mark.parametrize("variant", ["standard", "mighty-duel"])
def test_kingdomino_every_decision_kind_stays_on_screen(
    page: Any, unthrottled: str, variant: str
) -> None:
    # every kind of decision met in seeded games (the engine's action kinds: one it
    # adds is met there and checked here), each in its own game set up by its moves
    found = kingdomino_kinds(variant)
    assert {"pick", "place", "discard"} <= set(found), sorted(found)
    for kind, reached in sorted(found.items()):
        open_at(page, unthrottled, reached)
        page.wait_for_selector("#choices .choice, #k-tools, #pass-screen:not([hidden])")
        if page.query_selector("#pass-screen:not([hidden])"):
            page.keyboard.press("Enter")
            page.wait_for_selector("#pass-screen", state="hidden")
        page.wait_for_selector("#choices .choice", state="attached")
        # the board's part of the decision (its targets, its clickable dominoes) is
        # drawn once the board's module has rendered, possibly after the choices: wait
        # for the decision's kind to show, failing if it never does
        with contextlib.suppress(PlaywrightTimeout):  # the assertion says what showed
            page.wait_for_function(f"() => ({KINGDOMINO_KIND})() === {kind!r}", timeout=15_000)
        assert page.evaluate(KINGDOMINO_KIND) == kind
        if kind == "place":
            need = ["#prompt-title", "#k-tools", "#k-rotate", "#k-place"]
            answers = [".kd-cell.target"]
        elif kind == "pick":
            need, answers = ["#prompt-title", "#k-hint"], [".domino.clickable"]
        else:
            need, answers = ["#prompt-title", "#k-hint"], ["#choices > .choice"]
        _check_everywhere(page, need, answers, f"{variant} {kind}")
