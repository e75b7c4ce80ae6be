// A game page: one websocket to the server, which sends this viewer's view after every change.
// The page never decides anything: it shows the view and sends the chosen action with the ply
// it last saw; a refused action comes back with the server's reason.
import { NO_GAME, OFFLINE, OUT_MEANS, api, byKeyboard, download, el, endOfGame, gameIdFromPath, hasEnded, keepCreated, linkParams, loadRules, moveText, percent, plural, renderLog, showLogLegend, RULE_ID, seatLinkKey, seatName, seatOfLink, setLive, showRulesLink, winnersText, withRules } from "./common.js";
import * as cafe from "./cafe.js";
import * as souvlaki from "./souvlaki.js";

const RENDERERS = { cafe, souvlaki };
const gameId = gameIdFromPath();
const { token } = linkParams();
let view = null;
let socket = null;
let retry = 500;
let hint = null;  // the hint shown: { ply, data } (a hint is for one decision)
let asking = false;
let hintRecalled = false;  // the server was asked for a hint given before this page was opened
let rulesFor = null;  // the game whose rules reference is loaded
let askingRematch = false;  // this page has asked for a rematch and awaits the answer
let ownRematch = null;  // the rematch this page created (its news may come after the answer)
let noGame = false;  // the server knows no game of this id: the banner says so, once
let confirmingLeave = false;  // "Abandon this game…" was pressed: the page asks once more

// One move at a time: once the page sends a move it sends no other until the server answers
// (its next view or a refusal), and its move buttons wait, disabled (a second click of a double
// click would otherwise be a second move). A click that lands as a new position is drawn is not
// a move either: the board changed under the pointer (the card played gone, the next one slid
// into its place), so a click a moment after a new view, or the second click of a double click,
// is not taken as a decision about the new position. A key pressed on a button is (`keyed`).
let pending = null;  // the move sent and not answered yet: { ply }
let settled = 0;  // until this time (performance.now) a click is not taken as a move
const SETTLE_MS = 400;

let messages = 0;  // each message's rule ids open apart from another's
let offline = false;  // a message says the server is away: cleared when the socket is back

// The message above the board (it stays in sight as the page scrolls), with a button that
// closes it: on a phone it covers part of the board.
function showMessage(text, kind = "error") {
  setMessage(text ? withRules(text, `message ${++messages}`).flat(Infinity) : [], kind);
}

function setMessage(children, kind) {
  const box = document.getElementById("message");
  notice = null;  // a refusal's notice is said again by `refused`
  box.className = `message ${kind}`;
  box.classList.toggle("hidden", !children.length);
  if (!children.length) { box.replaceChildren(); return; }
  box.replaceChildren(el("div", { class: "message-text" }, children), el("button", {
    type: "button", class: "close", "aria-label": "Close this message", title: "Close",
    onclick: () => setMessage([], kind),
  }, "×"));
}

// A refusal of this page's move or hint: said until the game moves on from the position it
// was about (a stale one: from the position the server sends with it), then it goes away.
let notice = null;  // { ply } of the position the message is about (undefined: the next one)

function refused(text, code) {
  showMessage(text);
  notice = { ply: code === "stale" ? undefined : view?.ply };
}

// Whether the click being handled was made with the keyboard (Enter or Space on a button: no
// pointer, no click count): the board changing under the pointer does not concern it, so it is
// a move even in the moment after a new position is drawn.
let keyed = false;
document.addEventListener("click", (event) => { keyed = byKeyboard(event); }, true);

// Send a move; false when it is not sent (another is under way, the position is just drawn and
// the click was the pointer's, or the server is away): the renderer then leaves its page as it was.
function send(action) {
  if (!view || pending || (performance.now() < settled && !keyed)) return false;
  if (!socket || socket.readyState !== WebSocket.OPEN) {  // said, not dropped without a word
    showMessage(`Not sent: ${OFFLINE}`);
    offline = true;
    return false;
  }
  showMessage("");
  socket.send(JSON.stringify({ type: "action", ply: view.ply, action }));
  pending = { ply: view.ply };
  keepPlayedSeat();
  render();  // the move buttons wait for the answer
  return true;
}

