// Café International: the board drawn from the board data, the bar, the hands, and the moves.
// Choose a card of your hand: its legal chairs light up with the points each would score; click
// one to seat the guest there. The bar and the joker exchange work the same way.
import { OUT_MEANS, api, byKeyboard, el, fill, hasEnded, moveText, ownTurnStart, plural, seatName, setLive, sinceHead, withRules, youMark, yours } from "./common.js";

// each dark enough for white text on it at 4.5:1 (WCAG AA): a card's and a chair's text is small
const NATION_COLOURS = {
  africa: "#8a5a1c", britain: "#1f3a8a", china: "#c62828", cuba: "#00796b", france: "#1976d2",
  germany: "#424242", india: "#c24a00", italy: "#2e7d32", russia: "#6a1b9a", spain: "#8c6900",
  turkey: "#ad1457", usa: "#3949ab",
};
const GENDER = { f: "♀", m: "♂" };
const GENDER_WORD = { f: "lady", m: "man" };
let board = null;
let nationOf = {};
let selected = null;  // the guest chosen in the hand: { index, text } (two alike are two cards)
let refocus = null;  // where keyboard focus goes after the next drawing (`placeFocus`)

let boardFailure = null;  // why the board data could not be had, the last time it was asked for

let loading = null;  // the one request for the board data under way, which every drawing awaits
let drawings = 0;  // drawings asked for: one that waited for the data draws only if still the last

// The board data, asked for again at each drawing until it comes; asked once at a time, so that
// two drawings waiting for it (the page opening, then a move) are answered together
function loadBoard() {
  if (board) return Promise.resolve(board);
  loading ??= api("/api/cafe/board").then((data) => {
    for (const table of data.tables) nationOf[table.id.slice(0, 2)] = table.nation;
    board = data;
    boardFailure = null;
    return board;
  }, (error) => {
    boardFailure = `The board could not be drawn: its data did not load (${error.message}). The page asks for it again whenever it draws the game anew (after each move), and at once if you reload it.`;
    return null;
  }).finally(() => { loading = null; });
  return loading;
}

function card(text) {
  const joker = text.startsWith("J");
  const code = text.slice(0, -1);
  return { text, joker, code, gender: text.slice(-1), nation: joker ? null : nationOf[code] };
}

function colourStyle(info) {
  return info.joker ? "" : `background:${NATION_COLOURS[info.nation]}`;
}

const NATION_NAMES = { usa: "USA" };
function title(name) { return NATION_NAMES[name] || name.charAt(0).toUpperCase() + name.slice(1); }

function cardLabel(info) {
  if (info.joker) return `joker (${GENDER_WORD[info.gender]})`;
  return `${title(info.nation)} ${GENDER_WORD[info.gender]}`;
}

function cardFace(text, attrs = {}) {
  const info = card(text);
  return el(attrs.onclick ? "button" : "span", {
    role: attrs.onclick ? null : "img",  // a card not to press is read by its name, not "GB ♀"
    class: `card${info.joker ? " joker" : ""}${attrs.selected ? " selected" : ""}${attrs.hinted ? " hinted" : ""}`,
    style: colourStyle(info), title: cardLabel(info), "aria-label": cardLabel(info),
    "data-card": text, type: attrs.onclick ? "button" : null, onclick: attrs.onclick,
    "aria-pressed": attrs.onclick ? String(Boolean(attrs.selected)) : null,
  }, `${info.joker ? "★" : info.code} ${GENDER[info.gender]}`, el("small", {}, info.joker ? "joker" : title(info.nation)));
}

function movesFor(legal, cardText) {
  const place = new Map(), swap = new Map();
  let bar = null;
  for (const move of legal) {
    const n = move.notation;
    if (n === `${cardText}@bar`) bar = move;
    else if (n.startsWith(`${cardText}@`)) place.set(Number(n.slice(cardText.length + 1)), move);
    else if (n.startsWith(`swap ${cardText}@`)) swap.set(Number(n.slice(cardText.length + 6)), move);
  }
  return { place, swap, bar };
}

