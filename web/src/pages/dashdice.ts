// A DashDice match, live: scores, turn score, multiplier, dice, the turn
// timer, whose turn it is, the buttons the player may press now, the event
// log, rematch, and after the match the "verify the dice" panel.

import { act, type Session } from "../api";
import { deadlineClock, millis, showRoomCode, watchGame, type EventRecord, type GameDoc } from "../live";
import { ErrorBox, button, h, navigate, replace } from "../ui";
import { VerifyPanel } from "../verifypanel";
import { describeRecord } from "./spectate";
import { now, pageTimings } from "../timings";



export async function dashdicePage(root: HTMLElement, [id]: string[], s: Session): Promise<() => void> {
  const timings = pageTimings();
  const me = s.player.id;
  const err = new ErrorBox();
  const el = {
    title: h("h1", {}, "DashDice"),
    phase: h("span", { id: "phase" }),
    version: h("span", { id: "version" }),
    turn: h("p", { id: "turn", class: "turn" }),
    host: h("div", { class: "player", id: "host" }),
    opp: h("div", { class: "player", id: "opponent" }),
    dice: h("div", { id: "dice", class: "dice" }),
    turnScore: h("span", { id: "turn-score" }),
    multiplier: h("span", { id: "multiplier" }),
    timer: h("span", { id: "timer" }),
    room: h("p", { id: "room" }),
    result: h("p", { id: "result", class: "result" }),
    buttons: h("div", { class: "row buttons", id: "buttons" }),
    events: h("ol", { id: "events", class: "events", reversed: true }),
  };
  const verify = new VerifyPanel();
  let game: GameDoc | null = null;
  let records: EventRecord[] = [];
  const clock = deadlineClock(el.timer, 5000, () => void err.run(() => act("DashDice", { gameId: id, type: "advance" })));

  // Turn actions carry the version the player saw, so a double click or a
  // stale page cannot act twice; join, forfeit and rematch need no order.
  const send = (type: string, extra: Record<string, unknown> = {}) =>
    err.run(async () => {
      const click: (typeof timings.clicks)[number] = { at: now(), version: game?.version ?? -1, type };
      timings.clicks.push(click);
      const version = ["call", "roll", "bank"].includes(type) ? game?.version : undefined;
      await act("DashDice", { gameId: id, type, version, ...extra });
      click.replied = now();
    });

  const btn = {
    join: button("Join", () => send("join"), { id: "join" }),
    odd: button("Call odd", () => send("call", { call: "odd" }), { id: "call-odd" }),
    even: button("Call even", () => send("call", { call: "even" }), { id: "call-even" }),
    roll: button("Roll", () => send("roll"), { id: "roll", class: "primary" }),
    bank: button("Bank", () => send("bank"), { id: "bank" }),
    forfeit: button("Forfeit", () => (confirm("Forfeit this match?") ? send("forfeit") : undefined), { id: "forfeit" }),
    rematch: button("Rematch", () => send("rematch"), { id: "rematch" }),
  };

  root.replaceChildren(
    el.title,
    h("p", { class: "meta" }, "phase ", el.phase, " · version ", el.version, " · ", h("a", { href: `#/watch/${id}`, id: "spectate-link" }, "spectator link")),
    el.room,
    err.el,
    el.turn,
    h("div", { class: "board" }, el.host, h("div", { class: "middle" }, el.dice, h("p", {}, "turn score ", el.turnScore, " · ×", el.multiplier), h("p", {}, "timer ", el.timer)), el.opp),
    el.result,
    el.buttons,
    verify.el,
    h("h2", {}, "Events"),
    el.events,
  );

  const seat = (st: any) => (st.host?.id === me ? "host" : st.opponent?.id === me ? "opponent" : "");

  function render() {
    if (!game) return;
    const st = game.state;
    timings.seen[game.version] ??= now();
    el.title.textContent = `DashDice — ${st.mode?.name ?? ""}`;
    el.phase.textContent = st.phase;
    el.room.hidden = st.phase !== "waiting";
    el.version.textContent = String(game.version);
    const player = (p: any, which: string) =>
      p
        ? [h("h3", {}, `${p.name}${p.id === me ? " (you)" : ""}`), h("p", { class: "score", id: `score-${which}` }, String(p.score)), h("p", { class: "note" }, `${which}${st.currentTurn === which ? " · on turn" : ""}${p.rematch ? " · wants a rematch" : ""}`)]
        : [h("h3", {}, "waiting for an opponent…")];
    replace(el.host, ...player(st.host, "host"));
    replace(el.opp, ...player(st.opponent, "opponent"));
    el.host.classList.toggle("on-turn", st.currentTurn === "host");
    el.opp.classList.toggle("on-turn", st.currentTurn === "opponent");
    const [a, b] = st.dice ?? [0, 0];
    replace(el.dice, h("span", { class: "die" }, a ? String(a) : "–"), h("span", { class: "die" }, b ? String(b) : "–"), st.rollClass ? h("span", { class: "note" }, st.rollClass) : null);
    el.turnScore.textContent = String(st.turnScore ?? 0);
    el.multiplier.textContent = String(st.multiplier ?? 1);
    const mySeat = seat(st);
    el.turn.textContent =
      st.phase === "waiting" ? "Waiting for an opponent to join."
      : st.phase === "turnDecider" ? (mySeat === "opponent" ? "Call odd or even: a correct call starts." : `${st.opponent?.name} calls odd or even.`)
      : st.phase === "gameplay" ? (st.currentPlayerId === me ? "Your turn: roll or bank." : `${st[st.currentTurn]?.name}'s turn.`)
      : "The match is over.";
    if (st.phase === "gameOver") {
      const w = st.winner === st.host?.id ? st.host : st.winner === st.opponent?.id ? st.opponent : null;
      el.result.textContent = st.endReason === "cancelled" ? "Cancelled." : st.draw ? "A draw." : `${w?.name ?? "?"} wins (${st.endReason}).`;
      if (st.rematchId) el.result.append(" ", h("a", { href: `#/dashdice/${st.rematchId}`, id: "rematch-link" }, "Go to the rematch"));
    } else el.result.textContent = "";

    const show: HTMLButtonElement[] = [];
    if (st.phase === "waiting" && !mySeat) show.push(btn.join);
    if (st.phase === "turnDecider" && mySeat === "opponent") show.push(btn.odd, btn.even);
    if (st.phase === "gameplay" && st.currentPlayerId === me) {
      show.push(btn.roll);
      if (st.mode?.ruleSet !== "true-grit") show.push(btn.bank);
    }
    if (mySeat && st.phase !== "gameOver") show.push(btn.forfeit);
    if (mySeat && st.phase === "gameOver" && st.endReason !== "cancelled" && !st.rematchId) {
      btn.rematch.textContent = st[mySeat]?.rematch ? "Rematch asked…" : "Rematch";
      show.push(btn.rematch);
    }
    // Keep the nodes (a pressed button stays the same element) and only swap the set.
    if (show.length !== el.buttons.children.length || show.some((b, i) => el.buttons.children[i] !== b)) replace(el.buttons, ...show);
    verify.update(game, records);
    tick();
  }

  function tick() {
    const st = game?.state;
    clock(st && st.phase !== "gameOver" ? millis(st.turnDeadline) : undefined, !!(st && seat(st)), st?.turnSeconds ? "–" : "off");
  }

  const timer = setInterval(tick, 250);
  const watch = await watchGame(s, id, {
    game(g) {
      if (!g) return err.show(`no game ${id}`);
      if (g.kind !== "dashdice") return navigate(`#/watch/${id}`);
      const first = !game;
      game = g;
      render();
      if (first && g.hasRoom && seat(g.state)) {
        showRoomCode(s, id, el.room, "your opponent", (e) => err.show(e));
      }
    },
    events(r) {
      records = r;
      replace(el.events, ...r.slice(-40).reverse().map((rec) => h("li", {}, describeRecord(rec))));
      render();
    },
    error: (e) => err.show(e),
  });
  return () => {
    clearInterval(timer);
    watch.stop();
  };
}
