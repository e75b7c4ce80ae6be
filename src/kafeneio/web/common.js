// Small helpers shared by every page: building elements, calling the API, naming seats.

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "style") node.setAttribute("style", value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {  // nested lists of children too
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const OFFLINE = "The server is not answering (it may be restarting): try again in a moment.";

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Seat-Token"] = token;
  let response;
  try {
    response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {  // no answer at all: the browser's own "Failed to fetch" says nothing to a player
    const error = new Error(OFFLINE);
    error.code = "offline";
    throw error;
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.message || `${response.status} ${response.statusText}`);
    error.code = data.error;
    error.body = data;
    throw error;
  }
  return data;
}

// The join link keeps the seat's token in the fragment, which the browser never sends.
export function linkParams() {
  const params = new URLSearchParams(location.hash.slice(1));
  const seat = params.get("seat");
  return { seat: seat === null ? null : Number(seat), token: params.get("token") };
}

// The seat a kept seat link opens ("/game/ID#seat=1&token=..."), or null.
export function seatOfLink(link) {
  const seat = new URLSearchParams(link.split("#")[1] || "").get("seat");
  return seat === null ? null : Number(seat);
}

export function seatName(seats, index) {
  if (index === null || index === undefined) return "chance";
  const seat = seats[index];
  if (!seat) return `P${index + 1}`;
  return `P${index + 1} ${isolated(seat.name)}`;
}

// Right-to-left letters (Hebrew, Arabic, Syriac, Thaana, N'Ko... and their presentation forms)
const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

// A player's name set apart from the text around it (between U+2068 FIRST STRONG ISOLATE and
// U+2069 POP DIRECTIONAL ISOLATE, as <bdi> does) when it holds right-to-left letters: else
// "P2 علي: 12 points" would be shown with the score moved before the name. Isolates work in
// any text (a title, a message), where <bdi> is an element; a name in Latin letters needs none
// and is given none, so that its text is the name as typed. (The server refuses the characters
// that could change the text around a name: this is for the letters it takes.)
export function isolated(name) {
  return RIGHT_TO_LEFT.test(name) ? `\u2068${name}\u2069` : name;
}

// How a page names the viewer's own things: "your" in play; in a replay seen by a seat, that
// seat's name (the person watching the replay may be anyone).
export function yours(view, thing) {
  return view.replay ? `${seatName(view.seats, view.viewer)}'s ${thing}` : `Your ${thing}`;
}

export function youMark(view, player) {
  return player === view.viewer && !view.replay ? " (you)" : "";
}

// Where this browser keeps the link of a seat it opened (the page writes it, the lobby reads it)
export function seatLinkKey(gameId) {
  return `kafeneio.seat.${gameId}`;
}

// Where this browser keeps the seat links of a game it created (the lobby shows them once, on
// creating it; a Back or a reload would lose the other seats' links for good otherwise)
export function createdLinksKey(gameId) {
  return `kafeneio.created.${gameId}`;
}

// The seat links of a game this browser created (in the lobby, or by asking for a rematch),
// kept in it (on this device only, as the seat links it opened are): the lobby offers them
// again on the game's row until the game ends.
export function keepCreated(created) {
  if (!created.links.length) return;
  const links = created.links.map(({ seat, name, path }) => ({ seat, name, path }));
  try { localStorage.setItem(createdLinksKey(created.id), JSON.stringify(links)); } catch { /* private mode: shown once */ }
}

export function gameIdFromPath() {
  const part = location.pathname.split("/").filter(Boolean).pop();
  try {
    return decodeURIComponent(part);
  } catch {  // a malformed escape (/game/%E0): the id as typed, which no game has
    return part;
  }
}

// What a game or replay page says when the server knows no game of its address
export const NO_GAME = "There is no game at this link: it may have been mistyped.";

export function download(name, data) {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

export function percent(chance) {
  return `${Math.round(100 * chance)}%`;
}

// A legal move in the game's own words (`words`, as `state.action_words` gives them to the
// mover), as a sentence: "keep the starting food cards" -> "Keep the starting food cards".
// The page writes no wording of its own for a move: one source, the game's.
// What a move that puts its mover out of the game (Café's CI-M.3) means, asked before it is sent.
export const OUT_MEANS = "You would play no more and could not win.";

export function moveText(move) {
  return move.words.charAt(0).toUpperCase() + move.words.slice(1);
}

// A click made with the keyboard (Enter or Space on a button: no pointer, so no click count).
export function byKeyboard(event) {
  return Boolean(event) && event.detail === 0;
}

export function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

export function renderLog(box, log, seats) {
  // Each decision in words (the game's events for this viewer), its notation beside it.
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 30;
  replaceKeepingFocus(box, ...log.map((entry) => {
    const who = el("strong", {}, entry.player === null ? "chance" : seatName(seats, entry.player));
    const words = entry.events || [];
    return el("li", { value: entry.ply + 1 },
      who, " ", el("code", { class: "notation" }, entry.text),
      ...words.map((text, i) => el("div", { class: "event" }, withRules(text, `${entry.ply}.${i}`))));
  }));
  if (atBottom) box.scrollTop = box.scrollHeight;
}

// `box`'s children replaced by `children`, unless they read the same (a list polled every 5 s,
// a log drawn again with each new view), the focus kept on the same link or button where it
// was inside: the rebuild threw it to the page's start, and a screen reader lost its place.
export function replaceKeepingFocus(box, ...children) {
  const next = document.createElement(box.tagName);
  next.append(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
  if (next.innerHTML === box.innerHTML) return;
  const active = document.activeElement;
  const again = active && active !== box && box.contains(active) ? finderOf(active, box) : null;
  box.replaceChildren(...next.childNodes);
  if (again) again(box)?.focus({ preventScroll: true });
}

// How to find, among new nodes, the one that stands where `node` stood: the same kind of
// element with the same words, address and name, in the same game's row (the lobby) or the
// same line and rule (a log's rule button), and among such alike the same one by its place
// (each seat's "open this seat" link reads the same: the first seat's took the focus of the
// second's, and Enter would have opened another player's seat)
function finderOf(node, box) {
  const row = (of) => of.closest("[data-game]")?.dataset.game;
  const line = (of) => of.closest("[data-key]")?.dataset.key;
  const rule = (of) => of.closest("[data-rule]")?.dataset.rule;
  const same = (other) => other.className === node.className && other.textContent === node.textContent
    && other.getAttribute("href") === node.getAttribute("href") && other.getAttribute("aria-label") === node.getAttribute("aria-label")
    && line(other) === line(node) && rule(other) === rule(node) && row(other) === row(node);
  const alike = (root) => [...root.querySelectorAll(node.tagName)].filter(same);
  const place = alike(box).indexOf(node);
  return (root) => alike(root)[place];
}

// The rule ids the game's words cite ("(CI-T.5)", "(SW-4.2)"), each a button that opens its
// rule's text under the line, as the terminal's `rule` command prints it.
// A rule id as one group, so that a text split by it keeps the ids (at the odd places).
export const RULE_ID = /((?:CI|SW)-[A-Z0-9]+\.\d+)/;
let rulebook = new Map();
let rulesGame = null;  // the game whose reference `rulebook` holds
const openRules = new Set();  // "line key|rule id": kept open when the log is drawn again

export async function loadRules(game) {
  try {
    rulebook = new Map((await api(`/api/rules/${encodeURIComponent(game)}`)).map((rule) => [rule.id, rule]));
    rulesGame = game;
  } catch {
    rulebook = new Map();  // without the reference the ids stay plain text
  }
}

// The game's rules page, at one rule when given (/rules/cafe#CI-T.5).
export function rulesPath(game, ruleId = null) {
  return `/rules/${encodeURIComponent(game)}${ruleId ? `#${ruleId}` : ""}`;
}

// The header's "Rules" link of a game or replay page, to the game's rules page in a new tab
// (the page's own link says so), so that a game in progress is not left.
export function showRulesLink(game) {
  const link = document.getElementById("rules-link");
  link.href = rulesPath(game);
  link.classList.remove("hidden");
}

export function withRules(text, key) {
  const parts = text.split(RULE_ID);  // the ids at the odd places (a capturing group)
  const cited = parts.filter((part, i) => i % 2 && rulebook.has(part));
  const nodes = [];
  for (let i = 0; i < parts.length; i += 1) {
    if (!(i % 2 && rulebook.has(parts[i]))) { nodes.push(parts[i]); continue; }
    // "(CI-T.5)" kept on one line: the brackets go with the id into one unbroken span
    const open = nodes.length && nodes[nodes.length - 1].endsWith("(");
    const close = parts[i + 1]?.startsWith(")");
    if (open) nodes[nodes.length - 1] = nodes[nodes.length - 1].slice(0, -1);
    if (close) parts[i + 1] = parts[i + 1].slice(1);
    nodes.push(el("span", { class: "rule-cite" }, open ? "(" : "", ruleButton(parts[i], key), close ? ")" : ""));
  }
  return [nodes, cited.filter((id) => openRules.has(`${key}|${id}`)).map(ruleText)];
}

function ruleButton(id, key) {
  const open = openRules.has(`${key}|${id}`);
  return el("button", {
    type: "button", class: "rule-ref", "data-rule": id, "data-key": key, "aria-expanded": String(open),
    title: `${rulebook.get(id).section}: what rule ${id} says`, "aria-label": `rule ${id}`,  // not a bare code read out
    onclick: (event) => {
      const line = event.currentTarget.closest(".rule-cite").parentElement;  // the citing line
      if (openRules.delete(`${key}|${id}`)) {
        line.querySelector(`.rule-text[data-rule="${id}"]`)?.remove();
      } else {
        openRules.add(`${key}|${id}`);
        line.append(ruleText(id));
      }
      event.currentTarget.setAttribute("aria-expanded", String(openRules.has(`${key}|${id}`)));
    },
  }, id);
}

function ruleText(id) {
  const rule = rulebook.get(id);
  return el("div", { class: "rule-text", "data-rule": id }, el("strong", {}, `${id} · ${rule.section}. `), rule.text,
    el("a", { href: rulesPath(rulesGame, id), class: "all-rules", target: "_blank", rel: "noopener", title: "The whole rules reference, at this rule, in a new tab" }, "all rules"));
}

// A live region (aria-live) given its content anew only when its words change: the same words
// put in again, at each view the socket brings (a bot's every move, someone opening the game),
// would be said again by a screen reader. Its buttons kept then take the new ones' state.
export function setLive(node, ...children) {
  const next = el("div", {}, ...children);
  const was = node.cloneNode(true);
  for (const button of was.querySelectorAll("[disabled]")) button.removeAttribute("disabled");
  if (next.innerHTML !== was.innerHTML) {
    node.replaceChildren(...next.childNodes);
    return;
  }
  const now = next.querySelectorAll("button");
  node.querySelectorAll("button").forEach((button, i) => { button.disabled = now[i].disabled; });
}

// Where the news of the viewer's turn ends in their log: what they did so far in this turn is
// not news (their trailing run of decisions, and the chance outcomes after its first), a chance
// outcome before it is (a Souvlaki Ninja's steal is told on the entry that ends the others' turn)
export function ownTurnStart(log, viewer) {
  let end = log.length;
  for (let at = log.length - 1; at >= 0 && (log[at].player === viewer || log[at].player === null); at -= 1) {
    if (log[at].player === viewer) end = at;
  }
  return end;
}

// How the news of the others' moves begins: "Since your last turn", or, before the viewer's
// first move (the others moved first), "Since the game began". `end`: where the news ends; the
// viewer's own decisions after it (a first guest seated in their first turn) are this turn's,
// not a last turn.
export function sinceHead(log, viewer, end = ownTurnStart(log, viewer)) {
  return log.slice(0, end).some((entry) => entry.player === viewer) ? "Since your last turn" : "Since the game began";
}

// Who won, as the game's own end event says it: "P1 Ann wins", "P1 Ann and P2 Bo share the
// win", "nobody wins" (the result box, the live banner, the replay's last position).
export function winnersText(seats, winners) {
  if (!winners.length) return "nobody wins";
  const names = winners.map((w) => seatName(seats, w)).join(" and ");
  return `${names} ${winners.length > 1 ? "share the win" : "wins"}`;
}

// Over, or abandoned: played no more (the server's statuses are open, running, finished and
// abandoned, in a game's view and in the lobby's summaries alike)
export function hasEnded(game) {
  return game.status === "finished" || game.status === "abandoned";
}

// The game's note on how its log writes things (`LOG_LEGEND`, Souvlaki's customers), shown
// above the Moves list once; none for a game without one
export function showLogLegend(legend) {
  const log = document.getElementById("log");
  if (!legend || !log || document.getElementById("log-legend")) return;
  log.before(el("p", { class: "muted log-legend", id: "log-legend" }, legend));
}

export function endOfGame(log) {
  // The game's own words for why it ended, when it gives them.
  for (const entry of [...log].reverse()) {
    const found = (entry.events || []).find((text) => text.startsWith("The game ends"));
    if (found) return found;
  }
  return null;
}

export function fill(root, ...children) {
  root.replaceChildren(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
}