// A hinted placement's guest and where it goes: "ITf@53" -> ["ITf", "53"], "swap Jf@12" -> ["Jf", "12"],
// "ITf@bar" -> ["ITf", "bar"]; other moves (end, pass) point at nothing on the board.
function hintedPlace(notation) {
  const move = notation && notation.startsWith("swap ") ? notation.slice(5) : notation || "";
  const at = move.indexOf("@");
  return at > 0 ? [move.slice(0, at), move.slice(at + 1)] : [null, null];
}

// What the other players did since the viewer's last turn, from the viewer's log (the game's
// notation of each decision: Café is public): the chairs they seated, each with who seated it,
// and a line of words, "P2 seated France man at chair 5 and Turkey man at chair 3". Nothing
// for a spectator, in a replay, once the game is over, or for a player out of it (thrown out at
// the bar, CI-M.3: they have no turn to come, and the news would grow to the game's end); and
// never more than one round of the others' turns.
const PLACED = /^(swap )?(\w+?)@(\d+|bar)$/;

function sinceLastTurn(view) {
  const chairs = new Map();
  if (view.viewer === null || view.replay || view.over || view.observation.out?.[view.viewer]) return { chairs, line: null };
  const log = view.log;
  const end = view.your_turn ? ownTurnStart(log, view.viewer) : log.length;
  let start = end;
  const turns = new Set();  // the players whose turn (their entries one after another) is taken
  let current = null;
  while (start > 0 && log[start - 1].player !== view.viewer) {
    const player = log[start - 1].player;
    if (player !== null && player !== current) {
      if (turns.has(player)) break;  // an earlier turn of theirs: a round before
      turns.add(player);
      current = player;
    }
    start -= 1;
  }
  const said = [];  // [player, kind, words]: one seating after another of a player in one phrase
  for (const entry of log.slice(start, end)) {
    if (entry.player === null) continue;
    const who = seatName(view.seats, entry.player);
    const text = entry.text;
    const placed = PLACED.exec(text);
    let kind = null, words = null;
    // what it scored, as its event says ("...: +2 points"): read here, not summed from the scores
    const scored = (entry.events ?? []).map((event) => /: ([+-]\d+) points?\b/.exec(event)).find(Boolean);
    const points = scored ? ` (${scored[1]})` : "";
    const thrown = (entry.events ?? []).map((event) => /cannot pay its (-\d+) and is out of the game/.exec(event)).find(Boolean);
    if (placed && placed[3] === "bar" && thrown) {  // CI-M.3: the news of the turn
      [kind, words] = ["bar", `sent ${cardLabel(card(placed[2]))} to the bar, could not pay its ${thrown[1]} and is out of the game`];
    } else if (placed && placed[3] === "bar") [kind, words] = ["bar", `sent ${cardLabel(card(placed[2]))} to the bar${points}`];
    else if (placed) {
      const chair = Number(placed[3]);
      chairs.set(chair, `seated by ${who} since your last turn`);
      words = `${cardLabel(card(placed[2]))} at chair ${chair}${placed[1] ? " in place of its joker" : ""}${points}`;
      kind = "seat";
    } else if (text.startsWith("dance ")) {
      for (const [, chair] of text.matchAll(/@(\d+)/g)) chairs.set(Number(chair), `seated by ${who} since your last turn`);
      [kind, words] = ["dance", `filled table ${text.slice(6, text.indexOf(":"))} for a dance`];
    } else if (text === "pass") [kind, words] = ["pass", "passed"];
    else if (text.startsWith("birthday ")) {
      [kind, words] = ["birthday", text === "birthday none" ? "chose no birthday table" : `chose table ${text.slice(9)} as the birthday table`];
    }
    if (!kind) continue;  // ending a turn, drawing: nothing on the board
    const last = said[said.length - 1];
    if (kind === "seat" && last && last[0] === entry.player && last[1] === "seat") last[2] += ` and ${words}`;
    else said.push([entry.player, kind, kind === "seat" ? `seated ${words}` : words]);
  }
  const phrases = [];
  for (const [player, , words] of said) {
    const previous = phrases[phrases.length - 1];
    if (previous && previous[0] === player) previous[1] += `, then ${words}`;
    else phrases.push([player, words]);
  }
  const line = phrases.length ? `${sinceHead(log, view.viewer, end)}: ${phrases.map(([p, words]) => `${seatName(view.seats, p)} ${words}`).join("; ")}.` : null;
  return { chairs, line };
}

