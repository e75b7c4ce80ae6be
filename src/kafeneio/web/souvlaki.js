// Souvlaki Wars: the shops racing to 25 money and 25 reputation, the draft row, every queue,
// the service pool, and this player's own food and unforeseen cards (no one else's: the server
// never sends them).
import { RULE_ID, el, fill, moveText, ownTurnStart, plural, seatName, sinceHead, withRules, youMark, yours } from "./common.js";

// The foods' letters, for the key under the hand and a customer's order (not moves: a move is
// named in the game's own words, `words`, sent with each legal move to its mover)
const FOOD_NAMES = { G: "pita gyros", S: "souvlaki", F: "fries", D: "soft drink" };
// The moves not made on a card or a customer, in the order they are offered
const WORD_MOVES = ["keep", "redraw", "buy", "advertise", "done", "pass", "serve", "finish"];

function foods(text) {
  if (!text) return el("span", { class: "muted" }, "—");
  const names = [...text].map((f) => FOOD_NAMES[f]).join(", ");  // read by its names, not "G S"
  return el("span", { title: names, role: "img", "aria-label": names }, [...text].map((f) => el("span", { class: `food ${f}` }, f)));
}

function meter(kind, value, goal, label) {
  const share = Math.max(0, Math.min(1, value / goal));
  return el("div", {}, el("div", { class: "row", style: "justify-content:space-between;font-size:.85rem" }, el("span", {}, label), el("strong", {}, `${value} / ${goal}`)),
    el("div", { class: `meter ${kind}`, role: "meter", "aria-valuemin": 0, "aria-valuemax": goal, "aria-valuenow": value, "aria-label": label }, el("div", { style: `width:${share * 100}%` })));
}

// An unforeseen card's target as its notation names it: "p2" a player (index 1), "p2.3" the
// third customer of their queue; null for anything else
function targetOf(target) {
  const match = /^p(\d)(?:\.(\d+))?$/.exec(target);
  return match ? { player: Number(match[1]) - 1, customer: match[2] ?? null } : null;
}

function targetText(view, target) {
  const named = targetOf(target);
  if (!named) return target;
  const who = seatName(view.seats, named.player);  // as the log names players
  return named.customer ? `${who}'s customer ${named.customer}` : who;
}

// The customers (p1.4) or queues (p2) an unforeseen card's button would play it on, outlined
// while the button is pointed at or focused: "on P1's customer 4" is read far from that customer
function markTargets(notation, on) {
  for (const target of notation.split(" ").slice(2)) {
    const named = targetOf(target);
    if (!named) continue;
    const selector = named.customer ? `[data-customer="${target}"]` : `[data-queue="${named.player}"]`;
    for (const shown of document.querySelectorAll(selector)) shown.classList.toggle("targeted", on);
  }
}

function useLabel(view, notation) {
  const [, , ...targets] = notation.split(" ");
  return targets.length ? `on ${targets.map((t) => targetText(view, t)).join(" and ")}` : "play it";
}

function shops(view) {
  const obs = view.observation;
  const cards = (p) => obs.first_game ? `${p.food_cards} food` : `${p.food_cards} food · ${p.unforeseen_cards} unforeseen cards`;
  return el("div", { class: "shops" }, obs.players.map((p, i) => el("div", { class: `shop${i === view.to_move ? " to-move" : ""}`, "data-seat": i },
    el("div", {}, el("strong", {}, p.shop_name), el("div", { class: "muted", style: "font-size:.85rem" }, `${seatName(view.seats, i)}${youMark(view, i)}`)),
    meter("money", p.net_money, obs.rules.win_money, `money${netOfLoans(p)}`),
    meter("rep", p.reputation, obs.rules.win_reputation, "reputation"),
    el("div", { class: "muted", style: "font-size:.82rem" }, cards(p)),
    servedText(p) ? el("div", { class: "served-change", style: "font-size:.82rem" }, servedText(p)) : null,
    el("div", { class: "muted identity", style: "font-size:.82rem" }, identityText(p.identity)))));
}

