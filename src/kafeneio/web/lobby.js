// The lobby: create a game (seats, bots, every rules option) and list the server's games.
import { api, createdLinksKey, el, hasEnded, isolated, keepCreated, plural, replaceKeepingFocus, rulesPath, seatLinkKey, seatName, seatOfLink } from "./common.js";

const HINTS = {
  cafe: "A shorter game: a small hand_size (3) or a large end_bag (80). Variants: birthday, dance.",
  souvlaki: "first_game plays without unforeseen cards; a small round_limit (3) makes a short game; shops: each seat's shop, ids separated by commas (built in: thanasis, pita, express, souvlache).",
};
let catalog = null;

function gameInfo() {
  return catalog.games.find((g) => g.name === document.getElementById("game").value);
}

function seatRow(index, bots) {
  // named as the row shows the seat ("P1"), with what is chosen there
  const kind = el("select", { "aria-label": `P${index + 1}: who plays`, name: `kind${index}` },
    el("option", { value: "human" }, "Person"),
    ...bots.map((bot) => el("option", { value: `bot:${bot}` }, `Bot: ${bot}`)));
  kind.value = index === 0 ? "human" : `bot:${bots.includes("heuristic") ? "heuristic" : bots[0]}`;
  const name = el("input", { type: "text", name: `name${index}`, placeholder: `Player ${index + 1}`, maxlength: 40, "aria-label": `P${index + 1}'s name` });
  const budget = el("input", { type: "number", name: `budget${index}`, min: 1, max: catalog.max_budget, placeholder: "iterations", class: "budget", title: `a search bot's iterations per move, at most ${catalog.max_budget}; empty: its default`, "aria-label": `P${index + 1}'s budget` });
  const update = () => { budget.disabled = !catalog.budget_bots.includes(kind.value.slice(4)); };
  kind.addEventListener("change", update);
  update();
  return el("div", { class: "seat-row" }, el("strong", {}, `P${index + 1}`), kind, name, budget);
}

function renderSeats() {
  const info = gameInfo();
  const players = Number(document.getElementById("players").value);
  const box = document.getElementById("seats");
  const previous = [...box.querySelectorAll(".seat-row")].map((row) => [...row.querySelectorAll("select,input")].map((x) => x.value));
  box.replaceChildren(...Array.from({ length: players }, (_, i) => seatRow(i, catalog.bots)));
  [...box.querySelectorAll(".seat-row")].forEach((row, i) => {
    if (!previous[i]) return;
    [...row.querySelectorAll("select,input")].forEach((x, j) => { x.value = previous[i][j]; x.dispatchEvent(new Event("change")); });
  });
  return info;
}

function optionInput(option) {
  const id = `opt-${option.name}`;
  let input;
  if (option.type === "bool") {
    input = el("input", { type: "checkbox", id, name: option.name });
    input.checked = option.default;
  } else if (option.type === "choice") {
    input = el("select", { id, name: option.name }, ...option.choices.map((c) => el("option", { value: c }, c)));
    input.value = option.default;
  } else if (option.type === "int") {
    input = el("input", { type: "number", id, name: option.name, min: option.min, max: option.max ?? undefined, value: option.default });
  } else {
    const shown = Array.isArray(option.default) ? option.default.join(",") : option.default ?? "";
    input = el("input", { type: "text", id, name: option.name, value: shown, placeholder: option.default === null ? "default" : "" });
  }
  input.dataset.type = option.type;
  // what it does, the rules it changes first ("CI-M.3: ..."), under its name
  // a list (the bar's 20 values) takes the column's whole width, under its name
  const wide = option.type === "ints" || option.type === "text";
  return el("div", { class: `option${option.type === "ints" ? " whole-row" : ""}` }, el("label", { for: id, title: option.description, class: wide ? "wide" : null }, el("span", {}, option.name.replaceAll("_", " ")), input),
    option.description ? el("small", { class: "muted" }, option.description) : null);
}

function renderOptions() {
  const info = gameInfo();
  document.getElementById("options").replaceChildren(...info.options.map(optionInput));
  document.getElementById("options-hint").textContent = HINTS[info.name] || "";
  const howTo = document.getElementById("how-to-play");  // in a new tab: the form stays filled in
  howTo.href = rulesPath(info.name);
  howTo.replaceChildren(`How to play ${info.title}`, el("span", { class: "visually-hidden" }, " (opens in a new tab)"));
  const players = document.getElementById("players");
  const kept = Number(players.value) || 2;
  players.replaceChildren(...Array.from({ length: info.max_players - info.min_players + 1 }, (_, i) => el("option", { value: info.min_players + i }, info.min_players + i)));
  players.value = Math.min(Math.max(kept, info.min_players), info.max_players);
  const setLabel = document.getElementById("card-set-label");
  setLabel.classList.toggle("hidden", info.name !== "souvlaki");
  document.getElementById("card-set").replaceChildren(el("option", { value: "" }, "built in"), ...info.card_sets.map((s) => el("option", { value: s }, s)));
  renderSeats();
}