function signed(value) { return value > 0 ? `+${value}` : String(value); }

function drawBoard(obs, moves, ctx) {
  const just = new Set(obs.placed_this_turn.map(([, chair]) => chair));
  const since = ctx.since.chairs;
  const rove = ctx.interactive && selected && moves && (moves.place.size || moves.swap.size);
  const grid = el("div", {
    class: "cafe-board", role: "group", onkeydown: rove ? roveChairs : null,
    "aria-label": `the café: tables and chairs${rove ? "; the arrow keys go from lit chair to lit chair" : ""}`,
  });
  let lit = 0;  // lit chairs drawn so far
  const row = (y) => board.grid.height - y;
  for (const table of board.tables) {
    const birthday = obs.birthday_table === table.id;
    const said = `table ${table.id}: ${title(table.nation)}${birthday ? " (birthday table)" : ""}${obs.dance_tables.includes(table.id) ? " (dance)" : ""}`;
    grid.append(el("div", {
      class: `table-tile${birthday ? " birthday" : ""}`,
      style: `grid-column:${table.x + 1};grid-row:${row(table.y)};background:${NATION_COLOURS[table.nation]}`,
      title: said, role: "img", "aria-label": said,  // what the ring of a birthday table shows, said
    }, el("span", { class: "tid" }, table.id), el("span", { class: "nation" }, title(table.nation))));
  }
  for (const chair of board.chairs) {
    const guest = obs.chairs[chair.id - 1];
    const place = moves && moves.place.get(chair.id);
    const swap = moves && moves.swap.get(chair.id);
    const info = guest ? card(guest) : null;
    const classes = ["chair"];
    if (info) classes.push("guest");
    if (info && info.joker) classes.push("joker");
    if (place) classes.push("legal");
    if (swap) classes.push("swap");
    if (just.has(chair.id)) classes.push("just");
    else if (since.has(chair.id)) classes.push("since");
    if (ctx.hintAt[1] === String(chair.id)) classes.push("hinted");
    const move = place || swap;
    // a lit chair is named by its move, in the game's words; another by what is on it
    const label = move ? moveText(move)  // the game's words say the points it scores
      : `chair ${chair.id}${info ? `: ${cardLabel(info)}` : ", empty"}${since.has(chair.id) && !just.has(chair.id) ? ` (${since.get(chair.id)})` : ""}`;
    const chosen = selected;  // as drawn: what a click on this chair seats
    const clickable = ctx.interactive && chosen;
    // the lit chairs are one stop of the Tab order (the first of them), the arrow keys go from
    // one to the next (`roveChairs`); an unlit chair is out of it, but still answers a click
    const stop = clickable && move && !lit++;
    grid.append(el(clickable ? "button" : "div", {
      // a chair not to press is an image named by what is on it (its text alone, "IT♀", says little)
      class: classes.join(" "), type: clickable ? "button" : null, role: clickable ? null : "img",
      tabindex: clickable ? (stop ? 0 : -1) : null,
      style: `grid-column:${chair.x + 1};grid-row:${row(chair.y)};${info && !info.joker ? colourStyle(info) : ""}`,
      title: label, "aria-label": label, "data-chair": chair.id,
      // an unlit chair is sent too: the server's refusal says which rule forbids it
      onclick: clickable ? (event) => choose(ctx, move ? move.notation : `${chosen.text}@${chair.id}`, event) : null,
    },
    info ? `${info.joker ? "★" : info.code}${GENDER[info.gender]}` : el("span", { class: "num" }, chair.id),
    place ? el("span", { class: "gain" }, signed(place.gain)) : null,
    swap ? el("span", { class: "gain" }, "⇄") : null));
  }
  return grid;
}

// The arrow keys on a lit chair: to the nearest lit chair that way on the board (a roving
// tabindex: the chair gone to becomes the group's stop of the Tab order); Home and End: the
// first and the last. Enter or Space seats the guest there, as a click does.
const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