// Under the Moves heading: how the log writes a customer, which the board and the buttons say
// in words ("GG 3/2" read as a code a newcomer had to guess)
export const LOG_LEGEND = "Customers are written as their order, then money/influence: GG 3/2 orders 2 pita gyros, pays 3 money and has influence 2 (G pita gyros, S souvlaki, F fries, D soft drink).";

// What a card in play changed this round in what the shop's served customers give (Dirty Shop,
// Good Review: SW-3.3), as the terminal says it; else null. The queues and buttons show each
// customer's own money and influence, which it no longer gives.
export function servedText(p) {
  const more = (change) => `${Math.abs(change)} ${change > 0 ? "more" : "less"}`;
  const changed = [];
  if (p.served_reputation) changed.push(`gives ${more(p.served_reputation)} reputation`);
  if (p.served_money) changed.push(`pays ${more(p.served_money)} money`);
  return changed.length ? `This round each customer served ${changed.join(" and ")}` : null;
}

// The unforeseen cards played this round that wait for its end (SW-3.3, SW-3.4), and the
// cancels to come (SW-E.1), as the terminal says them; null where there are none.
export function effectsText(obs) {
  const played = Object.entries(obs.in_play || {}).map(([card, count]) => `${card.replaceAll("-", " ")}${count > 1 ? ` ×${count}` : ""}`);
  const said = [];
  if (played.length) said.push(`Played this round, discarded at its end: ${played.join(", ")}`);
  const cancels = obs.cancels_pending || 0;
  if (cancels) said.push(`the next ${cancels > 1 ? `${cancels} unforeseen cards` : "unforeseen card"} played ${cancels > 1 ? "have" : "has"} no effect (SW-E.1)`);
  return said.length ? said.join("; ") : null;
}

// A shop's identity card (public, SW-0.4): what it pays each round and what it may buy (SW-1.3)
function identityText(shop) {
  const twice = shop.supplies_per_round === 2 ? " (twice a round)" : shop.supplies_per_round > 2 ? ` (${shop.supplies_per_round} times a round)` : "";
  return `costs ${shop.operating_cost}/round · supplies ${shop.supplies_cost} money for ${plural(shop.supplies_cards, "food card")}${twice} · advertising ${shop.advertising_cost} money for +${shop.advertising_reputation} reputation`;
}

// A Big Phone Order whose 2 customer cards are not drawn yet (SW-2.7): it has no order, money
// nor influence of its own to show, only what it will be ("BIG" in the draft row; drafted, an
// empty order until its cards are drawn). The letters of "BIG" are no foods.
const BIG_ROW_CARD = "BIG";

function bigOrder(number) {
  return [el("div", { class: "order" }, el("span", { class: "number" }, `${number}.`), el("strong", {}, "Big Phone Order")),
    el("div", { class: "muted" }, "2 customer cards drawn for it, served as one order")];
}

// A customer, numbered as moves and hints count them ("customer 2", "pick 3")
function customer(c, extra, number, place = null) {
  const tags = [c.phone ? "phone order" : null, c.big ? "big" : null, c.annoyed ? "annoyed (turned)" : null, c.waiting ? "waiting" : null,
    c.tip ? `tip ${c.tip}` : null, ...(c.attached_names ?? c.attached)].filter(Boolean);  // "Same Again", not its id
  const undrawn = c.big && !c.order;
  return el("div", { class: `customer${c.annoyed ? " annoyed" : ""}`, "data-customer": place },
    undrawn ? bigOrder(number) : [el("div", { class: "order" }, el("span", { class: "number" }, `${number}.`), foods(c.order)),
      el("div", {}, `${c.money} money · ${c.influence} influence`)],
    tags.length ? el("div", { class: "tags" }, tags.join(" · ")) : null, extra);
}

