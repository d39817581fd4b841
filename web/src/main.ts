// The router: #/ (the lobby, or sign-in), #/signin, #/watch/<id> (any game,
// read-only) and #/<kind>/<id> for a game page. A game page is one file in
// pages/ registered in `pages` below; a kind without a page opens the
// spectator page.

import { session, signOut } from "./api";
import type { Page } from "./games";
import { codebowlPage } from "./pages/codebowl";
import { dashdicePage } from "./pages/dashdice";
import { hexdicePage } from "./pages/hexdice";
import { lobbyPage } from "./pages/lobby";
import { partyboardPage } from "./pages/partyboard";
import { replayPage } from "./pages/replay";
import { signinPage } from "./pages/signin";
import { spectatePage } from "./pages/spectate";
import { tileracePage } from "./pages/tilerace/page";
import { ErrorBox, h, replace } from "./ui";

const pages: Record<string, Page> = {
  codebowl: codebowlPage,
  dashdice: dashdicePage,
  hexdice: hexdicePage,
  partyboard: partyboardPage,
  replay: replayPage,
  tilerace: tileracePage,
  watch: spectatePage,
};

/** registerPage adds a game page at #/<kind>/<id> (for pages in their own files). */
export function registerPage(kind: string, page: Page): void {
  pages[kind] = page;
}

const app = document.getElementById("app")!;
const who = document.getElementById("who")!;
let stop: () => void = () => {};
let generation = 0;

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
  if (!s || name === "signin") {
    stop = signinPage(app, s && name !== "signin" ? location.hash : name === "signin" ? "#/" : location.hash);
    return;
  }
  if (name === "") {
    stop = lobbyPage(app, s);
    return;
  }
  const page = pages[name] ?? (params.length > 0 ? spectatePage : undefined);
  if (!page) {
    const err = new ErrorBox();
    err.show(`no page ${location.hash}`);
    app.replaceChildren(err.el);
    return;
  }
  try {
    const stopper = await page(app, params, s);
    if (gen !== generation) stopper();
    else stop = stopper;
  } catch (e) {
    const err = new ErrorBox();
    err.show(e);
    app.replaceChildren(err.el);
  }
}

window.addEventListener("hashchange", () => void route());
void route();