function roveChairs(event) {
  const grid = event.currentTarget;
  const from = event.target.closest(".chair.legal, .chair.swap");
  if (!from || event.altKey || event.ctrlKey || event.metaKey) return;
  const lit = [...grid.querySelectorAll(".chair.legal, .chair.swap")];
  let to = null;
  if (event.key === "Home") to = lit[0];
  else if (event.key === "End") to = lit[lit.length - 1];
  else if (ARROWS[event.key]) to = nearest(from, lit, ARROWS[event.key]);
  else return;
  event.preventDefault();  // an arrow key does not scroll the page while it moves the focus
  if (!to || to === from) return;
  for (const chair of lit) chair.tabIndex = chair === to ? 0 : -1;
  to.focus();
}

// The lit chair nearest to `from` in direction [dx, dy] (board units, y upwards): the least
// distance that way plus twice the distance across, so that a chair in line goes before one
// nearer but off to the side; none if no lit chair lies that way.
function nearest(from, lit, [dx, dy]) {
  const at = (chair) => board.chairs[Number(chair.dataset.chair) - 1];
  const start = at(from);
  let best = null, bestScore = Infinity;
  for (const chair of lit) {
    const place = at(chair);
    const along = (place.x - start.x) * dx + (place.y - start.y) * dy;
    const across = Math.abs((place.x - start.x) * dy - (place.y - start.y) * dx);
    const score = along + 2 * across;
    if (along > 0 && score < bestScore) [best, bestScore] = [chair, score];
  }
  return best;
}

// A move chosen on the board: sent, and the page (drawn again by the sender, its buttons
// waiting for the answer) has nothing chosen, so that after a refusal no chair or bar button is
// left standing for a guest no longer chosen. A move not sent (another under way) changes nothing.
function choose(ctx, notation, event) {
  const chosen = selected;
  selected = null;
  if (byKeyboard(event)) refocus = { target: "hand", ply: ctx.ply };  // once the move is made
  if (ctx.send(notation) !== false) return;
  selected = chosen;
  refocus = null;
}

// Where keyboard focus goes after the page is drawn again (a redraw loses it): to the lit
// chairs once a guest is chosen (or, when no chair nor the bar takes it, to its card still),
// to the card put back, and back to the hand once the move is made.
function placeFocus(root, ply, legal) {
  if (!refocus || (refocus.target === "hand" && refocus.ply === ply)) return;
  // after a first guest no second fits: the one move, ending the turn, rather than a card of
  // the hand that no chair takes
  const only = legal.length === 1 ? root.querySelector(`[data-action="${legal[0].notation}"]`) : null;
  if (refocus.target === "hand" && only) {
    refocus = null;
    only.focus();
    return;
  }
  const card = root.querySelectorAll(".hand button.card")[refocus.index ?? 0];
  const place = refocus.target === "board"
    ? root.querySelector(".chair.legal, .chair.swap, #to-bar-here, #to-bar:not([disabled])") : null;
  refocus = null;
  (place || card)?.focus();
}

// Escape puts a chosen guest back in the hand (the focus on its card); false when none was
// chosen (the page may then close something else).
let redraw = null;  // the last drawing, drawn again

export function escape() {
  if (!selected || !redraw) return false;
  refocus = { target: "card", index: selected.index };
  selected = null;
  redraw();
  return true;
}

function drawBar(obs, moves, ctx) {
  const seats = obs.bar_values.map((value, i) => {
    const guest = obs.bar[i];
    const info = guest ? card(guest) : null;
    const next = i === obs.bar.length;
    const hinted = next && ctx.hintAt[1] === "bar";
    const said = `bar seat ${i + 1} (${signed(value)})${info ? `: ${cardLabel(info)}` : next ? ": the next to take a guest" : ""}`;
    return el("div", {
      class: `bar-seat${info ? " guest" : ""}${next ? " next" : ""}${hinted ? " hinted" : ""}`, style: info ? colourStyle(info) : "",
      title: said, role: "img", "aria-label": said,
    }, el("span", { class: `val ${value < 0 ? "neg" : "pos"}` }, signed(value)), info ? `${info.joker ? "★" : info.code}${GENDER[info.gender]}` : "");
  });
  const parts = [el("h3", {}, "Bar"), el("div", { class: "bar" }, seats)];
  const chosen = selected;
  if (ctx.interactive && chosen) {
    const button = moves.bar ? barButton(ctx, chosen, moves.bar, "to-bar", "Send to the bar", "")
      : el("button", { type: "button", id: "to-bar", disabled: true }, "The bar is not open to this card");
    parts.push(el("div", { class: "row", style: "margin-top:.5rem" }, button));
  }
  return el("div", { class: "panel" }, parts);
}