// The draft's snake order (SW-2.2), the pick now (the observation's turn) marked
function pickingOrder(view) {
  const obs = view.observation;
  return el("p", { class: "muted", id: "picking-order" }, "Picking order: ", obs.picking_order.map((p, i) => [i ? ", " : "",
    i === obs.turn ? el("strong", {}, `${seatName(view.seats, p)} (now)`) : seatName(view.seats, p)]));
}

function row(view, legal, ctx) {
  const obs = view.observation;
  if (!obs.row.some(Boolean)) return null;
  return el("div", { class: "panel" }, el("h3", {}, "Customers to draft"),
    obs.picking_order ? pickingOrder(view) : null,
    el("div", { class: "customers" }, obs.row.map((text, i) => {
      // a slot taken keeps its number: the players may still speak of "slot 3"
      if (!text) return el("div", { class: "customer taken muted", "data-slot": i + 1 }, el("span", { class: "number" }, `${i + 1}.`), " taken");
      const [order, values] = text.split(" ");
      const pick = legal.get(`pick ${i + 1}`);
      const shown = text === BIG_ROW_CARD ? bigOrder(i + 1)
        : [el("div", { class: "order" }, el("span", { class: "number" }, `${i + 1}.`), foods(order)), el("div", {}, values ? `${values.replace("/", " money · ")} influence` : "")];
      return el("div", { class: "customer", "data-slot": i + 1 }, shown,
        ctx.interactive && pick ? el("button", {
          type: "button", "data-action": `pick ${i + 1}`, title: moveText(pick), "aria-label": `Pick: ${moveText(pick)}`, onclick: () => ctx.send(`pick ${i + 1}`),
        }, "Pick") : null);
    })));
}

function queues(view, legal, ctx) {
  const obs = view.observation;
  // what ending the service would do to your queue, said here, above it (said by its button,
  // it would change the button's width as customers are served)
  const ending = ctx.interactive && obs.phase === "service" && view.viewer !== null ? endOfService(view) : null;
  // the viewer's own queue first: the one they serve and draft for, under their hand
  const seats = obs.queues.map((_, p) => p);
  const order = view.viewer === null ? seats : [view.viewer, ...seats.filter((p) => p !== view.viewer)];
  return el("div", { class: "panel" }, el("h3", {}, "Queues"), order.map((p) => [p, obs.queues[p]]).map(([p, queue]) => el("div", { class: "queue-row", "data-queue": p },
    el("div", {}, el("strong", {}, obs.players[p].shop_name), el("span", { class: "muted" }, ` — ${seatName(view.seats, p)}`),
      p === view.viewer && ending ? el("span", { class: "muted", id: "service-ending" }, ` · if you end the service now: ${ending}`) : null),
    queue.length ? el("div", { class: "customers" }, queue.map((c, i) => {
      const send = legal.get(`send ${i + 1}`);
      // the rule's cost (SW-4.6), and what is left where reputation stops at 0 (SW-4.9): "−3"
      // alone read as the rule misprinted, "−5" alone as a loss the shop cannot have
      const left = obs.players[p].reputation;
      const cost = `−${obs.rules.send_away_cost}${left < obs.rules.send_away_cost ? `, you have ${left}` : ""}`;
      const button = ctx.interactive && p === view.viewer && send ? el("button", {
        type: "button", class: "quiet", "data-action": send.notation, onclick: () => ctx.send(send.notation),
        title: `${moveText(send)}: ${cost} reputation`, "aria-label": `${moveText(send)}: ${cost} reputation`,
      }, `Send away (${cost})`) : null;
      return customer(c, button, i + 1, `p${p + 1}.${i + 1}`);  // as moves name it
    })) : el("div", { class: "muted" }, "nobody waiting"))));
}

