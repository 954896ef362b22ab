"""Text that reads right: the log's line numbers whole at any length, and card names
on small cards broken only between words or syllables (with a hyphen), in the page's
language — en/pl/cs, at 1366×768 and on a 390×844 phone."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

SIZES = ({"width": 1366, "height": 768}, {"width": 390, "height": 844})
LONG_NAMES = (
    "Alchemist,Apothecary,Familiar,Philosopher's Stone,Scrying Pool,University,"
    "Council Room,Throne Room,Laboratory,Moneylender"
)

# Every line break inside a card name: the character before it must be a space, a soft
# hyphen (drawn as a hyphen at the break) or a hyphen.  Also: nothing clipped.
BREAKS = """els => els.map(el => {
  const clean = (s) => s.replaceAll('\\u00ad', '');
  const out = {name: el.textContent.replaceAll('\\u00ad', ''), bad: [],
    lang: el.closest('[lang]')?.getAttribute('lang'),
    clipped: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1};
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let top = null, before = null;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    for (let i = 0; i < n.length; i++) {
      const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
      const rect = [...r.getClientRects()].filter(x => x.width > 0).pop();
      const ch = n.data[i];
      if (rect) {
        if (top !== null && rect.top > top + 2 && !/[\\s\\u00ad-]/.test(before))
          out.bad.push(clean(n.data.slice(0, i)) + '|' + clean(n.data.slice(i)));
        top = rect.top;
      }
      before = ch;
    }
  }
  return out;
})"""


def _new(page: Any, server: str, game: str, seats: list[dict[str, Any]], **opts: Any) -> Any:
    res = page.request.post(server + "/api/games", data={"game": game, "seats": seats, **opts})
    assert res.ok, res.text()
    return res.json()


@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
def test_card_names_break_between_syllables_and_log_numbers_stay_whole(
    browser: Any, seeded: str, lang: str
) -> None:
    context = browser.new_context(viewport=SIZES[0], locale=lang, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        dom = _new(
            page,
            seeded,
            "dominion",
            [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "big-money"}],
            options={"kingdom": LONG_NAMES},
            seed=2,
        )
        kd = _new(page, seeded, "kingdomino", [{"kind": "bot", "bot": "greedy"}] * 2, seed=1)
        for size in SIZES:
            page.set_viewport_size(size)
            page.goto(dom["seats"][0]["link"])
            page.wait_for_selector(
                "#d-supply .dcard[data-card='philosophers_stone'], "
                "#d-supply .dcard[data-card='university']"
            )
            assert page.get_attribute("html", "lang") == lang
            names = page.eval_on_selector_all("#d-supply .dname, #d-hand .dname", BREAKS)
            assert len(names) >= 17
            wrong = [n for n in names if n["bad"] or n["clipped"] or n["lang"] != lang]
            assert not wrong, (size, wrong)
            # the log: a long game's line numbers whole (the list leaves room for them)
            page.goto(f"{seeded}/game/{kd['id']}")
            page.wait_for_selector(".scores, #replay-controls:not([hidden])")
            page.wait_for_selector("#log li")
            for count in (9, 999, 1141, 12000):
                fit = page.evaluate(
                    """async (count) => {
                      const m = await import('/static/js/log.js');
                      const ol = document.querySelector('#log');
                      m.resetLog();
                      const lines = Array.from({length: count},
                        (_, i) => ({type: 'x', text: 'line ' + (i + 1)}));
                      m.renderLog(ol, lines, null);
                      const li = ol.querySelector('li:last-child');
                      const probe = document.createElement('span');
                      probe.style.whiteSpace = 'pre';
                      probe.style.fontVariantNumeric = 'tabular-nums';
                      probe.textContent = li.value + '. ';
                      li.append(probe);
                      const need = probe.getBoundingClientRect().width;
                      probe.remove();
                      const room = parseFloat(getComputedStyle(ol).paddingLeft);
                      return {value: li.value, need, room};
                    }""",
                    count,
                )
                assert fit["value"] == count, fit
                assert fit["need"] <= fit["room"], (size, fit)
    finally:
        context.close()