// The moves not made on the board (end, pass, a dance, the birthday table, how many to draw):
// each a button in the game's words; a birthday table, one of many, by its name and nation
// ("US1 USA"), its guests in its title and label.
function otherMoves(legal, ctx) {
  const words = legal.filter((m) => !m.notation.includes("@") || m.notation.startsWith("dance"));
  if (!ctx.interactive) return null;
  // a turn's row of buttons keeps its place while empty: the board below it moved down a
  // chair's height as "End the turn" came, under a finger about to tap
  // (a hidden button: the height of a button wherever it is drawn, a phone's larger ones too)
  if (!words.length) return el("div", { class: "actions reserved", "aria-hidden": "true" }, el("button", { type: "button", tabindex: -1 }, "End"));
  const table = (m) => m.notation.startsWith("birthday ") && m.notation !== "birthday none";
  const tableName = (id) => `${id} ${title(nationOf[id.slice(0, 2)])}`;
  return el("div", { class: `actions${words.some(table) ? " tables" : ""}`, style: "margin:.5rem 0" }, words.map((m) => el("button", {
    type: "button", "data-action": m.notation, onclick: () => ctx.send(m.notation),
    title: table(m) ? moveText(m) : null, "aria-label": table(m) ? moveText(m) : null,
  }, table(m) ? tableName(m.notation.slice(9)) : moveText(m))));
}

function handRow(view, player, ctx) {
  const obs = view.observation;
  const mine = ctx.interactive && player === view.viewer;
  // no-break spaces: a figure never wraps away from its name on a phone
  const stats = `score\u00a0${obs.scores[player]} · hand\u00a0target\u00a0${obs.hand_targets[player]}${obs.out[player] ? " · out" : ""}`;
  // the hinted guest is one card: of two alike, the one chosen, or else the first
  const hand = obs.hands[player];
  const hinted = selected && hand[selected.index] === ctx.hintAt[0] ? selected.index : hand.indexOf(ctx.hintAt[0]);
  return el("div", {},
    // the figures after a dash; beside the board, on a line of their own (`.stats`)
    el("div", {}, el("strong", {}, seatName(view.seats, player)), youMark(view, player), el("span", { class: "muted stats" }, el("span", { class: "dash" }, " — "), stats)),
    el("div", { class: "hand", role: mine ? "group" : null, "aria-label": mine ? "your hand: choose a guest" : null },
      hand.map((text, index) => cardFace(text, mine ? {
        selected: selected?.index === index, hinted: index === hinted,
        onclick: (event) => {
          selected = selected?.index === index ? null : { index, text };
          if (byKeyboard(event)) refocus = { target: selected ? "board" : "card", index };
          ctx.rerender();
        },
      } : {}))));
}

function drawHands(view, ctx, players, heading) {
  if (!players.length) return null;
  return el("div", { class: "panel" }, el("h3", {}, heading), el("div", { class: "hands" }, players.map((p) => handRow(view, p, ctx))));
}

