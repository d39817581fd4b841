// Tiny DOM helpers: the app uses no UI framework.

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | EventListener | undefined | null>;

/** h builds an element: h("button", {onclick: f, class: "x"}, "Roll"). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") {
      el.addEventListener(k.slice(2), v as EventListener);
    } else if (k === "value" && "value" in el) {
      (el as HTMLInputElement).value = String(v);
    } else if (k === "style") {
      // Through the CSSOM: the Content-Security-Policy (style-src 'self')
      // refuses a style attribute, not a style set from script.
      el.style.cssText = String(v);
    } else {
      el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  append(el, ...children);
  return el;
}

export function append(el: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
}

/** replace empties el and puts children in it. */
export function replace(el: Element, ...children: Child[]): void {
  // A live page redraws under the player's hands: a snapshot can land between
  // a keyboard user's Tab and Enter. The focus goes back to the redrawn
  // control of the same id, so the key reaches what the player chose.
  const focused = document.activeElement;
  const id = focused && focused !== el && el.contains(focused) ? focused.id : "";
  el.replaceChildren();
  append(el, ...children);
  if (id && (!document.activeElement || document.activeElement === document.body)) {
    const again = el.querySelector<HTMLElement>(`#${CSS.escape(id)}`);
    again?.focus({ preventScroll: true }); // a redraw must not move the page under the player
  }
}

/**
 * ErrorBox is the visible place a page shows what the API refused: every
 * error a call returns is shown with its message, never swallowed.
 */
export class ErrorBox {
  readonly el = h("div", { class: "error", role: "alert", hidden: true });
  show(err: unknown): void {
    this.el.textContent = err instanceof Error ? err.message : String(err);
    this.el.hidden = false;
  }
  clear(): void {
    this.el.textContent = "";
    this.el.hidden = true;
  }
  /** run calls f, showing its error (and clearing an old one on success). */
  async run<T>(f: () => Promise<T>): Promise<T | undefined> {
    try {
      const out = await f();
      this.clear();
      return out;
    } catch (err) {
      this.show(err);
      return undefined;
    }
  }
}

/** button makes a button that runs an action and disables itself meanwhile. */
export function button(label: string, onClick: () => Promise<unknown> | void, attrs: Attrs = {}): HTMLButtonElement {
  const b = h("button", { type: "button", ...attrs }, label);
  b.addEventListener("click", async () => {
    b.disabled = true;
    try {
      await onClick();
    } finally {
      b.disabled = false;
    }
  });
  return b;
}

/** field is a labelled input. */
export function field(label: string, attrs: Attrs = {}): { row: HTMLLabelElement; input: HTMLInputElement } {
  const input = h("input", attrs);
  return { row: h("label", {}, label, " ", input), input };
}

/** select is a labelled select of options. */
export function select(label: string, options: string[], attrs: Attrs = {}): { row: HTMLLabelElement; input: HTMLSelectElement } {
  const input = h("select", attrs, ...options.map((o) => h("option", { value: o }, o)));
  return { row: h("label", {}, label, " ", input), input };
}

export function navigate(hash: string): void {
  location.hash = hash;
}

/** svg builds an SVG element (h builds HTML ones). */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}, ...children: (Node | string)[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}