function readOptions(info) {
  const options = {};
  for (const option of info.options) {
    const input = document.getElementById(`opt-${option.name}`);
    let value;
    if (option.type === "bool") value = input.checked;
    else if (option.type === "int") {
      if (input.value.trim() === "") continue;  // left empty: the default
      value = Number(input.value);
    }
    else if (option.type === "choice") value = input.value;
    else if (option.type === "ints") value = input.value.split(",").map((x) => x.trim()).filter(Boolean).map(Number);
    else value = input.value.trim() === "" ? null : input.value.split(",").map((x) => x.trim()).filter(Boolean);
    if (JSON.stringify(value) !== JSON.stringify(option.default)) options[option.name] = value;
  }
  return options;
}

function readSeats() {
  return [...document.querySelectorAll("#seats .seat-row")].map((row) => {
    const [kind, name, budget] = row.querySelectorAll("select,input");
    const seat = kind.value === "human" ? { kind: "human" } : { kind: "bot", bot: kind.value.slice(4) };
    if (name.value.trim()) seat.name = name.value.trim();
    if (seat.kind === "bot" && !budget.disabled && budget.value) seat.budget = Number(budget.value);  // a budget only for a bot that takes one
    return seat;
  });
}

const absolute = (path) => new URL(path, location.href).href;

function showCreated(created) {
  const box = document.getElementById("created");
  keepCreated(created);
  const links = created.links.map((link) => el("li", {},
    el("strong", {}, `P${link.seat + 1} ${isolated(link.name)}: `),
    seatLink(link, "join-link")));
  const heading = el("h3", { tabindex: "-1" }, "Game created");
  box.replaceChildren(
    heading,
    created.links.length ? el("p", {}, "Each link below is one seat's private key: open yours, send the others to your friends. This browser keeps them: the game's row in the lists offers them again until it ends.") : el("p", {}, "Only bots: watch them play."),
    el("ul", {}, links),
    el("p", {}, "Spectators: ", el("a", { href: created.spectator, id: "spectator-link" }, absolute(created.spectator))),
  );
  box.classList.remove("hidden");
  box.scrollIntoView({ block: "nearest" });  // on a phone it came below the screen
  // the button pressed waited, disabled, and a disabled button loses the focus: to what it made
  heading.focus({ preventScroll: true });
}

// A seat's link, to open here or to send, with its Copy button.
function seatLink(link, kind) {
  const address = absolute(link.path);
  return [el("a", { href: link.path, class: kind }, "open this seat"), " — send privately: ",
    el("code", {}, address), " ", copyButton(address, `P${link.seat + 1}'s link`)];
}

// A button that copies `text` (a seat's link, to send): a link selected by a long press on a
// phone is easily cut short. It says "Copied" once it has.
function copyButton(text, what) {
  const button = el("button", { type: "button", class: "quiet copy", "aria-label": `Copy ${what}` }, "Copy");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);  // (a page served over plain HTTP to another machine has no clipboard)
      button.textContent = "Copied";
    } catch {
      button.textContent = "Select and copy it";
    }
    setTimeout(() => { button.textContent = "Copy"; }, 2000);
  });
  return button;
}

// One game a click: until the server answers, the button waits, so that an impatient second
// click does not make a second game nobody will join.
async function submit(event) {
  event.preventDefault();
  const button = document.getElementById("create-button");
  if (button.disabled) return;
  button.disabled = true;
  try {
    await create();
  } finally {
    button.disabled = false;
    if (document.activeElement === document.body) button.focus();  // refused: the button again
  }
}

async function create() {
  const info = gameInfo();
  const errorBox = document.getElementById("create-error");
  errorBox.classList.add("hidden");
  const body = { game: info.name, seats: readSeats(), options: readOptions(info) };
  const cardSet = document.getElementById("card-set").value;
  if (info.name === "souvlaki" && cardSet) body.card_set = cardSet;
  try {
    showCreated(await api("/api/games", { method: "POST", body }));
    refreshLists();
  } catch (error) {
    errorBox.textContent = error.message;
    errorBox.classList.remove("hidden");
  }
}