export async function render(root, view, ctx) {
  const drawing = ++drawings;
  const loaded = await loadBoard();
  // a drawing of a later position was asked for while this one waited: this one is stale (drawn
  // after it, it left a player at their turn on an older board, with no guest to choose)
  if (drawing !== drawings) return;
  if (!loaded) {  // said where the board goes; the banner still says whose turn it is
    fill(root, el("p", { class: "message error", id: "board-failure" }, boardFailure));
    return;
  }
  const obs = view.observation;
  if (!ctx.interactive || (selected && obs.hands[view.viewer]?.[selected.index] !== selected.text)) selected = null;
  // the hinted move's guest and place, worked out once for the hand, the chairs and the bar
  const since = sinceLastTurn(view);
  // drawn again through the page (`ctx.redraw`), which keeps a move awaiting its answer waiting
  const rerender = ctx.redraw ?? (() => render(root, view, ctx));
  const full = { ...ctx, rerender, hintAt: hintedPlace(ctx.hinted), ply: view.ply, since, legal: view.legal };
  const moves = selected ? movesFor(view.legal, selected.text) : null;
  const status = el("div", { class: "scoreline", style: "margin-bottom:.5rem" },
    el("span", { title: "a round is a turn of each player; moves count each decision, as the log does" }, `${whenText(obs)}${playedOut(view) ? "" : ` · move ${view.ply + 1}`}`), el("span", {}, `Bag: ${obs.bag_size} cards`),
    obs.bar_next_value !== null ? el("span", {}, `Next bar seat: ${signed(obs.bar_next_value)}`) : el("span", {}, "The bar is full"),
    obs.birthday_table ? el("span", { id: "birthday-table" }, `Birthday table: ${obs.birthday_table}`) : null,
    obs.phase === "birthday" ? el("span", { class: "phase" }, "Choose the birthday table") : obs.phase === "draw" ? el("span", { class: "phase" }, "Choose how many cards to draw") : null);
  // what to do now, said as it changes (one live region, kept from drawing to drawing)
  const hint = ctx.interactive ? instructionBox : null;
  setLive(instructionBox, instruction(obs, moves, full));
  const legend = el("p", { class: "muted", style: "font-size:.82rem" }, "♀ lady · ♂ man · ★ joker (striped) · tables are named by nation",
    since.chairs.size ? [" · ", el("span", { class: "key-since" }, "dashed ring"), ": seated by the others since your last turn"] : null);
  const players = obs.hands.map((_, p) => p);
  const own = view.viewer === null ? [] : [view.viewer];
  const others = players.filter((p) => p !== view.viewer);
  const news = since.line ? el("p", { class: "since-last", id: "since-last" }, since.line) : null;
  // what a player reads and does (the position's figures, their hand, what to do now and its
  // buttons) beside the board on a wide screen (`.cafe-layout`), above it on a narrow one; a
  // spectator, who has no hand, sees the figures above the board
  fillAround(side, hint, [status, drawHands(view, full, own, yours(view, "hand"))], [otherMoves(view.legal, full)]);
  root.classList.toggle("cafe-layout", own.length > 0 && Boolean(ctx.live));
  fillAround(root, side, [news], [el("div", { class: "cafe-main" }, drawBoard(obs, moves, full), legend, drawBar(obs, moves, full),
    drawHands(view, full, others, own.length ? "The other hands (open in this game)" : "Hands (open in this game)"))]);
  if (ctx.live) keepBoardFitted(root);
  // a choice of many buttons (the birthday's 24 tables) overflows the column: it is scrolled
  // to what to do now, its buttons under it, not left at the hand; once, as the choice comes
  // (a view drawn again meanwhile, someone connecting, leaves the column where the player put it)
  const choice = ["birthday", "draw"].includes(obs.phase) ? `${view.id}/${view.ply}` : null;
  if (choice && choice !== scrolledFor && side.scrollHeight > side.clientHeight) side.scrollTop = instructionBox.offsetTop - 4;
  scrolledFor = choice;
  redraw = ctx.interactive ? full.rerender : null;
  if (ctx.interactive) placeFocus(root, view.ply, view.legal);
}

const instructionBox = el("p", { class: "muted", id: "cafe-instruction", "aria-live": "polite" });
// kept from drawing to drawing too, as the live region inside it is
const side = el("div", { class: "cafe-side" });
let scrolledFor = null;  // the choice (game and ply) the column was scrolled to

// A game's board (and the column beside it) as tall as the window leaves below the board's
// top, whatever is above it (the news since your last turn, a hint): `--board-room`. The
// replay's board, under its analysis, keeps its size.
function fitBoard(root) {
  const grid = root.querySelector(".cafe-board");
  if (!grid) return;
  const top = Math.round(grid.getBoundingClientRect().top + window.scrollY);
  root.style.setProperty("--board-room", `calc(100vh - ${top}px - .75rem)`);
}
let fitted = null;  // a game page's board root, fitted again as the page above it changes
// (on the next frame: a size changed inside the observer's callback would be a loop it reports)
const refit = new ResizeObserver(() => requestAnimationFrame(() => { if (fitted) fitBoard(fitted); }));

