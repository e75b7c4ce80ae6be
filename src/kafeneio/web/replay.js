// The replay viewer of a finished game: step back and forth, or slide, with the log in step.
import { api, el, gameIdFromPath, renderLog, seatName } from "./common.js";
import * as cafe from "./cafe.js";
import * as souvlaki from "./souvlaki.js";

const RENDERERS = { cafe, souvlaki };
const gameId = gameIdFromPath();
let game = null;
let ply = 0;
let total = 0;
let request = 0;

async function show(target) {
  ply = Math.max(0, Math.min(total, target));
  const viewer = document.getElementById("viewer").value;
  const mine = ++request;
  const step = await api(`/api/games/${gameId}/replay?ply=${ply}${viewer === "" ? "" : `&viewer=${viewer}`}`);
  if (mine !== request) return;  // a newer step was asked for meanwhile
  total = step.total;
  const slider = document.getElementById("slider");
  slider.max = total;
  slider.value = ply;
  document.getElementById("position").textContent = `move ${ply} of ${total}`;
  const obs = step.observation;
  const view = { ...game, observation: obs, legal: [], viewer: step.viewer, to_move: obs.to_move >= 0 ? obs.to_move : null, your_turn: false };
  RENDERERS[game.game].render(document.getElementById("board"), view, { send: () => {}, interactive: false });
  renderLog(document.getElementById("log"), step.log, game.seats);
  document.getElementById("seats").replaceChildren(...game.seats.map((s) => el("div", { class: `seat${s.seat === view.to_move ? " to-move" : ""}` }, seatName(game.seats, s.seat), el("span", { class: "muted" }, s.kind === "bot" ? `bot ${s.bot}` : "person"))));
}

async function start() {
  try {
    game = await api(`/api/games/${gameId}`);
    document.getElementById("game-title").textContent = `Replay · ${game.title}`;
    const viewer = document.getElementById("viewer");
    viewer.replaceChildren(el("option", { value: "" }, "the table"), ...game.seats.map((s) => el("option", { value: s.seat }, seatName(game.seats, s.seat))));
    viewer.addEventListener("change", () => show(ply));
    document.getElementById("first").addEventListener("click", () => show(0));
    document.getElementById("back").addEventListener("click", () => show(ply - 1));
    document.getElementById("forward").addEventListener("click", () => show(ply + 1));
    document.getElementById("last").addEventListener("click", () => show(total));
    document.getElementById("slider").addEventListener("input", (e) => show(Number(e.target.value)));
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
      if (e.key === "ArrowLeft") show(ply - 1);
      if (e.key === "ArrowRight") show(ply + 1);
    });
    total = game.ply;
    await show(0);
  } catch (error) {
    const box = document.getElementById("message");
    box.textContent = error.message;
    box.classList.remove("hidden");
  }
}

start();