function gameRow(game) {
  const seats = game.seats.map((s) => (s.kind === "bot" ? `${isolated(s.name)} (bot)` : isolated(s.name))).join(", ");
  // the seat this browser opened: a game over is seen from it too, which offers its rematch
  const seat = keptSeat(game.id);
  const abandoned = game.status === "abandoned";  // left by its player: seen where it stopped
  const underWay = !hasEnded(game);
  const actions = [seat && underWay ? el("a", { href: seat, class: "your-seat" }, "your seat")
    : el("a", { href: seat || `/game/${game.id}` }, game.status === "finished" ? "result" : abandoned ? "see it" : "watch")];
  if (!underWay) actions.push(" · ", el("a", { href: `/replay/${game.id}` }, "replay"));  // abandoned: as far as it went
  if (abandoned) actions.unshift(el("span", { class: "tag" }, "abandoned"), " · ");
  // when it began and how far it went, so that two games of the same seats can be told apart;
  // a game under way: when it was last moved in (an idle one may be days ago)
  const shown = !underWay ? ago(game.created) : game.last_move ? `last move ${ago(game.last_move)}` : `started ${ago(game.created)}`;
  const when = el("span", { title: `game ${game.id}, created ${game.created} UTC${game.last_move ? `, last move ${game.last_move} UTC` : ""}` }, shown);
  // the seat links this browser created it with, until it ends
  const made = underWay ? createdLinks(game.id) : null;
  if (!underWay) forgetCreated(game.id);
  // two lines a game, for the narrow column: what and where to go; who, how far and when
  return el("li", { "data-game": game.id }, el("div", {}, el("strong", {}, game.title), " · ", actions),
    el("div", { class: "muted" }, seats, " · ", plural(game.ply, "move"), " · ", when),
    made ? madeLinks(game, made) : null);
}

function keptSeat(gameId) {
  try { return localStorage.getItem(seatLinkKey(gameId)); } catch { return null; }
}

function createdLinks(gameId) {
  try { return JSON.parse(localStorage.getItem(createdLinksKey(gameId)) || "null"); } catch { return null; }
}

function forgetCreated(gameId) {
  try { localStorage.removeItem(createdLinksKey(gameId)); } catch { /* nothing kept */ }
}

const openLinks = new Set();  // the games whose links are unfolded: kept so as the lists refresh

function madeLinks(game, links) {
  const box = el("details", { class: "made-links", open: openLinks.has(game.id) },
    el("summary", {}, "Links you created"),
    el("ul", {}, links.map((link) => {
      const seat = game.seats[link.seat];
      const opened = seat && seat.joined ? " (opened)" : " (not opened yet)";
      return el("li", {}, el("strong", {}, `P${link.seat + 1} ${isolated(link.name)}`), el("span", { class: "muted" }, opened), ": ",
        seatLink(link, "made-link"));
    })));
  box.addEventListener("toggle", () => { if (box.open) openLinks.add(game.id); else openLinks.delete(game.id); });
  return box;
}

// "5 min ago" for a time the server gives in UTC without a zone
function ago(created) {
  const minutes = Math.max(0, Math.round((Date.now() - Date.parse(`${created}Z`)) / 60000));
  if (Number.isNaN(minutes)) return "";
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h ago`;
  return `${Math.round(minutes / 1440)} days ago`;
}

// The games under way apart from the idle ones (nobody has moved for an hour and no person is
// connected: the server says which), open or running, most recently moved in first
function lastActive(game) {
  return game.last_move || game.created;
}

// --- "Your games": the games not over in which this browser holds a seat ----------------------

// The ids of the games this browser keeps something of under `keyOf` (`seatLinkKey`...).
function keptGameIds(keyOf) {
  const prefix = keyOf("");
  const ids = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key.startsWith(prefix)) ids.push(key.slice(prefix.length));
    }
  } catch { /* private mode: nothing kept */ }
  return ids;
}

// Each game this browser holds a seat of, with that seat's link: the seat link it opened (the
// game page keeps it), else the link of a game it created with one person's seat only (against
// bots: that seat is this browser's). A game created with several people's links and none
// opened here is not listed: which seat is this browser's is not known (its row offers them).
function heldSeats() {
  const held = new Map();
  for (const id of keptGameIds(createdLinksKey)) {
    const links = createdLinks(id);
    if (Array.isArray(links) && links.length === 1) held.set(id, links[0].path);
  }
  for (const id of keptGameIds(seatLinkKey)) {
    const link = keptSeat(id);
    if (link) held.set(id, link);
  }
  return held;
}

const endedHere = new Set();  // held games seen over in this page: not asked about again
const unknownHere = new Set();  // held games this server does not know: not asked about again

// The server's summaries of the held games not known to be over. A game it does not know is
// left out of its answer and so of the list, but its kept links stay: they are the only copy
// of the seats' tokens, and a server at this address with another database (started from
// another folder, with another --db) is no reason to lose the games of the first.
async function heldGames(held) {
  const ids = [...held.keys()].filter((id) => !endedHere.has(id) && !unknownHere.has(id));
  const chunks = [];
  const most = catalog.max_ids;  // the server's limit on the ids of one listing
  for (let i = 0; i < ids.length; i += most) chunks.push(ids.slice(i, i + most));
  const answers = await Promise.all(chunks.map((chunk) => api(`/api/games?limit=${most}&${chunk.map((id) => `ids=${encodeURIComponent(id)}`).join("&")}`)));
  const known = answers.flat();
  const knownIds = new Set(known.map((game) => game.id));
  for (const id of ids) if (!knownIds.has(id)) unknownHere.add(id);
  for (const game of known) if (hasEnded(game)) endedHere.add(game.id);
  return known.filter((game) => !endedHere.has(game.id));
}

// Whose turn it is, as `seat` reads it
function turnText(game, seat) {
  if (game.to_move === null) return "";
  if (game.to_move === seat) return "your turn";
  const mover = game.seats[game.to_move];
  const waiting = mover && mover.kind === "human" && !mover.joined ? " (not opened yet)" : "";
  return `${seatName(game.seats, game.to_move)}'s turn${waiting}`;
}