// Fit `root`'s board now, and again whenever the page's size changes: a refusal shown or
// closed above the board, a hint's fold opened, the window resized.
function keepBoardFitted(root) {
  fitBoard(root);
  if (fitted === root) return;
  fitted = root;
  refit.observe(document.body);
}

// `root` filled with `before`, `keep` and `after`; `keep` left in place if it is there already
// (a live region taken out and put back would not be heard).
function fillAround(root, keep, before, after) {
  if (!keep || keep.parentNode !== root) { fill(root, ...before, keep, ...after); return; }
  for (const child of [...root.childNodes]) if (child !== keep) child.remove();
  const shown = (nodes) => nodes.flat().filter((node) => node !== null && node !== undefined && node !== false);
  keep.before(...shown(before));
  keep.after(...shown(after));
}

// What the player to move does now, in words, with the bar's button at hand when no chair
// takes the chosen guest (the bar itself is drawn below the board, far down on a phone).
function instruction(obs, moves, ctx) {
  if (obs.phase === "birthday") return withRules("You reached the birthday score: choose a table whose points count double from now on for everyone (CI-V.1), or none.", "birthday");
  if (obs.phase === "draw") return withRules("You completed a table of one nation: draw fewer cards and lower your hand target, or draw a full hand (CI-D.2).", "draw");
  if (!selected) return obs.phase === "second" ? secondInstruction(ctx.legal) : "Choose a guest from your hand.";
  const name = cardLabel(card(selected.text));
  const chosen = selected;
  if (moves.place.size || moves.swap.size) {
    const seat = `Seat your ${name}: a lit chair shows the points it scores; a dashed one takes the joker there in exchange.`;
    // beside the board (`.cafe-layout`) the bar is a scroll away: its button here too
    return moves.bar ? [seat, " ", barButton(ctx, chosen, moves.bar, "to-bar-also", "Or send it to the bar", "quiet bar-also")] : seat;
  }
  if (!moves.bar) return `No chair takes your ${name} now, nor the bar: choose another guest.`;
  return [`No chair takes your ${name} now. `, barButton(ctx, chosen, moves.bar, "to-bar-here", "Send it to the bar", "quiet"), " or choose another guest."];
}

// A button that sends the chosen guest to the bar: `words` and what the seat gives on it, its
// name beginning with them (then the move in the game's words), as speech input finds it.
function barButton(ctx, chosen, move, id, words, classes) {
  const shown = `${words} (${barGain(move)})`;
  return el("button", {
    type: "button", class: classes || null, id, title: moveText(move), "aria-label": `${shown}: ${moveText(move)}`,
    onclick: (event) => toBar(ctx, chosen, move, event),
  }, shown);
}

// A bar seat the mover cannot pay puts them out of the game (CI-M.3, the default ruling): the
// button says so, and the move is asked about first, as nothing else on the page warns of it.
function barGain(move) {
  return move.out ? "you cannot pay it: out of the game" : signed(move.gain);
}

function toBar(ctx, chosen, move, event) {
  if (move.out && !window.confirm(`${moveText(move)}.\n\n${OUT_MEANS} Send the guest to the bar all the same?`)) return;
  choose(ctx, `${chosen.text}@bar`, event);
}

// After the turn's first guest: a second, or the end, as the legal moves allow (the rules may
// leave only one: no second guest fits, or ending would leave a lone guest, CI-T.5)
export function secondInstruction(legal) {
  const mayEnd = legal.some((m) => m.notation === "end");
  const maySeat = legal.some((m) => m.notation !== "end");
  if (!maySeat) return "No second guest can be seated now: end the turn.";
  if (!mayEnd) return withRules("Choose a second guest: ending now would leave a table without an allowed group (CI-T.5).", "second");
  return "Choose a guest from your hand. You may seat a second guest, or end the turn.";
}