// The second click of a double click makes no move (nor chooses a guest): only the first does.
for (const id of ["board", "hint"]) {
  document.getElementById(id).addEventListener("click", (event) => {
    if (event.detail > 1 && event.target.closest("button")) {
      event.stopPropagation();
      event.preventDefault();
    }
  }, true);
}

function connect() {
  const protocol = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${protocol}//${location.host}/ws/games/${encodeURIComponent(gameId)}`);
  socket.addEventListener("open", () => {
    retry = 500;
    document.getElementById("connection").textContent = "";
    if (offline) showMessage("");  // back: a message about being away is stale now
    offline = false;
    socket.send(JSON.stringify({ type: "hello", token }));
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    pending = null;  // a move sent may or may not have been made: the view on reconnecting says
    if (event.code === 4403) {  // refused for good: a wrong link
      if (!view && !noGame) document.getElementById("banner").textContent = "This link does not open a seat of this game.";
      return;
    }
    document.getElementById("connection").textContent = "· reconnecting…";
    if (view && !view.over) document.getElementById("banner").textContent = "The connection to the server was lost: reconnecting…";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

function receive(message) {
  if (message.type === "state") {
    // The websocket sends the log entries this page has not had yet, from ply log_from.
    const known = view && view.id === message.id ? view.log : [];
    if (message.log_from > known.length) { socket.close(); return; }  // a gap: reconnect, resync
    if (view && view.ply !== message.ply) {  // a new position: clicks are moves in a moment
      settled = performance.now() + SETTLE_MS;
      setTimeout(showBusy, SETTLE_MS + 1);
    }
    if (pending && pending.ply !== message.ply) pending = null;  // the move was made (by whoever)
    if (notice && notice.ply === undefined) notice.ply = message.ply;
    else if (notice && notice.ply !== message.ply) showMessage("");  // the game moved on
    const first = !view;
    view = { ...message, log: known.slice(0, message.log_from).concat(message.log) };
    if (token && view.viewer !== null) keepOpenedSeat();  // the server took this link
    if (first && !token) offerOwnSeat();
    if (rulesFor !== view.game) {  // the rules the log cites, once: drawn again when they come
      rulesFor = view.game;
      showRulesLink(view.game);
      loadRules(view.game).then(render);
    }
    render();
    recallHint();
  } else if (message.type === "error" && !view && message.error === "no-game") {
    document.getElementById("banner").textContent = NO_GAME;
    noGame = true;
  } else if (message.type === "error") {
    pending = null;  // refused: the page may send another move
    refused(message.message, message.error);
    if (view) render();
  } else if (message.type === "rematch") {  // this person's seat there (everyone moves one on)
    const path = message.token ? `/game/${message.game}#seat=${message.seat}&token=${message.token}` : `/game/${message.game}`;
    if (message.token) keepRematch(path);
    if (view) {  // asked by another: the result offers the rematch now, not to ask for one
      view.rematch = message.game;
      renderResult(RENDERERS[view.game]);
    }
    if (askingRematch || message.game === ownRematch) return;  // this page asked: its answer says more
    setMessage(["A rematch is ready: ", el("a", { href: path, id: "rematch-link" }, message.token ? "play it" : "watch it")], "info");
  }
}

function render() {
  const renderer = RENDERERS[view.game];
  const yours = view.your_turn;
  Object.assign(document.body.dataset, { ply: view.ply, yourTurn: yours, over: view.over });
  document.title = `${yours ? "▶ Your turn · " : ""}${view.title} · kafeneio`;
  document.getElementById("game-title").textContent = `${view.title} · ${view.viewer === null ? "watching" : `you are ${seatName(view.seats, view.viewer)}`}`;
  renderBanner();
  renderSeats(renderer);
  renderLeave();
  renderHint();
  renderLog(document.getElementById("log"), view.log, view.seats);
  showLogLegend(RENDERERS[view.game].LOG_LEGEND);
  sayOwnMoves();
  renderResult(renderer);
  drawBoard();
}

// What the viewer's own moves did, said to a screen reader once made (the board changes
// silently, and the banner says "Your turn." still while the turn goes on): the game's words
// of each, from the log. What was made before the page opened is not said.
let saidUpTo = null;  // the last ply of the log already said (or there when the page opened)
const CITED = new RegExp(` \\(${RULE_ID.source}\\)`, "g");  // a rule id cited in words

function sayOwnMoves() {
  const last = view.log.length ? view.log[view.log.length - 1].ply : -1;
  if (saidUpTo === null || view.viewer === null) { saidUpTo = last; return; }
  const own = view.log.filter((entry) => entry.ply > saidUpTo && entry.player === view.viewer);
  saidUpTo = Math.max(saidUpTo, last);
  if (!own.length) return;
  // in words where the game can say its codes so (Café's guests: "Africa lady", not "A F f")
  const spoken = RENDERERS[view.game].spokenLine ?? ((text) => text);
  const words = own.map((entry) => spoken(entry.events?.length ? entry.events.join(" ") : entry.text));
  // said without the rule ids the log cites ("(SW-4.7)", read out letter by letter each time)
  setLive(document.getElementById("said"), words.join(" ").replaceAll(CITED, ""));
}

// The board, drawn by the game's renderer; drawn again by the renderer itself through `redraw`
// (Café: a guest chosen or put back), so that a move awaiting its answer keeps its buttons waiting.
function drawBoard() {
  const renderer = RENDERERS[view.game];
  const yours = view.your_turn;
  // the hinted move, for a renderer that can point at it on the board (Café: its guest and chair)
  const hinted = hint && hint.ply === view.ply && yours ? hint.data.best : null;
  const board = document.getElementById("board");
  // a button that makes the hinted move is outlined too (Souvlaki's are all buttons; Café's end)
  return Promise.resolve(renderer.render(board, view, { send, interactive: yours, hinted, redraw: drawBoard, live: true })).then(() => {
    for (const button of board.querySelectorAll("[data-action]")) button.classList.toggle("hinted", button.dataset.action === hinted);
    waitForAnswer(board);
    keepBoardFocus(board);
    renderBanner();  // news that waited for the board's data (the same words: not said again)
  });
}

// Keyboard focus on the board survives its drawing anew (each move, each of the others' moves,
// a friend connecting): a redraw replaces the focused button, and the focus fell back to the
// page's start, so that a keyboard or screen-reader player lost their place at every move.
// Drawn again in the same position, it goes back to the same button; once a move was made, to
// the board itself (or the part of it the game names, `focusHome`), from where Tab goes on to
// its buttons: not to a button, where a key pressed twice, or held, would make a second move
// ("send 1" again sends the next customer away). A game's renderer that places the focus
// itself (Café's chosen guest) keeps its choice.
let boardFocus = null;  // { action, ply }: the board's element the player focused last, when
let placedAt = null;  // where `keepBoardFocus` put the focus for want of that element (it waited
// disabled for the server's answer): not the player's own choice, which stays remembered, so
// that a move refused puts the focus back on its button (it stayed on the board's hand, 33 Tabs
// away from the "Serve" pressed to be told why not)
document.addEventListener("focusin", (event) => {
  if (event.target === placedAt) return;
  placedAt = null;
  const inside = document.getElementById("board").contains(event.target);
  boardFocus = inside ? { action: event.target.dataset?.action, ply: view?.ply } : null;
});
document.addEventListener("pointerdown", (event) => {  // a click on nothing focusable moves no focus
  if (!document.getElementById("board").contains(event.target)) boardFocus = null;
});

function keepBoardFocus(board) {
  const now = document.activeElement;
  if (!boardFocus || (now && now !== document.body && now !== placedAt)) return;
  const { action, ply } = boardFocus;
  const same = action && ply === view.ply
    ? [...board.querySelectorAll("[data-action]")].find((b) => b.dataset.action === action) : null;
  if (same && !same.disabled) { placedAt = null; same.focus({ preventScroll: true }); return; }
  // the game may name a place nearer the next move (Souvlaki's food cards in the service)
  const home = RENDERERS[view.game].focusHome?.(board, view) || board;
  home.setAttribute("tabindex", "-1");  // focusable, not a Tab stop
  placedAt = home;
  home.focus({ preventScroll: true });
}

// The banner, a live region said once a change: on your turn with what the others did since
// your last (shown above the board too), for a screen reader, which hears no board change.
// News not known yet (Café's board data loading, as the page opens) is waited for: "Your turn."
// said now, then again with the news, would be said twice.
function renderBanner() {
  const renderer = RENDERERS[view.game];
  const news = view.your_turn && renderer.news ? renderer.news(view) : null;
  if (news === undefined) return;
  const banner = document.getElementById("banner");
  banner.classList.toggle("yours", view.your_turn);
  setLive(banner, bannerText(view), news ? el("span", { class: "visually-hidden" }, ` ${news}`) : null);
}

// Whether a click now would be taken as a move (body[data-busy]: "false" when it would).
function showBusy() {
  document.body.dataset.busy = String(Boolean(pending) || performance.now() < settled);
}

// While a move is under way the board's buttons wait (the rules' references still open).
function waitForAnswer(board) {
  showBusy();
  board.setAttribute("aria-busy", String(Boolean(pending)));
  if (!pending) return;
  for (const button of board.querySelectorAll("button:not(.rule-ref)")) button.disabled = true;
  const play = document.getElementById("hint-play");
  if (play) play.disabled = true;
}

function bannerText(v) {
  if (v.status === "abandoned") return "This game was abandoned: it is not played any more.";
  if (v.over && v.result) return `The game is over: ${winnersText(v.seats, v.result.winners)}.`;  // who won, said
  if (v.over) return "The game is over.";
  if (v.your_turn) return "Your turn.";
  if (v.to_move === null) return "…";
  const out = RENDERERS[v.game].viewerOut?.(v);  // a viewer out of the game (Café, CI-M.3)
  if (out) return `${out} ${waitingText(v)}`;
  return waitingText(v);
}

// Whose move the page waits for, and why it may wait long
function waitingText(v) {
  const seat = v.seats[v.to_move];
  if (seat.kind === "bot") return `${seatName(v.seats, v.to_move)} (bot) is thinking…`;
  if (!seat.joined) return `Waiting for ${seatName(v.seats, v.to_move)} to open their link.`;
  if (!seat.connected) return `Waiting for ${seatName(v.seats, v.to_move)}, who is away: their page is closed. The game goes on when they open their link again.`;
  return `Waiting for ${seatName(v.seats, v.to_move)}.`;
}

// A hint: the search bot's suggestion for this seat's decision, from this seat's own view.
// The server gives hints only to the seat to move in a game against bots (view.hints).
function renderHint() {
  const button = document.getElementById("hint-button");
  button.classList.toggle("hidden", !view.hints);
  button.disabled = asking || Boolean(pending);  // a hint is for a decision not yet sent
  button.textContent = asking ? "Thinking…" : "Hint";
  const box = document.getElementById("hint");
  if (!hint || hint.ply !== view.ply || !view.your_turn) {
    hint = null;
    box.classList.add("hidden");
    box.replaceChildren();  // the next hint is new words, said even if they are these
    return;
  }
  const { best, best_words: words, then, then_words: thenWords, win_chance: chance, moves, iterations } = hint.data;
  // the three the bot looked at most after its choice, the likeliest to win first; each with
  // the share of the search it had, for a move looked at less may be rated above the choice
  // by the luck of its few looks (the bot plays the move it looked at most)
  const also = moves.filter((move) => move.notation !== best).slice(0, 3)
    .sort((a, b) => b.win_chance - a.win_chance);
  const looked = (move) => (iterations > 0 && move.visits > 0 ? `, ${percent(move.visits / iterations)} of the search` : "");
  setLive(box,
    el("div", {}, "The bot suggests: ", el("strong", { id: "hint-words" }, words), " (",
      el("code", { class: "notation", id: "hint-move" }, best), ")",
      // a turn's second guest, as the search planned it ("Play it" plays the first alone)
      then ? [", then ", el("strong", { id: "hint-then" }, thenWords || then), " (", el("code", { class: "notation" }, then), ")"] : "",
      `${then ? "," : ""} and puts your chance to win at about ${percent(chance)}. `,
      el("button", { type: "button", class: "quiet", id: "hint-play", onclick: () => playHint(best) }, "Play it")),
    // folded: on a phone the three, each a sentence, pushed the hand and the board off the screen
    also.length ? el("details", { class: "also" }, el("summary", {}, "Also considered, less closely"),
      el("div", {}, also.flatMap((move, i) => [i ? "; " : "", el("span", { title: move.notation }, move.words), ` (${percent(move.win_chance)}${looked(move)})`]))) : "");
  box.className = "message info hint";
}

// The hinted move, asked about first where it puts the mover out of the game, as the board's
// own button for it asks (the search plays such a move only where every other loses as surely).
function playHint(best) {
  const move = view.legal.find((m) => m.notation === best);
  if (move?.out && !window.confirm(`${moveText(move)}.\n\n${OUT_MEANS} Play it all the same?`)) return;
  send(best);
}

async function askHint() {
  const ply = view.ply;
  // the button waits, disabled, while the bot thinks, and a disabled button loses the focus
  const hadFocus = document.activeElement === document.getElementById("hint-button");
  asking = true;
  renderHint();
  try {
    const data = await api(`/api/games/${gameId}/hint`, { method: "POST", body: { ply }, token });
    hint = { ply, data };
  } catch (error) {
    if (error.code !== "stale") refused(error.message, error.code);  // stale: the game moved on
    if (error.code === "offline") offline = true;
  } finally {
    asking = false;
    if (view) render();  // the board too: it points at the hinted move
    if (hadFocus && document.activeElement === document.body) (document.getElementById("hint-play") || document.getElementById("hint-button")).focus();
  }
}

// A hint given at this position before the page was opened (a reload, a second tab) is shown
// again: the server keeps each seat's last hint and gives it back without searching. Asked once,
// at the first view that offers hints; after that the page keeps the hints it is given.
async function recallHint() {
  if (hintRecalled || !view.hints) return;
  hintRecalled = true;
  const ply = view.ply;
  let data = null;
  try {
    data = await api(`/api/games/${gameId}/hint?ply=${ply}`, { token });
  } catch {
    return;  // the game moved on, or the server is away: the Hint button asks again
  }
  // drawn again only to show it: a board drawn anew under the pointer or the focus, for nothing,
  // would take a click or a key pressed meanwhile away from the button it was meant for
  if (!data || hint || asking || view.ply !== ply) return;
  hint = { ply, data };
  render();
}

function renderSeats(renderer) {
  const box = document.getElementById("seats");
  box.replaceChildren(...view.seats.map((seat) => el("div", {
    class: `seat${seat.seat === view.to_move && !view.over ? " to-move" : ""}${seat.seat === view.viewer ? " you" : ""}`,
  },
  // the dot and the seat's frame said in words too, for a screen reader
  el("span", {}, presence(seat),
    seatName(view.seats, seat.seat), seat.seat === view.viewer ? " (you)" : "",
    seat.seat === view.to_move && !view.over ? el("span", { class: "visually-hidden" }, " (to move)") : null),
  // "away" in words: a phone shows no tooltip on the dot
  el("span", { class: "muted" }, seat.kind === "bot" ? `bot ${seat.bot}${seat.budget ? ` · ${seat.budget}` : ""}` : !seat.joined ? "not joined" : seat.connected ? "person" : "person · away"),
  // every seat's standing where the eye looks for who leads, not only in its own panel
  el("span", { class: "standing" }, renderer.standing(view.observation, seat.seat)))));
}

// Beside a seat's name: a person's dot, green while their page is open, grey once they leave
// it; a bot's mark of its own, for a bot is always there: neither a person here nor one gone.
function presence(seat) {
  const [kind, said] = seat.kind === "bot" ? [" bot", "a bot, always here"]
    : seat.connected ? [" on", "connected"] : ["", "away"];
  return el("span", { class: `dot${kind}`, title: said, role: "img", "aria-label": said });
}

// Leaving a game against bots before its end, as a player may (view.abandon): asked once more
// on the page, then the server keeps the game as it stands and plays it no more.
function cancelLeave() {
  confirmingLeave = false;
  renderLeave();
  document.getElementById("abandon")?.focus();
}

// Escape: in the question "Abandon this game?", its safe answer; else what the board takes it
// for (Café: the guest chosen goes back to the hand); else that question, wherever the focus is.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || !view) return;
  const inLeave = document.getElementById("leave").contains(document.activeElement);
  if (confirmingLeave && inLeave) cancelLeave();
  else if (RENDERERS[view.game].escape?.()) { /* done by the board */ }
  else if (confirmingLeave) cancelLeave();
  else return;
  event.preventDefault();
});

// The box is built again only when what it shows changes, not at every view the socket brings
// (a bot's move): the focus and a click on its buttons survive the game going on.
let leaveShown = null;  // what the box shows: "none", "button" or "question"

function renderLeave() {
  const box = document.getElementById("leave");
  box.classList.toggle("hidden", !view.abandon);
  if (!view.abandon) confirmingLeave = false;
  const shown = !view.abandon ? "none" : confirmingLeave ? "question" : "button";
  if (shown === leaveShown) return;
  leaveShown = shown;
  if (!view.abandon) { box.replaceChildren(); return; }
  // a game of bots alone is stopped by whoever watches it, a player's is left
  const watching = view.viewer === null;
  if (!confirmingLeave) {
    box.replaceChildren(el("button", { type: "button", class: "quiet", id: "abandon", onclick: () => {
      confirmingLeave = true;
      renderLeave();
      document.getElementById("abandon-cancel").focus();  // the safe choice first
    } }, watching ? "Stop this game…" : "Abandon this game…"));
    return;
  }
  box.replaceChildren(el("p", {}, watching ? "Stop this game of bots? It cannot be taken up again; it keeps no result." : "Abandon this game? Its bots stop, and it cannot be taken up again; it keeps no result."),
    el("div", { class: "row" },
      el("button", { type: "button", id: "abandon-confirm", onclick: abandonGame }, watching ? "Stop the game" : "Abandon the game"),
      el("button", { type: "button", class: "quiet", id: "abandon-cancel", onclick: cancelLeave }, watching ? "Let them play" : "Keep playing")));
}

// Asked once: the second click of a double click would only be refused ("this game was
// abandoned"), and its refusal said as if leaving had failed.
let leaving = false;

async function abandonGame() {
  if (leaving) return;
  leaving = true;
  let left = false;
  try {
    await api(`/api/games/${gameId}/abandon`, { method: "POST", token });  // the view comes by the socket
    showMessage("");
    left = true;
  } catch (error) {
    showMessage(error.message);
    if (error.code === "offline") offline = true;
  }
  leaving = false;
  confirmingLeave = false;
  if (view) render();
  if (left) focusResultIfLost();
  else if (document.activeElement === document.body) {
    // refused: back to the button, or, where the game has just ended (a bot's last move came
    // first), to its result
    const again = document.getElementById("abandon");
    if (again) again.focus();
    else focusResultIfLost();
  }
}

// The question's buttons went with the abandon (the game's end may have been drawn before its
// answer came, or may come after it, by the socket): the focus to the result once it is shown,
// not to the page's start
let resultTakesFocus = false;

function focusResultIfLost() {
  const heading = document.querySelector("#result:not(.hidden) h2");
  if (!heading) { resultTakesFocus = true; return; }
  resultTakesFocus = false;
  if (document.activeElement === document.body || document.activeElement === null) heading.focus({ preventScroll: true });
}

let wasLive = false;  // this page saw the game before its end: scroll to the result once it ends

function renderResult(renderer) {
  const box = document.getElementById("result");
  const abandoned = view.status === "abandoned";
  if (!hasEnded(view)) { box.classList.add("hidden"); wasLive = true; return; }
  const buttons = [el("a", { class: "button quiet", href: `/replay/${view.id}` }, "Replay")];  // abandoned: as far as it went
  const seatLink = view.rematch && view.viewer !== null ? keptRematch(view.rematch) || oldLinkToRematch() : null;
  if (seatLink) buttons.push(el("a", { class: "button", id: "play-rematch", href: seatLink }, "Play the rematch"));
  else if (view.rematch) buttons.push(el("a", { class: "button quiet", href: `/game/${view.rematch}` }, "Watch the rematch"));
  else if (view.viewer !== null || view.seats.every((s) => s.kind === "bot")) {
    buttons.push(el("button", { type: "button", id: "rematch", onclick: rematch }, abandoned ? "Play again" : "Rematch"));
    // who starts changes from one rematch to the next (Café's P1 starts every game)
    if (view.seats.length > 1) buttons.push(el("span", { class: "muted", id: "rematch-seats" }, `A rematch moves everyone one seat on: ${seatName(view.seats, 1)} becomes P1.`));
  }
  if (abandoned) {
    box.replaceChildren(el("h2", { tabindex: "-1" }, "Game abandoned"),
      el("p", {}, `It was left after ${plural(view.ply, "move")}, before its end: it has no result and is played no more.`),
      el("div", { class: "row", style: "margin-top:.6rem" }, buttons));
  } else {
    const { scores, winners } = view.result;
    const heading = winnersText(view.seats, winners);
    box.replaceChildren(
    el("h2", { tabindex: "-1" }, heading[0].toUpperCase() + heading.slice(1)),
    el("p", {}, withRules(endOfGame(view.log) || renderer.endReason(view.observation, view.options), "result")),
    el("div", { class: "scoreline final" }, scores.map((s, i) => el("span", {}, `${seatName(view.seats, i)}: ${renderer.scoreText(view.observation, i, s)}${lossText(renderer, i, s)}`))),
    );
    const note = renderer.resultNote?.(view);
    if (note) box.append(el("p", { class: "muted", id: "result-note" }, withRules(note, "result-note")));
    box.append(el("div", { class: "row", style: "margin-top:.6rem" }, buttons));
  }
  box.classList.remove("hidden");
  if (resultTakesFocus) focusResultIfLost();
  if (wasLive) {  // the game ended while this page was open: who won may be far above
    wasLive = false;
    box.scrollIntoView({ block: "nearest" });
  }
}

// What a player lost at the end, after their final score: "(76, less 10 for 2 cards left in
// hand)", the game saying what for where it can; nothing where they lost nothing.
function lossText(renderer, player, score) {
  const loss = (view.result.losses || [])[player] || 0;
  if (!loss) return "";
  const why = renderer.lossWords ? ` ${renderer.lossWords(view.observation, player)}` : "";
  return ` (${score + loss}, less ${loss}${why})`;
}

// This seat's link to the rematch, kept in this browser (one key a seat: two seats of a game
// may be open in one browser): the server keeps no token it could give again, and a player who
// comes back to the old game should still find their seat.
function rematchKey() {
  return `kafeneio.rematch.${gameId}.${view ? view.viewer : ""}`;
}

function keepRematch(path) {
  try { localStorage.setItem(rematchKey(), path); } catch { /* private mode: the link is shown once */ }
}

function keptRematch(rematchId) {
  let path = null;
  try { path = localStorage.getItem(rematchKey()); } catch { /* none */ }
  return path && path.startsWith(`/game/${rematchId}#seat=`) ? path : null;
}

// This page's seat link opens the same person's seat of the rematch too (view.rematch_seat, the
// seat the server found this very token opens; null if the rematch does not take it): a player
// away when it was made, whose new link was shown only to the one who asked, finds it.
function oldLinkToRematch() {
  return view.rematch_seat !== null && token ? `/game/${view.rematch}#seat=${view.rematch_seat}&token=${token}` : null;
}

// One rematch a game, asked once: a second click (of a double click, or once it is made) would
// only be refused, and its refusal would take the place of the links the others need.
async function rematch() {
  if (askingRematch) return;
  askingRematch = true;  // the server tells the websocket before it answers: that news is ours
  try {
    const created = await api(`/api/games/${gameId}/rematch`, { method: "POST", token });
    ownRematch = created.id;
    // each person's seat there is another (everyone moves one on): found by their seat here
    const mine = created.links.find((link) => link.previous_seat === view.viewer);
    if (mine) keepRematch(mine.path);
    keepCreated(created);  // the lobby's "Links you created" offers them again, as for a new game
    view.rematch = created.id;  // the result offers it now ("Play the rematch"), not another
    renderResult(RENDERERS[view.game]);
    // the server gives this page its own link alone: each other person has theirs, sent to
    // their page if it is open, and opened by their link to this game in any case
    const others = view.seats.map((seat, index) => index).filter((index) => index !== view.viewer && view.seats[index].kind === "human");
    if (mine && !others.length) { location.href = mine.path; return; }
    const here = others.filter((index) => view.seats[index].connected);
    const away = others.filter((index) => !view.seats[index].connected);
    const named = (indices) => indices.map((index) => seatName(view.seats, index)).join(" and ");
    setMessage([el("div", {}, "Rematch created. ", mine ? el("a", { href: mine.path, id: "rematch-link" }, "Your seat") : el("a", { href: created.spectator, id: "rematch-link" }, "Watch")),
      here.length ? el("div", {}, `${named(here)} ${here.length > 1 ? "were" : "was"} sent their new link.`) : null,
      away.length ? el("div", {}, `${named(away)}: ${away.length > 1 ? "their" : "the"} link to this game opens ${away.length > 1 ? "their" : "the"} seat of the rematch.`) : null].filter(Boolean), "info");
  } catch (error) { showMessage(error.message); } finally { askingRematch = false; }
}

async function downloadRecord() {
  try {
    // played no more: the full record; before, this viewer's own view of it
    download(`${gameId}${view && hasEnded(view) ? "" : "-view"}.record.json`, await api(`/api/games/${gameId}/record`, { token }));
  } catch (error) { showMessage(error.message); }
}

// The seat's own link, kept in this browser, so that the lobby can offer it again (a closed tab
// would lose the seat otherwise): the token stays on this device only, never sent elsewhere.
// One seat a game, the one its person plays: a link is kept only once the server takes it (its
// first view with a seat), so a link cut short or mistyped is never kept, and the first link
// taken is kept until this page makes a move from another seat (`keepPlayedSeat`). Another
// seat's link only opened here (the one who made the game checking a friend's link before
// sending it) does not take the place of one kept: the lobby's "your seat" and "you are" stay
// this person's.
function keepOpenedSeat() {
  try {
    if (localStorage.getItem(seatLinkKey(gameId)) === null) localStorage.setItem(seatLinkKey(gameId), location.pathname + location.hash);
  } catch { /* private mode */ }
}

// The game's plain address (from the history, a "watch" link) opened in a browser that holds a
// seat of it: it watched, "Waiting for P2 Anna", while the lobby said "your turn". It says so,
// with the seat's own link.
function offerOwnSeat() {
  let kept = null;
  try { kept = localStorage.getItem(seatLinkKey(gameId)); } catch { /* private mode */ }
  if (!kept || hasEnded(view)) return;
  const seat = seatOfLink(kept);
  if (seat === null || !view.seats[seat]) return;
  setMessage([`You are watching, and this browser holds ${seatName(view.seats, seat)}'s seat in this game: `,
    el("a", { href: kept, id: "own-seat-link" }, "open your seat"), "."], "info");
}

// Another seat's link opened in this page (only the part after # changes: no new page): the
// page is opened again, as that seat's.
window.addEventListener("hashchange", () => location.reload());

// A move made from this page's seat: the surest sign that its person plays it.
function keepPlayedSeat() {
  try { localStorage.setItem(seatLinkKey(gameId), location.pathname + location.hash); } catch { /* private mode */ }
}

document.getElementById("download").addEventListener("click", downloadRecord);
document.getElementById("hint-button").addEventListener("click", askHint);
connect();
