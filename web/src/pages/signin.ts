// Sign in: as a guest (a nickname), or with an account (register / login).

import { signIn } from "../api";
import { ErrorBox, button, field, h, navigate } from "../ui";

export function signinPage(root: HTMLElement, next: string): () => void {
  const err = new ErrorBox();
  // A deep link (#/tilerace/<id>) signs in on its own address: no hashchange, so route again.
  const done = () => (location.hash === (next || "#/") ? window.dispatchEvent(new HashChangeEvent("hashchange")) : navigate(next || "#/"));

  const nick = field("nickname", { name: "nickname", maxlength: 40, value: "", placeholder: "Ann" });
  const guest = h(
    "form",
    { class: "card", id: "guest-form" },
    h("h2", {}, "Play as a guest"),
    nick.row,
    button("Play as guest", () => err.run(async () => {
      await signIn({ type: "guest", nickname: nick.input.value.trim() });
      done();
    }), { id: "guest-signin" }),
  );

  const user = field("username", { name: "username", autocomplete: "username" });
  const pass = field("password", { name: "password", type: "password", autocomplete: "current-password" });
  const name = field("nickname (register)", { name: "regnick" });
  const account = h(
    "form",
    { class: "card", id: "account-form" },
    h("h2", {}, "Account"),
    user.row,
    pass.row,
    name.row,
    h(
      "div",
      { class: "row" },
      button("Log in", () => err.run(async () => {
        await signIn({ type: "login", username: user.input.value.trim(), password: pass.input.value });
        done();
      }), { id: "login" }),
      button("Register", () => err.run(async () => {
        await signIn({ type: "register", username: user.input.value.trim(), password: pass.input.value, nickname: name.input.value.trim() || user.input.value.trim() });
        done();
      }), { id: "register" }),
    ),
  );
  for (const f of [guest, account]) f.addEventListener("submit", (e) => e.preventDefault());
  root.replaceChildren(h("h1", {}, "Sign in"), err.el, h("div", { class: "cols" }, guest, account));
  return () => {};
}