// What the others did since the viewer's last turn, in words (the banner says it on their turn);
// undefined while the board data, which names the guests, is not known yet; if it failed to
// load, that failure, for a screen reader, which is not told of what the board shows
export function news(view) {
  if (board) return sinceLastTurn(view).line;
  return boardFailure ?? undefined;
}

// How far the game is, as the terminal says it: the round (a turn of each player, a player's
// own count of their turns), or once a player is out (CI-M.3) the game's turns, every player's
// No move is to come: the game is over, or was abandoned (a replay: its last position).
function playedOut(view) {
  return view.replay ? view.over : hasEnded(view);
}

// Once the game is over (its phase, not a replay's last position: an abandoned game's count
// stands at the turn it was left in) its count has moved past the last turn played: the
// round the game ended in is told, not one never played.
export function whenText(obs) {
  const turn = obs.phase === "over" ? Math.max(0, obs.turn - 1) : obs.turn;
  if (obs.out.includes(true)) return `Turn ${turn + 1} of the game`;
  return `Round ${Math.floor(turn / obs.out.length) + 1}`;
}

// A line of the log as a screen reader should hear it (the page's own moves, said as they are
// made): each guest's code in words, as the board names it ("P1 seats Africa lady on chair 54",
// where "A F f" was read out); the line as it is while the board data is not known
export function spokenLine(text) {
  if (!board) return text;
  return text.replace(/\b([A-Z]{2}|J)([mf])\b/g, (code, nation) => (
    nation === "J" || nationOf[nation] ? cardLabel(card(code)) : code)).replaceAll("joker joker (", "joker (");
}

// Under the Moves heading: how the log writes a guest, which the board says in words
export const LOG_LEGEND = "Guests are written as their nation's letters and m (a man) or f (a lady): USm is a USA man, Jf a joker lady; @16 is chair 16, @bar the bar.";

// What the result box adds under the scores: who was thrown out at the bar (CI-M.3), and so
// could not win, whatever their score (a winner at -23 beside two at 0 read as a mistake)
export function resultNote(view) {
  const out = view.observation.out.flatMap((gone, player) => (gone ? [seatName(view.seats, player)] : []));
  if (!out.length) return null;
  const who = out.length > 1 ? `${out.slice(0, -1).join(", ")} and ${out[out.length - 1]} were` : `${out[0]} was`;
  return `${who} thrown out at the bar, and a player out cannot win (CI-M.3).`;
}

// The banner's words for a viewer thrown out at the bar (CI-M.3): they have no turn to come
export function viewerOut(view) {
  if (view.viewer === null || view.over || !view.observation.out?.[view.viewer]) return null;
  return "You are out of the game: you could not pay at the bar (CI-M.3). The others play on.";
}

export function endReason(obs, options) {
  // CI-E.1 and CI-M.5, in the order the rules give them; the options set the bag's limit.
  if (obs.bar.length >= obs.bar_values.length) return "The game ended because every bar seat is taken.";
  if (obs.chairs.every((c) => c !== null)) return "The game ended because every chair is taken.";
  if (obs.hand_targets.some((t, p) => t === 0 && obs.hands[p].length === 0)) return "The game ended because a player has no cards and need not draw.";
  if (obs.out.some(Boolean) && obs.out.filter((o) => !o).length <= 1) return "The game ended because only one player is left in it.";
  if (obs.bag_size <= options.end_bag) return `The game ended because the bag ran low (${obs.bag_size} cards left).`;
  return "The game ended because every player passed in turn (no legal move).";
}

// A seat's standing for the players panel, beside its name: its score now.
export function standing(obs, player) { return scoreText(obs, player, obs.scores[player]); }

// What a hand left at the end cost for (CI-E.2): "for 2 cards and 1 joker left in hand"
export function lossWords(obs, player) {
  const hand = obs.hands[player];
  const jokers = hand.filter((text) => card(text).joker).length;
  const held = [hand.length - jokers ? plural(hand.length - jokers, "card") : null, jokers ? plural(jokers, "joker") : null];
  return `for ${held.filter(Boolean).join(" and ")} left in hand`;
}

export function scoreText(obs, player, score) { return `${plural(score, "point")}${obs.out[player] ? " (out)" : ""}`; }
