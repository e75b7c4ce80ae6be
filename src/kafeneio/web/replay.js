// The replay viewer of a game over, or abandoned (as far as it went): step back and forth, or
// slide, with the log in step.
import { NO_GAME, api, el, gameIdFromPath, hasEnded, loadRules, percent, plural, renderLog, showLogLegend, seatName, showRulesLink, winnersText } from "./common.js";
import * as cafe from "./cafe.js";
import * as souvlaki from "./souvlaki.js";

const RENDERERS = { cafe, souvlaki };
const gameId = gameIdFromPath();
let game = null;
let ply = 0;
let wanted = 0;  // the position last asked for: a step counts from it, so that quick presses all count
let total = 0;
let request = 0;
let abandoned = false;  // left before its end: replayed as far as it went, with no result

async function show(target) {
  const next = Math.max(0, Math.min(total, target));
  wanted = next;
  const viewer = document.getElementById("viewer").value;
  const mine = ++request;
  let step;
  try {
    step = await api(`/api/games/${gameId}/replay?ply=${next}${viewer === "" ? "" : `&viewer=${viewer}`}`);
  } catch (error) {  // the position shown stays the one the page says it shows
    if (mine === request) { showError(error.message); wanted = ply; }
    return;
  }
  if (mine !== request) return;  // a newer step was asked for meanwhile
  showError("");
  ply = next;
  total = step.total;
  const slider = document.getElementById("slider");
  slider.max = total;
  slider.value = ply;
  // one count with the log, the analysis ("Move 4, P1 to move") and Café's "move 4": the
  // position shown is the one in which move ply + 1 is made ("Move 1 of 195 · 0 played" read
  // as a contradiction)
  const position = ply < total ? `Before move ${ply + 1} of ${total}`
    : abandoned ? (total ? `Abandoned after move ${total}, no result` : "Abandoned before any move, no result")
      : `All ${plural(total, "move")} played${outcome()}`;
  document.getElementById("position").textContent = position;
  keepClearOfTheBar();  // its text may take a line more or less
  slider.setAttribute("aria-valuetext", position);  // its value, ply, read as "move 2" was move 3
  // a button disabled under the keyboard's focus would drop it to the page's start: the focus
  // goes to the slider, which steps on with the arrow keys
  const focused = document.activeElement;
  for (const id of ["first", "back"]) document.getElementById(id).disabled = ply === 0;
  for (const id of ["forward", "last"]) document.getElementById(id).disabled = ply >= total;
  if (focused?.disabled) slider.focus();
  const obs = step.observation;
  const view = { ...game, observation: obs, legal: [], over: ply >= total, viewer: step.viewer, to_move: obs.to_move >= 0 ? obs.to_move : null, your_turn: false, replay: true, ply };
  // the move the analysis prefers to the one played here, outlined on the board (Café's chairs
  // and bar), as a hint is on the game page: "USm@23" found without reading chair numbers
  const preferred = preferredHere();
  const drawn = RENDERERS[game.game].render(document.getElementById("board"), view, { send: () => {}, interactive: false, hinted: preferred });
  renderLog(document.getElementById("log"), step.log, game.seats);
  showLogLegend(RENDERERS[game.game].LOG_LEGEND);
  renderNow();
  // Café's board may wait for its data: once drawn, the line says whether the move is outlined
  Promise.resolve(drawn).then(() => { if (mine === request) renderNow(); });
  // each seat's standing at this position, as the game page's panel has it
  const standing = (seat) => el("span", { class: "standing" }, RENDERERS[game.game].standing(obs, seat));
  document.getElementById("seats").replaceChildren(...game.seats.map((s) => el("div", { class: `seat${s.seat === view.to_move ? " to-move" : ""}` },
    seatName(game.seats, s.seat), el("span", { class: "muted" }, s.kind === "bot" ? `bot ${s.bot}` : "person"), standing(s.seat))));
}

// Who won, said beside the last position: " · P2 wins".
function outcome() {
  const winners = game?.result?.winners;
  return winners ? ` · ${winnersText(game.seats, winners)}` : "";
}

// The steps' bar stays at the top of the screen (sticky): what is scrolled to, or focused, is
// put below it, not under it (a mistake's line went under its 170 px on a phone).
function keepClearOfTheBar() {
  const bar = document.getElementById("replay-bar");
  // on a short screen it scrolls with the page (style.css): nothing to keep clear of, and 191
  // px kept of 200 left what was focused 9 px to be seen
  const held = getComputedStyle(bar).position === "sticky";
  document.documentElement.style.scrollPaddingTop = held ? `${bar.offsetHeight + 8}px` : "0px";
}
window.addEventListener("resize", keepClearOfTheBar);

