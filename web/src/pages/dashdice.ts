// A DashDice match, live: scores, turn score, multiplier, the dice drawn as
// dice, the turn timer, whose turn it is, the buttons the player may press
// now (also on the keyboard: R roll, B bank, O/E call odd/even), the event
// log in words, the winner's moment, rematch, and after the match the
// "verify the dice" panel. Opened with {watch: true} (#/watch/<id>) it is the
// spectator's view: the same table, no controls.

import { act, type Session } from "../api";
import type { PageOpts } from "../games";
import { deadlineClock, roomCode, watchGame, type EventRecord, type GameDoc } from "../live";
import { millis } from "../firebase";
import { ErrorBox, button, h, navigate, replace, svg } from "../ui";
import { VerifyPanel } from "../verifypanel";
import { phaseName, recordText } from "../words";
import { now, pageTimings } from "../timings";

// Where the pips of each face are, on a 3×3 grid (0..2 per axis).
const PIPS: Record<number, [number, number][]> = {
  1: [[1, 1]],
  2: [[0, 0], [2, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
};

/** die draws one die face (an SVG with its value for screen readers); 0: not rolled yet. */
export function die(n: number, which: string): SVGSVGElement {
  const label = n ? `${which} die: ${n}` : `${which} die: not rolled`;
  const face = svg("svg", { viewBox: "0 0 60 60", class: `die-face${n ? "" : " blank"}`, role: "img", "aria-label": label, "data-value": n });
  face.append(svg("title", {}, label), svg("rect", { x: 2, y: 2, width: 56, height: 56, rx: 10, class: "die-body" }));
  for (const [x, y] of PIPS[n] ?? []) face.append(svg("circle", { cx: 14 + x * 16, cy: 14 + y * 16, r: 5.5, class: "pip" }));
  return face;
}

const CLASS_WORDS: Record<string, string> = { singleOne: "a single 1", snakeEyes: "snake eyes", doubleSix: "double six", double: "a double", normal: "" };
const END_WORDS: Record<string, string> = { target: "reached the target", score: "the higher score", forfeit: "the opponent forfeited", abandoned: "the opponent stopped playing" };

/** blankPlayer is a player's card before the match arrives: its three lines, empty. */
const blankPlayer = () => [h("h2", { "aria-hidden": "true" }, "\u00a0"), h("p", { class: "score", "aria-hidden": "true" }, "\u00a0"), h("p", { class: "note", "aria-hidden": "true" }, "\u00a0")];

export async function dashdicePage(root: HTMLElement, [id]: string[], s: Session, opts: PageOpts = { watch: false }): Promise<() => void> {
  const timings = pageTimings();
  const me = s.player.id;
  const watching = opts.watch;
  const err = new ErrorBox();
  const el = {
    title: h("h1", {}, "DashDice"),
    phase: h("span", { id: "phase" }),
    version: h("span", { id: "version" }),
    // Until the match arrives the turn line, the players' cards and the dice
    // are drawn blank at their full size: filling them moves nothing (layout shift).
    turn: h("p", { id: "turn", class: "turn", "aria-live": "polite" }, "\u00a0"),
    host: h("section", { class: "player", id: "host", "aria-label": "host" }, ...blankPlayer()),
    opp: h("section", { class: "player", id: "opponent", "aria-label": "opponent" }, ...blankPlayer()),
    dice: h("div", { id: "dice", class: "dice" }, die(0, "first"), die(0, "second")),
    roll: h("p", { id: "roll-class", class: "note" }),
    turnScore: h("span", { id: "turn-score" }),
    multiplier: h("span", { id: "multiplier" }),
    timer: h("span", { id: "timer" }),
    room: h("p", { id: "room", hidden: true }),
    result: h("div", { id: "result", class: "result", role: "status" }),
    // A button's height held from the first paint (the row fills with the match).
    buttons: h("div", { class: "row buttons", id: "buttons", role: "group", "aria-label": "your moves", style: "min-height:2.25rem" }),
    events: h("ol", { id: "events", class: "events", reversed: true, "aria-label": "what happened, newest first", tabindex: 0 }),
  };
  const verify = new VerifyPanel();
  let game: GameDoc | null = null;
  let records: EventRecord[] = [];
  let code: string | undefined;
  let fetching = false;
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
    join: button("Join", () => send("join"), { id: "join", class: "primary" }),
    odd: button("Call odd", () => send("call", { call: "odd" }), { id: "call-odd", "aria-keyshortcuts": "O" }),
    even: button("Call even", () => send("call", { call: "even" }), { id: "call-even", "aria-keyshortcuts": "E" }),
    roll: button("Roll", () => send("roll"), { id: "roll", class: "primary", "aria-keyshortcuts": "R" }),
    bank: button("Bank", () => send("bank"), { id: "bank", "aria-keyshortcuts": "B" }),
    forfeit: button("Forfeit", () => (confirm("Forfeit this match?") ? send("forfeit") : undefined), { id: "forfeit", class: "danger" }),
    rematch: button("Rematch", () => send("rematch"), { id: "rematch", class: "primary" }),
    // The host seats a bot in a waiting match (docs/bots.md): it plays
    // through the same pipeline, moved by the server.
    botRandom: button("Play a random bot", () => send("addBot", { level: "random" }), { id: "bot-random" }),
    botStrong: button("Play a strong bot", () => send("addBot", { level: "strong" }), { id: "bot-strong" }),
  };

  root.replaceChildren(
    el.title,
    h(
      "p",
      { class: "meta" },
      "Phase: ",
      el.phase,
      " · move ",
      el.version,
      " · ",
      watching ? h("span", { id: "watching", class: "badge" }, "watching") : h("a", { href: `#/watch/${id}`, id: "spectate-link" }, "spectator link"),
    ),
    el.room,
    err.el,
    el.turn,
    el.result,
    h(
      "div",
      { class: "board" },
      el.host,
      h("div", { class: "middle" }, el.dice, el.roll, h("p", {}, "Turn score ", el.turnScore, " · multiplier ×", el.multiplier), h("p", {}, "Timer ", el.timer)),
      el.opp,
    ),
    watching ? "" : el.buttons,
    watching ? "" : h("p", { class: "note keys" }, "Keys: R roll, B bank, O / E call odd / even."),
    verify.el,
    h("h2", {}, "What happened"),
    el.events,
  );

  const seat = (st: any) => (watching ? "" : st.host?.id === me ? "host" : st.opponent?.id === me ? "opponent" : "");

  function render() {
    if (!game) return;
    const st = game.state;
    timings.seen[game.version] ??= now();
    el.title.textContent = `DashDice — ${st.mode?.name ?? ""}`;
    el.phase.textContent = phaseName("dashdice", st.phase);
    el.phase.dataset.phase = st.phase;
    el.version.textContent = String(game.version);
    const mySeat = seat(st);
    // The room code is the host's to share, only while the match waits for
    // an opponent: the opponent who joined never sees it.
    el.room.hidden = !(code && st.phase === "waiting" && mySeat === "host");
    if (!el.room.hidden) replace(el.room, "Room code: ", h("strong", { id: "room-code" }, code!), " — give it to your opponent.");
    const player = (p: any, which: string) => {
      const onTurn = st.currentTurn === which && st.phase === "gameplay";
      const won = st.phase === "gameOver" && p && st.winner === p.id;
      return p
        ? [
            h("h2", {}, `${p.name}${p.id === me ? " (you)" : ""}`),
            h("p", { class: "score", id: `score-${which}`, "aria-label": `${p.name}'s score: ${p.score}` }, String(p.score)),
            h("p", { class: "note" }, which, onTurn ? h("strong", { class: "turn-tag" }, " · ▶ on turn") : "", won ? h("strong", { class: "win-tag" }, " · 🏆 winner") : "", p.rematch ? " · wants a rematch" : ""),
          ]
        : [h("h2", {}, "Waiting for an opponent…")];
    };
    replace(el.host, ...player(st.host, "host"));
    replace(el.opp, ...player(st.opponent, "opponent"));
    el.host.classList.toggle("on-turn", st.currentTurn === "host" && st.phase === "gameplay");
    el.opp.classList.toggle("on-turn", st.currentTurn === "opponent" && st.phase === "gameplay");
    const [a, b] = st.dice ?? [0, 0];
    if (el.dice.dataset.dice !== `${a},${b}`) {
      el.dice.dataset.dice = `${a},${b}`;
      replace(el.dice, die(a, "first"), die(b, "second"));
    }
    el.roll.textContent = st.rollClass && CLASS_WORDS[st.rollClass] ? `Last roll: ${CLASS_WORDS[st.rollClass]}` : "";
    el.turnScore.textContent = String(st.turnScore ?? 0);
    el.multiplier.textContent = String(st.multiplier ?? 1);
    const current = st[st.currentTurn]?.name;
    el.turn.textContent =
      st.phase === "waiting" ? (mySeat === "host" ? "Waiting for an opponent to join." : watching ? "Waiting for an opponent to join." : "This match waits for an opponent: join it.")
      : st.phase === "turnDecider" ? (mySeat === "opponent" ? "Call odd or even: a right call starts." : `${st.opponent?.name} calls odd or even to decide who starts.`)
      : st.phase === "gameplay" ? (st.currentPlayerId === me && !watching ? "Your turn: roll or bank." : `${current}'s turn.`)
      : "The match is over.";
    if (st.phase === "gameOver") {
      const w = st.winner === st.host?.id ? st.host : st.winner === st.opponent?.id ? st.opponent : null;
      const why = END_WORDS[st.endReason] ?? st.endReason;
      const headline = st.endReason === "cancelled" ? "The match was cancelled." : st.draw ? "A draw!" : w?.id === me && !watching ? `🏆 You win! (${why})` : `🏆 ${w?.name ?? "?"} wins! (${why})`;
      if (el.result.dataset.headline !== headline || (st.rematchId && !el.result.querySelector("#rematch-link"))) {
        el.result.dataset.headline = headline;
        replace(el.result, h("p", { id: "winner", class: `winner${st.draw || st.endReason === "cancelled" ? " plain" : ""}` }, headline));
        if (st.rematchId) el.result.append(h("p", {}, h("a", { href: `#/${watching ? "watch" : "dashdice"}/${st.rematchId}`, id: "rematch-link" }, "Go to the rematch")));
        if (st.endReason !== "cancelled") el.result.append(h("p", {}, h("a", { href: `#/replay/${id}`, id: "replay-link" }, "Watch the replay")));
      }
    } else if (el.result.childElementCount) replace(el.result);

    const show: HTMLButtonElement[] = [];
    if (!watching) {
      if (st.phase === "waiting" && !mySeat) show.push(btn.join);
      if (st.phase === "waiting" && mySeat === "host") show.push(btn.botRandom, btn.botStrong);
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

  // Keyboard play: a key presses the button it names, when that button is shown.
  const keys: Record<string, HTMLButtonElement> = { r: btn.roll, b: btn.bank, o: btn.odd, e: btn.even };
  const onKey = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey || (e.target as HTMLElement)?.closest?.("input, textarea, select")) return;
    const b = keys[e.key.toLowerCase()];
    if (b && b.isConnected && !b.disabled) {
      e.preventDefault();
      b.click();
    }
  };
  if (!watching) document.addEventListener("keydown", onKey);

  const timer = setInterval(tick, 250);
  const watch = await (opts.source?.watchGame ?? watchGame)(s, id, {
    game(g) {
      if (!g) return err.show(`no game ${id}`);
      if (g.kind !== "dashdice") return navigate(`#/watch/${id}`);
      game = g;
      render();
      // The host's room code, read once; again on a later snapshot if the
      // read failed (the emulator or the network was away).
      if (!code && !fetching && g.hasRoom && seat(g.state) === "host" && g.state.phase === "waiting") {
        fetching = true;
        roomCode(s, g)
          .then((c) => {
            code = c;
            render();
          }, (e) => err.show(e))
          .finally(() => (fetching = false));
      }
    },
    events(r) {
      records = r;
      replace(el.events, ...r.slice(-40).reverse().map((rec) => h("li", {}, recordText(rec))));
      render();
    },
    error: (e) => err.show(e),
  });
  return () => {
    clearInterval(timer);
    document.removeEventListener("keydown", onKey);
    watch.stop();
  };
}