function hand(view, legal, ctx) {
  const obs = view.observation;
  if (!obs.hand) return null;
  const foodButtons = obs.hand.food.map((card) => {
    const verb = legal.has(`discard ${card}`) ? "discard" : "play";
    const action = `${verb} ${card}`;
    const move = legal.get(action);
    // in the service a card not playable is sent all the same, for the reason; elsewhere it waits
    const service = view.observation.phase === "service";
    const waits = !service && !move;
    const names = [...card].map((f) => FOOD_NAMES[f]).join(" + ");
    const what = move ? moveText(move)
      : ctx.interactive ? `${names}: not playable now${service ? " (press to be told why)" : ""}` : names;
    return el("button", {
      type: "button", class: `foodcard${move ? " playable" : ""}`, "data-card": card, "data-action": action, disabled: !ctx.interactive || waits,
      // its name begins with the letters it shows, for speech input ("click GD"; 2.5.3)
      title: what, "aria-label": `${card}: ${what}`, onclick: () => ctx.send(action),
    }, foods(card), verb === "discard" && move ? el("div", { style: "font-size:.75rem" }, "discard") : null);
  });
  const known = obs.hand.known_in_other_hands.map((k) => el("div", { class: "muted" }, `You know ${seatName(view.seats, k.player)} holds `, foods(k.food)));
  return el("div", { class: "panel", id: "my-hand", tabindex: "-1" }, el("h3", {}, yours(view, "food cards")), pool(view),
    // the key to the letters, for the eye: a screen reader is told each food by its name
    el("p", { class: "muted", "aria-hidden": "true", style: "font-size:.82rem;margin:.1rem 0 .4rem" }, Object.entries(FOOD_NAMES).map(([f, name]) => el("span", { style: "margin-right:.6rem" }, foods(f), ` ${name}`))),
    el("div", { class: "actions" }, foodButtons.length ? foodButtons : el("span", { class: "muted" }, "no food cards")), known);
}

// This player's unforeseen cards, each with what it does and, in the unforeseen phase, a
// button a target; none in a first game (SW-1.2, SW-3)
function unforeseenCards(view, legal, ctx) {
  const obs = view.observation;
  if (!obs.hand || obs.first_game) return null;
  const uses = [...legal.keys()].filter((n) => n.startsWith("use "));
  const unforeseen = [...new Set(obs.hand.unforeseen)].map((kind) => {
    const count = obs.hand.unforeseen.filter((k) => k === kind).length;
    const mine = uses.filter((n) => n.split(" ")[1] === kind);
    return el("div", { class: "unforeseen", "data-card": kind }, el("strong", {}, obs.hand.unforeseen_names?.[kind] || kind.replaceAll("-", " ")), count > 1 ? ` ×${count}` : "",
      el("div", { class: "muted", style: "font-size:.85rem" }, obs.hand.unforeseen_text[kind] || ""),
      ctx.interactive && mine.length ? el("div", { class: "actions", style: "margin-top:.3rem" }, mine.map((n) => el("button", {
        type: "button", "data-action": n, title: moveText(legal.get(n)), "aria-label": `${useLabel(view, n)}: ${moveText(legal.get(n))}`, onclick: () => ctx.send(n),
        onmouseenter: () => markTargets(n, true), onmouseleave: () => markTargets(n, false),
        onfocus: () => markTargets(n, true), onblur: () => markTargets(n, false),
      }, useLabel(view, n)))) : null);
  });
  return el("div", { class: "panel", id: "my-unforeseen" }, el("h3", {}, yours(view, "unforeseen cards")), unforeseen.length ? unforeseen : el("div", { class: "muted" }, "none"));
}

// Each word move's button reads the same whether or not the move is legal now, so that no
// button changes its width as moves are made (a purchase made, a customer served) and none
// slides into the place of another under the pointer or the finger, least of all "End the
// service", which cannot be taken back. The move in full, with what it costs or does, is its
// title and aria-label; the costs are said under the buttons too.
const WORD_LABELS = {
  keep: "Keep the starting food cards", redraw: "Redraw the starting food cards", buy: "Buy supplies",
  advertise: "Advertise", done: "End the shop maintenance", pass: "Play no unforeseen card",
  serve: "Serve the first customer", finish: "End the service",
};