async function start() {
  try {
    game = await api(`/api/games/${gameId}`);
    await loadRules(game.game);  // the rules the log cites
    showRulesLink(game.game);
    abandoned = game.status === "abandoned";
    document.getElementById("game-title").textContent = `Replay · ${game.title}${abandoned ? ` · abandoned after move ${game.ply}, no result` : ""}`;
    document.title = `Replay · ${game.title} · kafeneio`;  // replays in several tabs told apart
    if (!hasEnded(game)) {  // a replay and its analysis are for games played no more
      document.getElementById("analyse").classList.add("hidden");
      for (const id of ["first", "back", "forward", "last", "slider"]) document.getElementById(id).disabled = true;
      document.getElementById("analysis-panel").classList.add("hidden");  // nothing it could do
      document.getElementById("viewer").disabled = true;
      const box = document.getElementById("message");
      box.replaceChildren("This game is not over yet: ", el("a", { href: `/game/${encodeURIComponent(gameId)}`, id: "watch-link" }, "watch it"), ", and replay it once it ends.");
      box.classList.remove("hidden");
      return;
    }
    const viewer = document.getElementById("viewer");
    viewer.replaceChildren(el("option", { value: "" }, "the table"), ...game.seats.map((s) => el("option", { value: s.seat }, seatName(game.seats, s.seat))));
    viewer.addEventListener("change", () => show(ply));
    document.getElementById("first").addEventListener("click", () => show(0));
    document.getElementById("back").addEventListener("click", () => show(wanted - 1));
    document.getElementById("forward").addEventListener("click", () => show(wanted + 1));
    document.getElementById("last").addEventListener("click", () => show(total));
    document.getElementById("slider").addEventListener("input", (e) => show(Number(e.target.value)));
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
      if (e.altKey || e.ctrlKey || e.metaKey) return;  // Alt+ArrowLeft is the browser's Back
      const to = { ArrowLeft: wanted - 1, ArrowRight: wanted + 1, Home: 0, End: total }[e.key];
      if (to === undefined) return;
      e.preventDefault();  // a step, not a scroll of the page (End went 1,000 px down)
      show(to);
    });
    total = game.ply;
    if (total === 0) {  // abandoned before any move: nothing to analyse
      document.getElementById("analyse").classList.add("hidden");
      document.getElementById("analysis-status").textContent = "Nobody moved before the game was abandoned: there is nothing to analyse.";
    }
    document.getElementById("analyse").addEventListener("click", () => follow("POST"));
    await show(0);
    await follow("GET");  // an analysis asked for before is shown at once
  } catch (error) {
    // no game to replay: no controls either, none of which would do anything
    if (!game) for (const id of ["replay-bar", "analysis-panel"]) document.getElementById(id).classList.add("hidden");
    showError(error.code === "no-game" ? NO_GAME : error.message);
  }
}

// --- the analysis: asked of the server once, followed until done, then drawn ------------------
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];
// each player's line drawn its own way too (solid, dashed, dotted, dash-dot): told apart
// without telling the colours apart (red and green, to many)
const DASHES = ["none", "7 4", "2 3", "9 3 2 3"];
let analysis = null;

async function follow(method) {
  const button = document.getElementById("analyse");
  const status = document.getElementById("analysis-status");
  try {
    let state = await api(`/api/games/${gameId}/analysis`, { method });
    if (state.status === "none") return;
    if (document.activeElement === button) status.focus();  // the button waits: the focus is told how far it is
    if (!button.disabled) said("Analysing the game…");  // once, not at each of its counts
    button.disabled = true;
    while (state.status === "running") {
      status.textContent = `Analysing… ${state.done} of ${state.total} decisions`;
      await new Promise((resolve) => setTimeout(resolve, 500));
      state = await analysisState(status);
    }
    if (state.status === "failed") throw new Error(`The analysis failed: ${state.message}. Try again?`);
    if (state.status !== "done") throw new Error("The analysis stopped (the server restarted). Try again?");
    analysis = state.analysis;
    const keyed = document.activeElement === button || document.activeElement === status;
    renderAnalysis();
    if (preferredHere()) show(ply);  // the board drawn again with the preferred move outlined
    button.classList.add("hidden");
    if (keyed) document.getElementById("chance-chart")?.focus();  // not dropped to the page's start
    if (method === "POST") said("The analysis is done: each player's chance to win and biggest mistakes are below.");
    status.textContent = "Each player's chance to win as they saw it at each of their decisions (by the search bot, from their own view). Click the chart (or step on it with the arrow keys) or a mistake to go to that position.";
  } catch (error) {
    analysis = null;
    button.disabled = false;
    status.textContent = error.message;
  }
}

// Said to a screen reader (a live region apart from the status, whose count changes twice a
// second): the analysis begun, and done.
function said(words) {
  document.getElementById("analysis-said").textContent = words;
}

