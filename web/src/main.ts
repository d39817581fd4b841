// The router: #/ (the lobby, or sign-in), #/signin, #/watch/<id> (any game,
// read-only: the game's own page with {watch: true}) and #/<kind>/<id> for a
// game page. Each page is its own chunk, loaded on first use (a dynamic
// import()), so the sign-in page and the lobby do not load every game; a
// kind without a page opens the spectator page.

import { session, signOut, type Session } from "./api";
import type { Page, PageOpts } from "./games";
import { ErrorBox, h, replace } from "./ui";

const pages: Record<string, () => Promise<Page>> = {
  codebowl: () => import("./pages/codebowl").then((m) => m.codebowlPage),
  dashdice: () => import("./pages/dashdice").then((m) => m.dashdicePage),
  hexdice: () => import("./pages/hexdice").then((m) => m.hexdicePage),
  partyboard: () => import("./pages/partyboard").then((m) => m.partyboardPage),
  replay: () => import("./pages/replay").then((m) => m.replayPage),
  tilerace: () => import("./pages/tilerace/page").then((m) => m.tileracePage),
};
const spectate = () => import("./pages/spectate").then((m) => m.spectatePage);

/** registerPage adds a game page at #/<kind>/<id> (for pages in their own files). */
export function registerPage(kind: string, page: Page): void {
  pages[kind] = () => Promise.resolve(page);
}

const app = document.getElementById("app")!;
const who = document.getElementById("who")!;
let stop: () => void = () => {};
let generation = 0;

/** pageFor finds the page of a route: a game's own, or the spectator page. */
async function pageFor(name: string, params: string[], s: Session): Promise<{ page?: Page; opts: PageOpts }> {
  if (name === "watch" && params[0]) {
    const { gameKind } = await import("./live");
    const kind = await gameKind(s, params[0]);
    const load = kind ? pages[kind] : undefined;
    return { page: await (load ?? spectate)(), opts: { watch: true } };
  }
  const load = pages[name] ?? (params.length > 0 ? spectate : undefined);
  return { page: load && (await load()), opts: { watch: false } };
}

async function route(): Promise<void> {
  const gen = ++generation;
  stop();
  stop = () => {};
  const [name = "", ...params] = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  const s = session();
  replace(
    who,
    s ? h("span", {}, `${s.player.name} (${s.player.role}) `, h("a", { href: "#/signin", id: "signout", onclick: () => signOut() }, "sign out")) : "",
  );
  app.setAttribute("aria-busy", "true");
  try {
    if (!s || name === "signin") {
      const { signinPage } = await import("./pages/signin");
      if (gen !== generation) return;
      stop = signinPage(app, s && name !== "signin" ? location.hash : name === "signin" ? "#/" : location.hash);
      return;
    }
    if (name === "") {
      const { lobbyPage } = await import("./pages/lobby");
      if (gen !== generation) return;
      stop = lobbyPage(app, s);
      return;
    }
    const { page, opts } = await pageFor(name, params, s);
    if (gen !== generation) return;
    if (!page) {
      const err = new ErrorBox();
      err.show(`no page ${location.hash}`);
      app.replaceChildren(err.el);
      return;
    }
    const stopper = await page(app, params, s, opts);
    if (gen !== generation) stopper();
    else stop = stopper;
  } catch (e) {
    if (gen !== generation) return;
    const err = new ErrorBox();
    err.show(e);
    app.replaceChildren(err.el);
  } finally {
    if (gen === generation) {
      app.removeAttribute("aria-busy");
      // A new page: its heading is where a screen reader and the keyboard start.
      app.querySelector<HTMLElement>("h1")?.setAttribute("tabindex", "-1");
    }
  }
}

window.addEventListener("hashchange", () => void route());
void route();