function wordActions(view, legal, ctx) {
  if (!ctx.interactive) return null;
  const phase = view.observation.phase;
  // in the service, serve and finish are offered even when not legal, and in the maintenance
  // buy and advertise: sent, the server says why; so the buttons keep their places
  // (kept while a purchase's cards are discarded down to the hand limit, where done is not legal)
  const maintenance = legal.has("done") || phase === "maintenance";
  const always = phase === "service" ? ["serve", "finish"] : maintenance ? ["buy", "advertise", "done"] : [];
  const words = WORD_MOVES.filter((w) => legal.has(w) || always.includes(w));
  // ending the service (it cannot be taken back) is the quiet one, set apart at the row's end,
  // unless nobody is left to serve; a serve the pool covers is the prominent one
  const nobodyWaits = phase === "service" && !(view.observation.queues[view.viewer] ?? []).length;
  const buttons = el("div", { class: "actions", style: "margin-bottom:.4rem" }, words.map((w) => {
    const move = legal.get(w);
    const full = move ? wordLabel(move, w, view) : `${WORD_LABELS[w]}: not possible now (press to be told why)`;
    const look = w === "finish" ? (nobodyWaits && move ? "apart" : "quiet apart") : move ? "" : "quiet";
    return el("button", {
      type: "button", "data-action": w, class: look, onclick: () => ctx.send(w),
      title: full, "aria-label": full,
    }, WORD_LABELS[w]);
  }));
  const shop = view.observation.players[view.viewer]?.identity;
  const costs = maintenance && shop ? el("p", { class: "muted", id: "maintenance-costs", style: "margin:.1rem 0 .8rem;font-size:.88rem" },
    `Supplies cost ${shop.supplies_cost} money for ${shop.supplies_cards} food cards; advertising, ${shop.advertising_cost} money for +${shop.advertising_reputation} reputation.`) : null;
  // the service's order of play, for a first game: it is not in the buttons themselves
  const how = phase === "service" ? el("p", { class: "muted", id: "service-how", style: "margin:.1rem 0 .8rem;font-size:.88rem" },
    "Play food cards from your hand into the pool; serve the first customer once the pool covers their order; end the service when you are done (a customer not served gets annoyed).") : null;
  // the mulligan, for a first game: once, a new hand that must be kept (SW-S.6)
  const mulligan = legal.has("keep") ? el("p", { class: "muted", id: "mulligan-how", style: "margin:.1rem 0 .8rem;font-size:.88rem" },
    withRules(`Before the first round you may redraw once: your ${plural(view.observation.hand.food.length, "food card")} go and as many new ones come, which you must keep (SW-S.6).`, "mulligan")) : null;
  return [buttons, costs, how, mulligan, discarding(view, legal)];
}

// Over the hand limit (SW-1.4): how many cards to discard, said; the cards say "discard"
function discarding(view, legal) {
  if (![...legal.keys()].some((n) => n.startsWith("discard "))) return null;
  const held = view.observation.hand.food.length;
  const limit = view.observation.rules.hand_limit;
  return el("p", { id: "discard-how", style: "margin:.1rem 0 .8rem;font-weight:600" },
    `You hold ${plural(held, "food card")}, more than the hand limit of ${limit}: discard ${held - limit} (press a card in your hand to discard it).`);
}

// A legal move in the game's words, with what it costs and gives from the shop's identity card
// (public, SW-0.4) or what it does to those waiting: the button's title and aria-label.
function wordLabel(move, word, view) {
  const shop = view.observation.players[view.viewer]?.identity;
  let detail = null;
  if (word === "buy" && shop) detail = `${shop.supplies_cost} money: ${shop.supplies_cards} food cards`;
  if (word === "advertise" && shop) detail = `${shop.advertising_cost} money: +${shop.advertising_reputation} reputation`;
  if (word === "finish") {
    const what = endOfService(view);
    if (what) detail = `of those waiting, ${what}`;
  }
  return detail ? `${moveText(move)} (${detail})` : moveText(move);
}

