// Seat tokens kept in this browser, so a closed tab can rejoin its games.
const KEY = "kingdoms:games";

export function myGames() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

export function rememberTokens(gameId, tokens, info = {}) {
  const all = myGames();
  const entry = all[gameId] || { tokens: [], created: Date.now() };
  for (const tok of tokens) if (tok && !entry.tokens.includes(tok)) entry.tokens.push(tok);
  Object.assign(entry, info);
  all[gameId] = entry;
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function tokensFor(gameId) {
  return (myGames()[gameId] || {}).tokens || [];
}

// A private game's share key (from its share link, "#k=…"): what lets a watcher who
// holds no seat see it, replay it and read its review.
const SHARE = "kingdoms:share";

export function rememberShareKey(gameId, key) {
  if (!key) return;
  let all = {};
  try { all = JSON.parse(localStorage.getItem(SHARE) || "{}") || {}; } catch {}
  all[gameId] = key;
  localStorage.setItem(SHARE, JSON.stringify(all));
}

export function shareKeyFor(gameId) {
  try {
    const key = (JSON.parse(localStorage.getItem(SHARE) || "{}") || {})[gameId];
    return typeof key === "string" ? key : null;
  } catch {
    return null;
  }
}

/** Every secret this browser holds for a game (seat tokens, then its share key):
 *  what a private game's record, replay and review ask for. */
export function secretsFor(gameId) {
  const key = shareKeyFor(gameId);
  return key ? [...tokensFor(gameId), key] : tokensFor(gameId);
}

/** The request headers showing those secrets ({} for none). */
export function secretHeaders(gameId) {
  const all = secretsFor(gameId);
  return all.length ? { "X-Seat-Tokens": all.join(",") } : {};
}

/** A plain link (a record download) that opens a private game: the share key, or a
 *  seat's token, as its ?key= query. */
export function withKey(url, gameId) {
  const key = shareKeyFor(gameId) || tokensFor(gameId)[0];
  return key ? `${url}?key=${encodeURIComponent(key)}` : url;
}

export function forget(gameId) {
  const all = myGames();
  delete all[gameId];
  localStorage.setItem(KEY, JSON.stringify(all));
}

// The player's profile (name and secret) for rated games; the secret never leaves
// this browser except to prove the profile to this server.
const PROFILE = "kingdoms:profile";

export function profile() {
  try {
    const p = JSON.parse(localStorage.getItem(PROFILE) || "null");
    return p && typeof p.name === "string" && typeof p.secret === "string" ? p : null;
  } catch {
    return null;
  }
}

export function saveProfile(p) {
  if (p) localStorage.setItem(PROFILE, JSON.stringify({ name: p.name, secret: p.secret }));
  else localStorage.removeItem(PROFILE);
}

/** A fresh random secret (URL-safe text). */
export function newSecret() {
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
