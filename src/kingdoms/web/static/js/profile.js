// The lobby's profile panel: create a profile (the browser makes and keeps the
// secret), use one from another device (name + secret), or forget it here.
import { $, clear, h } from "./dom.js";
import { t } from "./i18n.js";
import { newSecret, profile, saveProfile } from "./store.js";

async function post(url, body) {
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  return { ok: res.ok, status: res.status, data };
}

const ERRORS = {
  name_taken: () => t("That name is taken."),
  bad_profile: () => t("Wrong name or secret."),
  rate_limited: () => t("Too many attempts; wait a little."),
};

export function renderProfile(onChange) {
  const box = clear($("#profile"));
  const me = profile();
  const error = h("p", { class: "error", role: "alert", id: "profile-error" });
  const fail = (r) => { error.textContent = (ERRORS[r.data.error] || (() => r.data.message || t("Something went wrong.")))(); };
  if (me) {
    const secret = h("code", { id: "profile-secret", hidden: true }, me.secret);
    box.append(
      h("p", {}, t("Playing as:"), " ", h("strong", { id: "profile-name" }, me.name)),
      h("div", { class: "row" },
        h("button", { type: "button", id: "show-secret", onclick: () => { secret.hidden = !secret.hidden; } }, t("Show my secret")),
        h("button", { type: "button", id: "forget-profile", onclick: () => { saveProfile(null); renderProfile(onChange); onChange(); } }, t("Forget here"))),
      h("p", { class: "muted small" }, t("To play rated games on another device, enter your name and this secret there.")),
      secret);
    return;
  }
  const name = h("input", { id: "profile-name-input", maxlength: 40, "aria-label": t("Name"), placeholder: t("Name") });
  const secretIn = h("input", { id: "profile-secret-input", "aria-label": t("Secret"), placeholder: t("Secret (from your other device)") });
  box.append(
    h("p", { class: "muted" }, t("A profile lets you play rated games and appear on the leaderboard.")),
    h("div", { class: "row" }, name,
      h("button", { type: "button", class: "primary", id: "create-profile", onclick: async () => {
        const body = { name: name.value.trim(), secret: newSecret() };
        const r = await post("/api/profiles", body);
        if (!r.ok) { fail(r); return; }
        saveProfile({ name: r.data.name, secret: body.secret });
        renderProfile(onChange);
        onChange();
      } }, t("Create profile"))),
    h("details", {}, h("summary", {}, t("I have a profile")),
      h("div", { class: "row" }, secretIn,
        h("button", { type: "button", id: "use-profile", onclick: async () => {
          const body = { name: name.value.trim(), secret: secretIn.value.trim() };
          const r = await post("/api/profiles/login", body);
          if (!r.ok) { fail(r); return; }
          saveProfile({ name: r.data.name, secret: body.secret });
          renderProfile(onChange);
          onChange();
        } }, t("Use it")))),
    error);
}