// The analysis's state, asked again while the server does not answer (a restart): once back,
// it says whether the analysis went on or stopped.
async function analysisState(status) {
  for (;;) {
    try {
      return await api(`/api/games/${gameId}/analysis`);
    } catch (error) {
      if (error.code !== "offline") throw error;
      status.textContent = "The server is not answering: waiting for it to come back…";
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

function showError(text) {
  const box = document.getElementById("message");
  box.textContent = text;
  box.classList.toggle("hidden", !text);
}

function renderAnalysis() {
  const players = game.seats.length;
  const legend = el("div", { class: "legend" }, game.seats.map((s) => el("span", {},
    swatch(s.seat), seatName(game.seats, s.seat))));
  const lost = el("div", { class: "mistakes" }, game.seats.map((s) => {
    const worst = analysis.mistakes[s.seat];
    // a sum over many moves can pass 100%: the mean a move reads as a chance does; a forced
    // move (one legal move) loses nothing and is left out, as `kafeneio analyse` leaves it
    // (worked out here: an analysis stored before then took the mean over every move)
    const choices = analysis.decisions.filter((d) => d.player === s.seat && d.legal > 1);
    const mean = choices.length ? choices.reduce((sum, d) => sum + d.lost, 0) / choices.length : 0;
    return el("div", {}, el("strong", {}, seatName(game.seats, s.seat)),
      ` lost ${(100 * mean).toFixed(1)}% of win chance a move on average, over `,
      `${plural(choices.length, "move")} with a choice; `,
      worst.length ? ["biggest clear mistakes: ", worst.map((d) => el("button", {
        type: "button", class: "quiet mistake", "data-ply": d.ply, onclick: () => goTo(d.ply),
        title: `played ${d.played}; the bot prefers ${d.best}`,
      }, `move ${d.ply + 1}: ${wordsOf(d)} (−${percent(d.lost)})`))] : noClearMistake(s.seat));
  }));
  const focused = document.activeElement?.id === "chance-chart";  // drawn anew to a new width
  document.getElementById("analysis").replaceChildren(chart(players), legend, lost);
  if (focused) document.getElementById("chance-chart").focus();
  renderNow();
}

// A player without a clear mistake (a loss beyond its margin): still, the moves that cost them
// most, each with its margin, said to be within it (they may be the search's noise).
const COSTLIEST = 2;

function noClearMistake(player) {
  const costly = analysis.decisions.filter((d) => d.player === player && d.lost > 0)
    .sort((a, b) => b.lost - a.lost || a.ply - b.ply).slice(0, COSTLIEST);
  if (!costly.length) return "no clear mistake: the bot prefers none of their moves to the one played.";
  return ["no clear mistake. ", costly.length > 1 ? "Their costliest moves" : "Their costliest move",
    ", within the analysis's margin: ", costly.map((d) => el("button", {
      type: "button", class: "quiet mistake within", "data-ply": d.ply, onclick: () => goTo(d.ply),
      title: `played ${d.played}; the bot prefers ${d.best}, but the loss is within the search's margin: it may be noise`,
    }, `move ${d.ply + 1}: ${wordsOf(d)} (−${percent(d.lost)} ± ${percent(Math.min(d.margin, 1))})`))];
}

const SVG = "http://www.w3.org/2000/svg";

// A player's line in the legend, drawn as in the chart (the name beside it says whose)
function swatch(player) {
  const root = svg("svg", { class: "swatch-line", width: 28, height: 6, "aria-hidden": "true" });
  root.append(svg("line", { x1: 0, x2: 28, y1: 3, y2: 3, stroke: COLOURS[player], "stroke-width": 2, "stroke-dasharray": DASHES[player] }));
  return root;
}
function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

// The chart's frame in its own units, one a CSS pixel, so that its labels keep their size on a
// phone: the plot runs from LEFT to width - RIGHT, TOP to HEIGHT - BOTTOM, and is drawn again
// to the new width when the page's width changes.
const [HEIGHT, LEFT, RIGHT, TOP, BOTTOM, MIN_WIDTH] = [200, 34, 8, 8, 20, 240];
let width = 1000;
const xOf = (at) => LEFT + (width - LEFT - RIGHT) * (total ? at / total : 0);
const widthFor = () => Math.max(MIN_WIDTH, document.getElementById("analysis").clientWidth);
window.addEventListener("resize", () => { if (analysis && widthFor() !== width) renderAnalysis(); });

function chart(players) {
  width = widthFor();
  const x = xOf;
  const y = (chance) => TOP + (HEIGHT - TOP - BOTTOM) * (1 - chance);
  // a slider of the moves as well as a picture: clicked, or focused and stepped with the arrow
  // keys (the page's own, which step the replay unless an input or a select has the focus)
  const root = svg("svg", {
    viewBox: `0 0 ${width} ${HEIGHT}`, class: "chance-chart", id: "chance-chart", tabindex: 0, role: "slider",
    "aria-label": "each player's chance to win over the game, by move", "aria-valuemin": 0, "aria-valuemax": total,
  });
  for (const chance of [0, 0.25, 0.5, 0.75, 1]) {
    root.append(svg("line", { class: "grid", x1: LEFT, x2: width - RIGHT, y1: y(chance), y2: y(chance) }));
    const label = svg("text", { class: "axis", x: 2, y: y(chance) + 4, "aria-hidden": "true" });  // the slider says its own value
    label.textContent = percent(chance);
    root.append(label);
  }
  const { winners } = analysis;
  for (let player = 0; player < players; player += 1) {
    // a step at each of the player's decisions, ending at the result
    const points = [];
    let last = null;
    for (const d of analysis.decisions.filter((entry) => entry.player === player)) {
      if (last !== null) points.push([x(d.ply), y(last)]);
      points.push([x(d.ply), y(d.before)]);
      last = d.before;
    }
    if (last !== null) points.push([x(total), y(last)]);
    // to the result, in a game played to its end (an abandoned one has none)
    if (last !== null && analysis.finished !== false) points.push([x(total), y(winners.includes(player) ? 1 / winners.length : 0)]);
    root.append(svg("polyline", { points: points.map((p) => p.join(",")).join(" "), stroke: COLOURS[player], "stroke-dasharray": DASHES[player], "data-player": player }));
  }
  root.append(svg("line", { class: "now", id: "chart-now", x1: x(ply), x2: x(ply), y1: TOP, y2: HEIGHT - BOTTOM }));
  root.addEventListener("keydown", (event) => {  // up and down too, as on the slider
    const step = { ArrowUp: 1, ArrowDown: -1 }[event.key];
    if (!step) return;
    event.preventDefault();  // a step, not a scroll of the page
    show(wanted + step);
  });
  root.addEventListener("click", (event) => {
    const box = root.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width * width - LEFT) / (width - LEFT - RIGHT);
    goTo(Math.round(Math.max(0, Math.min(1, at)) * total));
  });
  return root;
}

// A position picked from the analysis: shown, and its line and the board brought into sight
// when the board is below the screen (on a phone the chart and the mistakes fill it).
async function goTo(target) {
  await show(target);
  const board = document.getElementById("board").getBoundingClientRect();
  if (board.top > window.innerHeight * 0.6) document.getElementById("analysis-now").scrollIntoView({ block: "start", behavior: smooth() });
}

// A scroll glides unless the reader asked their system for less motion (prefers-reduced-motion).
function smooth() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
}

// The move the analysis prefers at the position shown, when it is not the one played.
function preferredHere() {
  const d = analysis?.decisions.find((entry) => entry.ply === ply);
  return d && d.best !== d.played ? d.best : null;
}

function renderNow() {
  const line = document.getElementById("analysis-now");
  if (!analysis) return;
  const marker = document.getElementById("chart-now");
  if (marker) {
    marker.setAttribute("x1", xOf(ply));
    marker.setAttribute("x2", xOf(ply));
  }
  const chart = document.getElementById("chance-chart");  // as a slider: where it stands, in words
  chart.setAttribute("aria-valuenow", ply);
  chart.setAttribute("aria-valuetext", document.getElementById("position").textContent);
  const d = analysis.decisions.find((entry) => entry.ply === ply);
  if (!d) { line.textContent = ply < total ? "Chance decides here." : abandoned ? "The game was abandoned here: no result." : "The game is over."; return; }
  const who = seatName(game.seats, d.player);
  const verdict = d.legal === 1 ? "the only legal move."
    : d.best === d.played ? "the move the bot prefers."
      : [`${d.lost > d.margin ? "a clear mistake" : `not clearly worse: within the search's margin of ±${percent(Math.min(d.margin, 1))}`}. The bot prefers `, named(d.best, d.best_words), `: ${percent(d.after + d.lost)}${outlined()}.`];
  line.replaceChildren(...[el("strong", {}, `Move ${d.ply + 1}, ${who} to move`), `: chance to win ${percent(d.before)}. Played `,
    named(d.played, d.played_words), `: ${percent(d.after)}, `, verdict].flat(Infinity));
}

// Where the board outlines the preferred move (Café's chair or bar seat, Souvlaki's customer or
// food card), said after it.
function outlined() {
  return document.querySelector("#board .hinted") ? " (outlined on the board, dotted)" : "";
}

// A move as typed, then in words (an analysis stored before moves had words has notation only).
function named(notation, words) {
  return [el("code", { class: "notation" }, notation), words && words !== notation ? ` (${words})` : ""];
}

function wordsOf(d) {
  return d.played_words || d.played;
}

start();