// What ending the service now does: the treat for food left in the pool (SW-4.4), and to those
// waiting in this player's queue, the unserved turn annoyed, or leave if they were already
// (SW-4.7, 4.8); null when it does neither.
function endOfService(view) {
  const obs = view.observation;
  const waiting = obs.queues[view.viewer] ?? [];
  const leaving = waiting.filter((c) => c.annoyed);
  const leave = leaving.length;
  const turn = waiting.length - leave;
  const treat = obs.served_this_service > 0 && obs.pool !== "";  // a customer served, food left
  // what the leaving cost (SW-4.8), as the reputation left allows (SW-4.9): beside sending
  // one away, the choice it is weighed against
  const lost = Math.min(leaving.reduce((sum, c) => sum + c.leaves_for, 0), obs.players[view.viewer].reputation + (treat ? 1 : 0));
  const what = [treat ? "+1 reputation for the food left in the pool" : null, turn ? `${turn} ${turn === 1 ? "gets" : "get"} annoyed` : null,
    leave ? `${leave} ${leave === 1 ? "leaves" : "leave"}: −${lost} reputation` : null].filter(Boolean);
  return what.length ? what.join(", ") : null;
}

// The service's pool: with the food cards played into it, where the viewer has a hand; a panel
// of its own for a spectator
function pool(view) {
  const obs = view.observation;
  if (obs.phase !== "service") return null;
  return el("div", { class: "row", id: "pool", style: "margin:.1rem 0 .4rem" }, el("span", {}, "Pool: "), foods(obs.pool), el("span", { class: "muted" }, `· served this service: ${obs.served_this_service}`));
}

function service(view) {
  if (view.observation.hand || view.observation.phase !== "service") return null;
  return el("div", { class: "panel" }, el("h3", {}, "Service"), pool(view));
}

function roundText(obs) {
  // Round 0 is the deal and the mulligan, before the first round starts (SW-S.6).
  if (obs.round === 0) return `Before round 1 · at most ${obs.round_limit} rounds`;
  return `Round ${obs.round} of at most ${obs.round_limit}`;
}

// What the others and chance did since the viewer's last turn (a run of their own decisions one
// after another), in the game's words for this viewer (the log's events: "P2 plays the
// unforeseen Ninja in the Kitchen on P1", "P2 steals GF from your hand"), above the board on
// their turn: on a phone the log is far below, and a card played on your customer or taken from
// your hand changes what you can do. Kept while the viewer's own decisions follow one another
// (a maintenance, a service), so that no button slides under the finger as they are made.
// Nothing for a spectator, in a replay, or once the game is over; the last NEWS_LINES lines.
const NEWS_LINES = 6;
const CITED = new RegExp(` \\(${RULE_ID.source}\\)$`);  // the log's rule ids: the log says them

function sinceLastTurn(view) {
  if (view.viewer === null || view.replay || view.over || !view.your_turn) return [];
  const log = view.log;
  const end = ownTurnStart(log, view.viewer);
  const ended = endedInRun(log, view.viewer, end);
  if (ended) return uncited(ended.events);
  let start = end;
  while (start > 0 && log[start - 1].player !== view.viewer) start -= 1;
  // what the viewer's own last move set off comes with the others' moves
  const own = start > 0 ? setOff(log[start - 1]) : [];
  return uncited(own.concat(log.slice(start, end).flatMap((entry) => entry.events || [])));
}

// The viewer's decisions may run on across a phase's end (their service ended the round and
// they are first in the maintenance): then what the move that ended it set off is the news.
// That move, in the viewer's run of decisions from `end` (`ownTurnStart`); else undefined.
function endedInRun(log, viewer, end) {
  return log.slice(end).findLast((entry) => entry.player === viewer && ENDS_A_TURN.has(verb(entry)) && entry.events?.length);
}

