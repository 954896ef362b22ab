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

export function forget(gameId) {
  const all = myGames();
  delete all[gameId];
  localStorage.setItem(KEY, JSON.stringify(all));
}