function heldRow(game, link) {
  const seat = seatOfLink(link);
  const turn = turnText(game, seat);
  const yours = game.to_move !== null && game.to_move === seat;
  const when = game.last_move ? `last move ${ago(game.last_move)}` : `started ${ago(game.created)}`;
  return el("li", { class: yours ? "your-turn" : null, "data-game": game.id },
    el("div", {}, el("strong", {}, game.title), " · ", el("a", { href: link, class: "resume" }, "Resume"),
      turn ? [" · ", el("span", { class: "turn" }, turn)] : null),
    el("div", { class: "muted" }, `you are ${seatName(game.seats, seat)}`, " · ", plural(game.ply, "move"), " · ", when));
}

// Your turn first, then the most recently moved in
async function refreshYourGames() {
  const held = heldSeats();
  let games;
  try {
    games = held.size ? await heldGames(held) : [];
  } catch {
    return;  // the server is away: the list stays as it was, and is asked again in a moment
  }
  const mine = (game) => game.to_move !== null && game.to_move === seatOfLink(held.get(game.id));
  games.sort((a, b) => Number(mine(b)) - Number(mine(a)) || lastActive(b).localeCompare(lastActive(a)));
  document.getElementById("your-games").classList.toggle("hidden", !games.length);
  replaceKeepingFocus(document.getElementById("list-yours"), el("ul", { class: "games" }, games.map((game) => heldRow(game, held.get(game.id)))));
}

async function refreshLists() {
  refreshYourGames();
  const statuses = ["open", "running", "finished", "abandoned"];
  const [open, running, finished, abandoned] = await Promise.all(statuses.map((status) => api(`/api/games?status=${status}`)));
  const idle = open.concat(running).filter((game) => game.idle).sort((a, b) => lastActive(b).localeCompare(lastActive(a)));
  // the games that will not be played any more: over, or left before the end; newest first
  const ended = finished.concat(abandoned).sort((a, b) => b.created.localeCompare(a.created));
  const lists = { open: open.filter((game) => !game.idle), running: running.filter((game) => !game.idle), idle, ended };
  for (const [name, games] of Object.entries(lists)) {
    const box = document.getElementById(`list-${name}`);
    replaceKeepingFocus(box, games.length ? el("ul", { class: "games" }, games.slice(0, 30).map(gameRow)) : el("span", {}, "none"));
  }
}

async function start() {
  catalog = await api("/api/catalog");
  const select = document.getElementById("game");
  select.replaceChildren(...catalog.games.map((g) => el("option", { value: g.name }, g.title)));
  select.addEventListener("change", renderOptions);
  document.getElementById("players").addEventListener("change", renderSeats);
  document.getElementById("create-form").addEventListener("submit", submit);
  // the second click of a double click never submits: a local server can answer the first one
  // before it comes, when the waiting button above is enabled again
  document.getElementById("create-button").addEventListener("click", (event) => {
    if (event.detail > 1) event.preventDefault();
  });
  renderOptions();
  refreshLists();
  setInterval(refreshLists, 5000);
}

start();