// How the news begins: "Since your last turn" where the viewer moved before this turn began,
// or where the news is what their own last move set off; before, "Since the game began"
function newsHead(view) {
  const log = view.log;
  const end = ownTurnStart(log, view.viewer);
  return sinceHead(log, view.viewer, endedInRun(log, view.viewer, end) ? log.length : end);
}

// The moves that end a player's part of a phase, told by no line of their own: each of their
// events is something they set off (ending the service: the treat, customers annoyed or
// leaving, the round over, the next shop's costs and draws)
const ENDS_A_TURN = new Set(["finish", "done", "pass"]);
const verb = (entry) => entry.text.split(" ")[0];

// What a move of the viewer's set off: its events, less the move's own line ("P1 drafts ..."),
// which the viewer made, where it has one
function setOff(entry) {
  const events = entry.events || [];
  return ENDS_A_TURN.has(verb(entry)) ? events : events.slice(1);
}

const uncited = (lines) => lines.map((text) => text.replace(CITED, ""));

// The news, its last NEWS_LINES lines and how many earlier ones the box and the banner leave
// to the log (a long service of the others runs to 20 lines and more)
function newsLines(view) {
  const lines = sinceLastTurn(view);
  return { shown: lines.slice(-NEWS_LINES), earlier: Math.max(0, lines.length - NEWS_LINES) };
}

const EARLIER = (count) => `${plural(count, "earlier line")} under Moves`;

export function news(view) {
  const { shown, earlier } = newsLines(view);
  if (!shown.length) return null;
  return `${newsHead(view)}: ${earlier ? `${EARLIER(earlier)}; ` : ""}${shown.join("; ")}.`;
}

// On a narrow screen the box shows its last NARROW_LINES lines, and "N more" the others, so that
// the move buttons under it stay on the first screen; opened, it stays open for this news.
const NARROW_LINES = 3;
let newsOpened = null;  // the news whose box the viewer opened, one line a line

function newsBox(view) {
  const { shown, earlier } = newsLines(view);
  if (!shown.length) return null;
  const said = shown.join("\n");
  const folded = Math.max(0, shown.length - NARROW_LINES);
  // "3 more", said in full to a screen reader: of what
  const moreWords = () => [newsOpened === said ? "fewer" : `${folded} more`, el("span", { class: "visually-hidden" }, " of the news since your last turn")];
  const box = el("div", { class: `since-last${newsOpened === said ? " open" : ""}`, id: "since-last" });
  const more = folded ? el("button", {
    type: "button", class: "quiet news-more", "aria-expanded": String(newsOpened === said), "aria-controls": "since-last",
    onclick: () => {
      newsOpened = newsOpened === said ? null : said;
      box.classList.toggle("open", newsOpened === said);
      more.setAttribute("aria-expanded", String(newsOpened === said));
      more.replaceChildren(...moreWords());
    },
  }, moreWords()) : null;
  box.append(el("div", { class: "news-head" }, el("strong", {}, `${newsHead(view)}:`), more),
    el("ul", {}, shown.map((line, i) => el("li", { class: i < folded ? "folded" : null }, line))),
    ...(earlier ? [el("div", { class: `muted${folded ? " folded" : ""}` }, EARLIER(earlier))] : []));  // (append writes a null as "null")
  return box;
}

