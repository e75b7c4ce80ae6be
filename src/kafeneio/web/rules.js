// The rules page of one game (/rules/GAME): how to play, for a newcomer, and how to make moves on
// this site (howto/GAME.json: words for this page, kept apart from the game's package, which
// knows nothing of pages), then the game's whole rules reference from the API, grouped by
// section, every rule an anchor (#CI-T.2) that a link scrolls to and marks (:target).
import { RULE_ID, api, el, fill } from "./common.js";

const game = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());

// A text with each rule id it cites (of this game's reference) as a link to that rule.
function withRuleLinks(text, known) {
  return text.split(RULE_ID).map((part, i) => (i % 2 && known.has(part)
    ? el("a", { href: `#${part}`, class: "rule-link" }, part) : part));
}

// The reference's rules by section ("CI-T": Seating guests), in the reference's order.
function sections(rules) {
  const found = new Map();
  for (const rule of rules) {
    const prefix = rule.id.split(".")[0];
    if (!found.has(prefix)) found.set(prefix, { prefix, heading: rule.section, rules: [] });
    found.get(prefix).rules.push(rule);
  }
  return [...found.values()];
}

function ruleItem(rule, known) {
  return el("li", { class: "rule", id: rule.id },
    el("a", { class: "rule-id", href: `#${rule.id}`, title: `A link to rule ${rule.id}` }, rule.id), " ",
    el("span", { class: "rule-body" }, withRuleLinks(rule.text, known)));
}

function contents(groups, others) {
  const link = (href, text) => el("li", {}, el("a", { href }, text));
  return [
    el("ul", {}, link("#how-to-play", "How to play"), link("#in-the-browser", "Playing in the browser"), link("#reference", "Rules reference")),
    el("ul", { class: "rule-sections" }, groups.map((group) => link(`#section-${group.prefix}`, group.heading))),
    others.length ? el("p", { class: "muted" }, "The rules of ", others.flatMap((other, i) => [i ? ", " : "", el("a", { href: `/rules/${encodeURIComponent(other.name)}` }, other.title)])) : null,
  ];
}

function show(title, howto, rules, others) {
  const known = new Set(rules.map((rule) => rule.id));
  const groups = sections(rules);
  document.title = `How to play ${title} · kafeneio`;
  document.getElementById("game-name").textContent = title;
  fill(document.getElementById("contents"), contents(groups, others));
  fill(document.getElementById("overview"), howto.overview.map((text) => el("p", {}, withRuleLinks(text, known))));
  fill(document.getElementById("browser-help"), howto.browser.map((text) => el("li", {}, withRuleLinks(text, known))));
  fill(document.getElementById("rule-sections"), groups.map((group) => el("section", { class: "rule-section", id: `section-${group.prefix}` },
    el("h3", {}, group.heading), el("ul", { class: "rule-list" }, group.rules.map((rule) => ruleItem(rule, known))))));
  for (const id of ["contents", "how-to-play", "in-the-browser", "reference"]) document.getElementById(id).classList.remove("hidden");
  showTarget(title, known);
}

// The browser looked for the fragment's rule (#CI-T.2) before the page drew it, so it is shown
// now: the same address navigated to once more scrolls to the rule and marks it (:target).
function showTarget(title, known) {
  const wanted = fragment();
  if (!wanted) return;
  const id = known.has(wanted.toUpperCase()) ? wanted.toUpperCase() : wanted;  // ids read as any case
  if (document.getElementById(id)) location.replace(`#${id}`);
  else showMessage(`There is no rule ${wanted} in the rules of ${title}: they are all listed below.`);
}

function fragment() {
  try {
    return decodeURIComponent(location.hash.slice(1));
  } catch {  // a malformed escape (#%E0): the fragment as typed
    return location.hash.slice(1);
  }
}

function showMessage(text) {
  const box = document.getElementById("rules-message");
  box.textContent = text;
  box.classList.toggle("hidden", !text);
}

async function start() {
  try {
    const [catalog, rules, howto] = await Promise.all([
      api("/api/catalog"), api(`/api/rules/${encodeURIComponent(game)}`), api(`/static/howto/${encodeURIComponent(game)}.json`),
    ]);
    const info = catalog.games.find((g) => g.name === game);
    show(info ? info.title : game, howto, rules, catalog.games.filter((g) => g.name !== game));
  } catch (error) {
    showMessage(`The rules could not be loaded: ${error.message}`);
  }
}

start();
