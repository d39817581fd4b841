// Sign in: as a guest (a nickname), or with an account (register / login).
// A race link (#/tilerace/<id>) opened signed out first offers that race's
// team sign-in (and its admins'), as the race page does for a signed-in
// tab. Each form submits with Enter.

import { signIn } from "../api";
import { ErrorBox, field, h, navigate } from "../ui";

/** form builds a card form whose submit (Enter in a field, or its button) runs submit. */
function form(id: string, title: string, submit: () => Promise<void>, ...children: (HTMLElement | false)[]): HTMLFormElement {
  const f = h("form", { class: "card", id, "aria-label": title }, h("h2", {}, title), ...children);
  f.addEventListener("submit", (e) => {
    e.preventDefault();
    const buttons = [...f.querySelectorAll("button")];
    buttons.forEach((b) => (b.disabled = true));
    void submit().finally(() => buttons.forEach((b) => (b.disabled = false)));
  });
  return f;
}

function submitButton(label: string, id: string, primary = true): HTMLButtonElement {
  return h("button", { type: "submit", id, class: primary ? "primary" : undefined }, label);
}

export function signinPage(root: HTMLElement, next: string): () => void {
  const err = new ErrorBox();
  // A deep link (#/tilerace/<id>) signs in on its own address: no hashchange, so route again.
  const done = () => (location.hash === (next || "#/") ? window.dispatchEvent(new HashChangeEvent("hashchange")) : navigate(next || "#/"));
  const run = (body: Record<string, unknown>) =>
    err
      .run(async () => {
        await signIn(body);
        done();
      })
      .then(() => {});

  const nick = field("nickname", { name: "nickname", maxlength: 40, value: "", placeholder: "Ann", autocomplete: "nickname" });
  const guest = form("guest-form", "Play as a guest", () => run({ type: "guest", nickname: nick.input.value.trim() }), nick.row, h("div", { class: "row" }, submitButton("Play as guest", "guest-signin")));

  const user = field("username", { name: "username", autocomplete: "username" });
  const pass = field("password", { name: "password", type: "password", autocomplete: "current-password" });
  const name = field("nickname (to register)", { name: "regnick", autocomplete: "off" });
  const register = h("button", { type: "button", id: "register" }, "Register");
  const account = form(
    "account-form",
    "Account",
    () => run({ type: "login", username: user.input.value.trim(), password: pass.input.value }),
    user.row,
    pass.row,
    name.row,
    h("div", { class: "row" }, submitButton("Log in", "login"), register),
  );
  register.addEventListener("click", () => {
    register.disabled = true;
    void run({ type: "register", username: user.input.value.trim(), password: pass.input.value, nickname: name.input.value.trim() || user.input.value.trim() }).finally(() => (register.disabled = false));
  });

  const race = /^#\/tilerace\/([^/]+)/.exec(next)?.[1];
  const forms: HTMLElement[] = [guest, account];
  let intro: HTMLElement | null = null;
  if (race) {
    const team = field("team name", { id: "signin-team", name: "team", autocomplete: "off" });
    const teamPass = field("team password", { id: "signin-team-password", name: "team-password", type: "password", autocomplete: "current-password" });
    const admin = field("admin name", { id: "signin-admin", name: "admin", autocomplete: "off" });
    const adminPass = field("admin password", { id: "signin-admin-password", name: "admin-password", type: "password", autocomplete: "current-password" });
    forms.unshift(
      form("team-signin-form", "Sign in as a team member", () => run({ type: "teamLogin", gameId: race, team: team.input.value.trim(), password: teamPass.input.value }), team.row, teamPass.row, h("div", { class: "row" }, submitButton("Sign in to the race", "team-signin"))),
      form("admin-signin-form", "Sign in as a race admin", () => run({ type: "adminLogin", gameId: race, admin: admin.input.value.trim(), password: adminPass.input.value }), admin.row, adminPass.row, h("div", { class: "row" }, submitButton("Sign in as admin", "admin-signin", false))),
    );
    intro = h("p", { class: "note", id: "race-signin-note" }, "You opened a Tile Race. Sign in with your team's name and password (your admin gave them to you), or as a guest to watch.");
  }
  root.replaceChildren(h("h1", {}, race ? "Sign in to the race" : "Sign in"), intro ?? "", err.el, h("div", { class: "cols" }, ...forms));
  (race ? root.querySelector<HTMLInputElement>("#signin-team") : nick.input)?.focus();
  return () => {};
}