export function render(root, view, ctx) {
  const obs = view.observation;
  const legal = new Map(view.legal.map((m) => [m.notation, m]));
  const order = obs.turn_order.map((p) => obs.players[p].shop_name).join(" → ");
  const status = el("div", { class: "scoreline", style: "margin-bottom:.6rem" },
    el("span", {}, roundText(obs)), el("span", { class: "phase" }, `Phase: ${obs.phase.charAt(0).toUpperCase()}${obs.phase.slice(1)}`),
    order ? el("span", {}, `Turn order: ${order}`) : null, obs.first_game ? el("span", {}, "first game (no unforeseen cards)") : null,
    obs.resolving ? el("span", {}, `resolving ${obs.resolving}`) : null);
  // what the player acts on first (the draft row, the pool, their food cards, their queue
  // beside them), so that a laptop's window holds it; the unforeseen cards before the queues
  // they target in their phase, after them in the others; the shops' standings last (the
  // players panel has them too)
  const unforeseen = unforeseenCards(view, legal, ctx);
  const playing = obs.phase === "unforeseen";
  const effects = effectsText(obs);
  fill(root, newsBox(view), status, effects ? el("div", { class: "muted effects", id: "effects" }, withRules(effects, "effects")) : null, wordActions(view, legal, ctx), row(view, legal, ctx), service(view), hand(view, legal, ctx),
    playing ? unforeseen : null, queues(view, legal, ctx), playing ? null : unforeseen, el("div", { class: "panel" }, el("h3", {}, "Shops"), shops(view)));
  if (!ctx.interactive && ctx.hinted) hintedPlace(root, ctx.hinted, view.to_move)?.classList.add("hinted");
}

// Where a move not offered as a button here (a replay's, whose board has no moves) is made: the
// draft row's slot, the mover's food card, or the customer of the mover's queue sent away.
// (The game page outlines the hinted move's own button.)
function hintedPlace(root, notation, mover) {
  const [verb, what] = notation.split(" ");
  if (verb === "pick") return root.querySelector(`.customer[data-slot="${what}"]`);
  if (verb === "play" || verb === "discard") return root.querySelector(`.foodcard[data-card="${what}"]`);
  if (verb === "send" && mover !== null) return root.querySelector(`[data-customer="p${mover + 1}.${what}"]`);
  return null;
}

// Whether a shop has reached the goal, 25 money (net of loans) and 25 reputation (SW-5.2)
function reachedGoal(obs, p) {
  return p.net_money >= obs.rules.win_money && p.reputation >= obs.rules.win_reputation;
}

export function endReason(obs, options) {
  const reached = obs.players.filter((p) => reachedGoal(obs, p));
  if (reached.length) return `The game ended at the end of round ${obs.round}: ${reached.map((p) => p.shop_name).join(" and ")} reached ${obs.rules.win_money} money and ${obs.rules.win_reputation} reputation.`;
  return `The game ended after the last round (${obs.round_limit}) with nobody at ${obs.rules.win_money}/${obs.rules.win_reputation}: the highest money + reputation wins.`;
}

// A seat's standing for the players panel, beside its name: the race to 25 and 25 (SW-5.2).
export function standing(obs, player) {
  const p = obs.players[player];
  // money net of loans, as the shop's meter, the win (SW-5.2) and the result count it
  return `money ${p.net_money}${netOfLoans(p)} · reputation ${p.reputation}`;
}

// What a shop's money is net of: " (net of 2 loans)", or nothing without a loan (SW-1.6).
function netOfLoans(p) {
  return p.loans ? ` (net of ${plural(p.loans, "loan")})` : "";
}

export function scoreText(obs, player, score) {
  const p = obs.players[player];
  // when some shop reached the goal, only those who did may win (SW-5.2, 5.3): a higher sum
  // of one who did not is no win
  const short = !reachedGoal(obs, p) && obs.players.some((q) => reachedGoal(obs, q)) ? `, short of ${obs.rules.win_money}/${obs.rules.win_reputation}` : "";
  return `${score} (money ${p.net_money}, reputation ${p.reputation}${short})`;
}

// Where the focus goes after a move of this player's (the board redrawn): in the service, to
// their food cards, the next to play a Tab away; else the board (game.js)
export function focusHome(root, view) {
  return view.observation.phase === "service" && view.your_turn ? root.querySelector("#my-hand") : null;
}
